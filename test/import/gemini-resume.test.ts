import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture, importAndOpen, textOf, unpairedResults } from "./import-helpers.js";

/*
 * Gemini CLI's own resume (`convertSessionToClientHistory`, packages/core/src/utils/sessionUtils.ts
 * in google-gemini/gemini-cli) leaves out info/error/warning records and user lines that are slash
 * commands or `?` help, and sends a reply's tool calls once even when its `content` repeats them
 * as `functionCall` parts. The real gemini-01 chat has none of those lines, so they are added to a
 * copy of it here (hand-made lines in the shapes Gemini CLI writes).
 */

const SESSION = "0ab84937-9fe7-4284-986a-33c832af0b6a";

function withLines(dir: string, extra: string[]): string {
	const lines = readFileSync(fixture("gemini-01-jsonl-2026-04-toolcalls-info.jsonl"), "utf8").trimEnd().split("\n");
	const out = [...lines, ...extra].join("\n");
	const path = join(dir, `session-2026-04-23T12-52-${SESSION.slice(0, 8)}.jsonl`);
	writeFileSync(path, `${out}\n`);
	return path;
}

const at = (s: number) => `2026-04-23T13:10:${String(s).padStart(2, "0")}.000Z`;

describe("a Gemini CLI chat resumes to what Gemini CLI sends", () => {
	const temp = useTempAgentDir();

	it("keeps slash commands and ? help out of the context, and keeps them in the session", async () => {
		const path = withLines(temp.root, [
			JSON.stringify({ id: "cmd-1", timestamp: at(1), type: "user", content: [{ text: "/model" }] }),
			JSON.stringify({ id: "cmd-2", timestamp: at(2), type: "user", content: "  ?" }),
			JSON.stringify({ id: "q-1", timestamp: at(3), type: "user", content: [{ text: "and now the tests" }] }),
			JSON.stringify({
				id: "a-1",
				timestamp: at(4),
				type: "gemini",
				content: "Done.",
				model: "gemini-3.1-pro-preview",
			}),
		]);
		const { context, entries } = await importAndOpen(path, "/projects/bot", true);
		const users = context.messages.filter((m) => m.role === "user").map(textOf);
		expect(users.some((text) => text.trim().startsWith("/") || text.trim() === "?")).toBe(false);
		expect(users.at(-1)).toBe("and now the tests");
		const kept = entries.filter((e) => e.type === "custom").map((e) => JSON.stringify((e as { data?: unknown }).data));
		expect(kept.some((data) => data.includes('"/model"'))).toBe(true);
		expect(kept.some((data) => data.includes('"  ?"'))).toBe(true);
	});

	it("sends a call repeated in content once, and a thought part as thinking, not as JSON text", async () => {
		const call = { id: "run_shell_command_1", name: "run_shell_command", args: { command: "npm test" } };
		const path = withLines(temp.root, [
			JSON.stringify({ id: "q-2", timestamp: at(5), type: "user", content: [{ text: "run the tests" }] }),
			JSON.stringify({
				id: "a-2",
				timestamp: at(6),
				type: "gemini",
				content: [
					{ text: "Planning the run", thought: true },
					{ text: "Running them." },
					{ functionCall: { id: call.id, name: call.name, args: call.args } },
				],
				toolCalls: [
					{
						...call,
						status: "success",
						timestamp: at(7),
						result: [{ functionResponse: { id: call.id, name: call.name, response: { output: "12 passed" } } }],
					},
				],
				model: "gemini-3.1-pro-preview",
			}),
		]);
		const { context } = await importAndOpen(path, "/projects/bot", true);
		const last = context.messages.filter((m) => m.role === "assistant").at(-1);
		if (last?.role !== "assistant") throw new Error("no assistant message");
		expect(last.content.map((b) => b.type)).toEqual(["thinking", "text", "toolCall"]);
		expect(textOf(last)).toBe("Running them.");
		expect(JSON.stringify(last.content)).not.toContain("functionCall");
		const result = context.messages.at(-1);
		expect(result?.role === "toolResult" && textOf(result)).toBe("12 passed");
		expect(unpairedResults(context)).toEqual([]);
	});
});
