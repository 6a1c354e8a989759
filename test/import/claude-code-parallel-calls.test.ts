import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StoredEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture, importAndOpen, placeFixture, toolCalls, unpairedResults } from "./import-helpers.js";

// Claude Code 2.1 writes each tool call of one response on its own line and points each result at
// its own call's line, running the tools (and writing results) while the response streams. The
// import makes one assistant message per response, its results after it, all on one chain: the
// tree has a branch only where the source has one (a rewind), and every call has its result.

const SESSION = "258c7280-ae70-4798-800f-63464d01a85d";

function leaves(entries: readonly StoredEntry[]): StoredEntry[] {
	const parents = new Set(entries.map((e) => e.parentId));
	return entries.filter((e) => !parents.has(e.id));
}

describe("Claude Code parallel tool calls", () => {
	const dirs = useTempAgentDir();

	it("a real 2.1.39 session: one leaf, every call answered, each response one message", async () => {
		const source = placeFixture(
			"claude-code-07-2.1.39-parallel-calls-compaction.jsonl.gz",
			join(dirs.root, "projects", `${SESSION}.jsonl`),
		);
		const { context, entries } = await importAndOpen(source);
		expect(leaves(entries)).toHaveLength(1);
		expect(unpairedResults(context)).toEqual([]);
		// One response of four calls (lines 1339–1370): the first result is written between the calls'
		// lines, the fourth call's line hangs under it, the other two results under their own calls.
		const batch = [...toolCalls(context).keys()].filter((id) =>
			["3gKSaE", "odkgbQ", "U4ERoU", "jXENkW"].some((end) => id.endsWith(end)),
		);
		expect(batch).toHaveLength(4);
		const holder = context.messages.filter(
			(m) => m.role === "assistant" && m.content.some((b) => b.type === "toolCall" && batch.includes(b.id)),
		);
		expect(holder).toHaveLength(1);
		// Claude Code's order: the calls on the chain back from the next line, then the ones off it.
		const calls = holder[0]!.role === "assistant" ? holder[0]!.content : [];
		const order = calls.flatMap((b) => (b.type === "toolCall" ? [b.id.slice(-6)] : []));
		expect(order).toEqual(["jXENkW", "U4ERoU", "3gKSaE", "odkgbQ"]);
		const results = context.messages.flatMap((m) =>
			m.role === "toolResult" && batch.includes(m.toolCallId) ? [m.toolCallId.slice(-6)] : [],
		);
		expect(results).toEqual(["jXENkW", "3gKSaE", "odkgbQ", "U4ERoU"]);
	});

	it("hand-made from claude-code-01: an edited prompt is a branch of its own, the results are not", async () => {
		const lines = readFileSync(fixture("claude-code-01-short-thinking-tools.jsonl"), "utf8").trimEnd().split("\n");
		const prompt = JSON.parse(lines[3]!) as Record<string, unknown>;
		// The same prompt edited and sent again: a second child of the first prompt's parent.
		const edited = {
			...prompt,
			uuid: "0e0e0e0e-0000-4000-8000-000000000001",
			timestamp: "2026-02-10T21:20:00.000Z",
			message: { role: "user", content: "mix phx.server still does not start" },
		};
		const source = join(dirs.root, "edited.jsonl");
		writeFileSync(source, `${[...lines, JSON.stringify(edited)].join("\n")}\n`);
		const { entries } = await importAndOpen(source);
		expect(leaves(entries)).toHaveLength(2);
	});
});
