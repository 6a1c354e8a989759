import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import type { CompactionEntry, SessionMessageEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { importAndOpen, placeFixture, textOf, transcript } from "./import-helpers.js";

// A Claude Code compaction (a `compact_boundary` system line, then the `isCompactSummary` user
// line) is a compaction: the context starts at the summary, as Claude Code's resume does, while
// the history before it stays in the session, on the same path.

const CASES = [
	{
		name: "claude-code-07-2.1.39-parallel-calls-compaction.jsonl.gz",
		as: "258c7280-ae70-4798-800f-63464d01a85d.jsonl",
		preTokens: 167094,
		firstPrompt: "Implement spotter-gqc",
	},
	{
		name: "claude-code-08-2.1.39-parent-of-04-05-compaction.jsonl.gz",
		as: "4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
		preTokens: 170251,
		firstPrompt: "Work on bead spotter-dov",
	},
] as const;

describe("a Claude Code compaction", () => {
	const dirs = useTempAgentDir();

	it.each(CASES)("$name: the context starts at its summary, the history stays on the path", async (c) => {
		const source = placeFixture(c.name, join(dirs.root, "projects", c.as));
		const { context, entries, result } = await importAndOpen(source);
		const compactions = entries.filter((e): e is CompactionEntry => e.type === "compaction");
		expect(compactions).toHaveLength(1);
		const compaction = compactions[0]!;
		expect(compaction.summary).toMatch(/^This session is being continued from a previous conversation/);
		expect(compaction.tokensBefore).toBe(c.preTokens);
		const first = context.messages[0]!;
		expect(first.role).toBe("compactionSummary");
		expect((first as { summary: string }).summary).toBe(compaction.summary);
		expect(context.messages.filter((m) => m.role === "compactionSummary")).toHaveLength(1);
		// Nothing before the boundary is sent: no user prompt of the first part is in the context.
		expect(context.messages.some((m) => m.role === "user" && textOf(m).startsWith(c.firstPrompt))).toBe(false);
		// …but it is still there, on the path from the root to the leaf.
		const manager = await SessionManager.open(result.sessionFile, { breadcrumb: false, mustExist: true });
		try {
			const path = manager.getBranch();
			const at = path.findIndex((e) => e.id === compaction.id);
			const before = path.slice(0, at);
			expect(
				before.some(
					(e) =>
						e.type === "message" &&
						(e as SessionMessageEntry).message.role === "user" &&
						textOf((e as SessionMessageEntry).message).startsWith(c.firstPrompt),
				),
			).toBe(true);
		} finally {
			await manager.close();
		}
	});

	it("hand-made: a boundary that keeps a segment (newer versions) keeps it in the context after the summary", async () => {
		// Claude Code relinks the segment's head under the summary and what followed the summary under
		// its tail: [summary, kept prompt, kept reply, what came after].
		let n = 0;
		const line = (fields: Record<string, unknown>) =>
			JSON.stringify({ sessionId: "s-kept", timestamp: `2026-06-07T05:0${n++}:00.000Z`, ...fields });
		const user = (uuid: string, parentUuid: string | null, content: string, extra = {}) =>
			line({ type: "user", uuid, parentUuid, message: { role: "user", content }, ...extra });
		const assistant = (uuid: string, parentUuid: string, text: string) =>
			line({
				type: "assistant",
				uuid,
				parentUuid,
				message: { id: `msg_${uuid}`, role: "assistant", model: "claude-x", content: [{ type: "text", text }] },
			});
		const source = join(dirs.root, "kept.jsonl");
		const segment = { headUuid: "u2", anchorUuid: "sum", tailUuid: "a2" };
		writeFileSync(
			source,
			`${[
				user("u1", null, "old prompt"),
				assistant("a1", "u1", "old reply"),
				user("u2", "a1", "kept prompt"),
				assistant("a2", "u2", "kept reply"),
				line({
					type: "system",
					subtype: "compact_boundary",
					uuid: "b1",
					parentUuid: null,
					logicalParentUuid: "a2",
					compactMetadata: { trigger: "manual", preTokens: 900, preservedSegment: segment },
				}),
				user("sum", "b1", "Summary of the old part.", { isCompactSummary: true }),
				user("u3", "sum", "new prompt"),
				assistant("a3", "u3", "new reply"),
			].join("\n")}\n`,
		);
		const { context } = await importAndOpen(source);
		expect(transcript(context)).toEqual([
			"compactionSummary:",
			"user:kept prompt",
			"assistant:kept reply",
			"user:new prompt",
			"assistant:new reply",
		]);
		expect((context.messages[0] as { summary: string }).summary).toBe("Summary of the old part.");
	});
});
