import { join } from "node:path";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import type { SessionMessageEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixtureBytes, importAndOpen, placeFixture } from "./import-helpers.js";

// Claude Code writes one response over several lines, each with the usage so far: the response's
// usage is its last line's. Records without a time of their own (file-history snapshots) take
// their snapshot's, not 1970's.

const NAME = "claude-code-07-2.1.39-parallel-calls-compaction.jsonl.gz";
const AS = "258c7280-ae70-4798-800f-63464d01a85d.jsonl";

type Line = { type?: string; message?: { id?: string; usage?: { output_tokens?: number } } };

/** Each response's output tokens as its last line gives them, summed (what Claude Code was billed). */
function sourceOutputTokens(): number {
	const last = new Map<string, number>();
	for (const raw of fixtureBytes(NAME).toString("utf8").trimEnd().split("\n")) {
		const line = JSON.parse(raw) as Line;
		if (line.type === "assistant" && line.message?.id)
			last.set(line.message.id, line.message.usage?.output_tokens ?? 0);
	}
	return [...last.values()].reduce((sum, n) => sum + n, 0);
}

describe("Claude Code usage and times", () => {
	const dirs = useTempAgentDir();

	it("a response's usage is its last line's: 2,829 output tokens, not the first line's 1", async () => {
		const { entries } = await importAndOpen(placeFixture(NAME, join(dirs.root, "projects", AS)));
		const assistants = entries.flatMap((e) =>
			e.type === "message" && (e as SessionMessageEntry).message.role === "assistant"
				? [(e as SessionMessageEntry).message as AssistantMessage]
				: [],
		);
		const response = assistants.find((m) =>
			m.content.some((b) => b.type === "toolCall" && b.id === "toolu_01ChKBA1NNTN9zf5Uoi5MEGz"),
		);
		expect(response?.usage).toMatchObject({ input: 1, output: 2829, cacheRead: 99118, cacheWrite: 319 });
		expect(sourceOutputTokens()).toBe(38899);
		expect(assistants.reduce((sum, m) => sum + m.usage.output, 0)).toBe(38899);
	});

	it("a file-history snapshot is dated by its snapshot, and nothing by 1970", async () => {
		const { entries } = await importAndOpen(placeFixture(NAME, join(dirs.root, "projects", AS)));
		expect(entries.filter((e) => e.timestamp.startsWith("1970"))).toEqual([]);
		const snapshot = entries.find(
			(e) => e.type === "custom" && (e as { data?: { type?: string } }).data?.type === "file-history-snapshot",
		);
		expect(snapshot?.timestamp).toBe("2026-02-11T20:36:45.693Z");
	});
});
