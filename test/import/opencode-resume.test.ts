import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { importAndOpen, textOf, unpairedResults } from "./import-helpers.js";

/*
 * What opencode itself sends when a session goes on (`toModelMessages` and `filterCompacted` in
 * packages/opencode/src/session/message-v2.ts of anomalyco/opencode): a tool output cleared by its
 * pruning is sent as "[Old tool result content cleared]", a call that never finished as the error
 * "[Tool execution was interrupted]", an interrupted call's partial output as its result, a
 * text/plain file part not at all (its text came in as a synthetic part), and a compaction keeps
 * the messages from its `tail_start_id`. The export is hand-made in opencode's published schema
 * (no real opencode capture is public; see test/fixtures/foreign/opencode/README.md).
 */

const SESSION = "ses_5a10c0ffeeAb12Cd34Ef56Gh78";
let clock = 1_767_300_000_000;

function message(id: string, role: "user" | "assistant", parts: Record<string, unknown>[], extra = {}) {
	clock += 1000;
	const info =
		role === "user"
			? { id, sessionID: SESSION, role, time: { created: clock }, agent: "build" }
			: {
					id,
					sessionID: SESSION,
					role,
					time: { created: clock, completed: clock + 500 },
					modelID: "claude-sonnet-4-5",
					providerID: "anthropic",
					finish: "stop",
					tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
					...extra,
				};
	return {
		info,
		parts: parts.map((part, i) => ({ id: `prt_${id}_${i}`, sessionID: SESSION, messageID: id, ...part })),
	};
}

const tool = (callID: string, state: Record<string, unknown>) => ({ type: "tool", callID, tool: "bash", state });
const time = { start: 1, end: 2 };

function exportFile(dir: string): string {
	const messages = [
		message("msg_u1", "user", [
			{ type: "text", text: "Summarise notes.txt and run the tests." },
			{ type: "text", text: "Called the Read tool with notes.txt: remember the milk", synthetic: true },
			{ type: "file", mime: "text/plain", filename: "notes.txt", url: "file:///home/dana/notes.txt" },
		]),
		message("msg_a1", "assistant", [
			{ type: "step-start" },
			tool("call_cleared", {
				status: "completed",
				input: { command: "cat big.log" },
				output: "a very long log",
				title: "cat",
				metadata: {},
				time: { ...time, compacted: 3 },
			}),
			tool("call_running", { status: "running", input: { command: "npm test" }, time: { start: 1 } }),
			tool("call_stopped", {
				status: "error",
				input: { command: "npm run build" },
				error: "Tool execution aborted",
				metadata: { interrupted: true, output: "built 3 of 7" },
				time,
			}),
			{
				type: "step-finish",
				reason: "tool-calls",
				cost: 0,
				tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
			},
		]),
		message("msg_u2", "user", [{ type: "text", text: "Keep going." }]),
		message("msg_a2", "assistant", [{ type: "text", text: "Going on." }]),
		message("msg_u3", "user", [{ type: "compaction", auto: true, tail_start_id: "msg_u2" }]),
		message("msg_a3", "assistant", [{ type: "text", text: "Summary: read the notes, tests were stopped." }], {
			summary: true,
			parentID: "msg_u3",
		}),
		message("msg_u4", "user", [{ type: "text", text: "Now fix it." }]),
		message("msg_a4", "assistant", [{ type: "text", text: "Fixed." }]),
	];
	const info = {
		id: SESSION,
		projectID: "p1",
		directory: "/home/dana/work",
		title: "Notes",
		time: { created: 1_767_300_000_000 },
	};
	const path = join(dir, "opencode-export.json");
	writeFileSync(path, JSON.stringify({ info, messages }));
	return path;
}

describe("an opencode session resumes to what opencode sends", () => {
	const temp = useTempAgentDir();

	it("sends tool results as opencode does: cleared, interrupted, partial output", async () => {
		const { entries } = await importAndOpen(exportFile(temp.root));
		const results = new Map<string, { text: string; isError: boolean }>();
		for (const entry of entries) {
			const m = (entry as { message?: { role?: string; toolCallId?: string; isError?: boolean } }).message;
			if (m?.role === "toolResult")
				results.set(m.toolCallId ?? "", { text: textOf(m as never), isError: m.isError === true });
		}
		expect(results.get("call_cleared")).toEqual({ text: "[Old tool result content cleared]", isError: false });
		expect(results.get("call_running")).toEqual({ text: "[Tool execution was interrupted]", isError: true });
		expect(results.get("call_stopped")).toEqual({ text: "built 3 of 7", isError: false });
	});

	it("keeps a text/plain file part out of the prompt, and a compaction keeps its tail", async () => {
		const { context, entries } = await importAndOpen(exportFile(temp.root));
		const prompt = entries.map((e) => (e as { message?: { role?: string } }).message).find((m) => m?.role === "user");
		expect(textOf(prompt as never)).toBe("Summarise notes.txt and run the tests.");
		const texts = context.messages.map((m) =>
			m.role === "compactionSummary" ? `summary: ${m.summary}` : `${m.role}: ${textOf(m)}`,
		);
		expect(texts[0]).toBe("summary: Summary: read the notes, tests were stopped.");
		expect(texts.slice(1)).toEqual([
			"user: Keep going.",
			"assistant: Going on.",
			"user: Now fix it.",
			"assistant: Fixed.",
		]);
		expect(unpairedResults(context)).toEqual([]);
	});
});
