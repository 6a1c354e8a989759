import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { claudeResume, contextSignature } from "./claude-code-resume.js";
import { fixtureBytes, importAndOpen, placeFixture, unpairedResults } from "./import-helpers.js";

// A resumed import gives the model what Claude Code's own resume of the same transcript gives it:
// the same messages in the same order, each response one message with its calls, every call
// answered, and nothing from before a compaction. Real transcripts of every Claude Code version in
// test/fixtures/foreign, under the names Claude Code gave them. Not claude-code-06: its last lines
// were written by hand and hang under a record Claude Code does not read, so its walk stops there.
// Not claude-code-05, the compaction helper: its first lines hang under lines of the session it
// was forked from, so it has no resume of its own (xcsh chains such lines from the start).

const FIXTURES: readonly [string, string][] = [
	["claude-code-01-short-thinking-tools.jsonl", "s01.jsonl"],
	["claude-code-02-tool-heavy.jsonl", "s02.jsonl"],
	["claude-code-03-parent-with-task-subagent.jsonl", "s03.jsonl"],
	["claude-code-04-subagent-sidechain.jsonl", "s/subagents/agent-a2898e3.jsonl"],
	["claude-code-07-2.1.39-parallel-calls-compaction.jsonl.gz", "258c7280-ae70-4798-800f-63464d01a85d.jsonl"],
	["claude-code-08-2.1.39-parent-of-04-05-compaction.jsonl.gz", "4d5611e5-241a-462a-8d15-5122611a9569.jsonl"],
];

describe("a resumed Claude Code import sends what Claude Code's resume sends", () => {
	const dirs = useTempAgentDir();

	it.each(FIXTURES)("%s", async (name, as) => {
		const source = placeFixture(name, join(dirs.root, "projects", as));
		const { context } = await importAndOpen(source);
		expect(unpairedResults(context)).toEqual([]);
		// `/command` outputs after the last message are sent too (see claude-code-tree.ts).
		expect(contextSignature(context)).toEqual(claudeResume(fixtureBytes(name).toString("utf8"), true));
	});
});
