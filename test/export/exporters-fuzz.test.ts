import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asText, normalizeMessage } from "../../source/session/message-shape.js";
import type { BashExecutionMessage } from "../../source/session/messages.js";
import { EXPORT_FUZZ_SEED, exportableSession, runEveryExporter } from "../helpers/export-fuzz.js";
import { assistantMessage, imageBlock, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("every exporter tolerates every shape the loader accepts (fast-check)", () => {
	const temp = useTempAgentDir();

	it("HTML, Markdown, JSON, the /dump text and the redaction pass never throw", async () => {
		let n = 0;
		await fc.assert(
			fc.asyncProperty(exportableSession(), async (session) => {
				expect(await runEveryExporter(session.text, join(temp.root, `case-${n++}`))).toEqual([]);
			}),
			{ seed: EXPORT_FUZZ_SEED, numRuns: 200 },
		);
	}, 120_000);

	it("the normalisation leaves well-formed messages as they are", () => {
		const bash: BashExecutionMessage = {
			role: "bashExecution",
			command: "ls",
			output: "a\nb",
			exitCode: 0,
			cancelled: false,
			truncated: false,
			timestamp: 5,
		};
		const assistant = {
			...assistantMessage("done"),
			content: [
				{ type: "thinking" as const, thinking: "hmm", thinkingSignature: "sig" },
				{ type: "text" as const, text: "done" },
				{ type: "toolCall" as const, id: "c1", name: "read", arguments: { path: "a" } },
			],
		};
		for (const message of [
			userMessage("hi"),
			{ ...userMessage("x"), content: [{ type: "text" as const, text: "x" }, imageBlock(4)] },
			assistant,
			toolResultMessage("out", [imageBlock(4)]),
			bash,
		]) {
			expect(normalizeMessage(message)).toStrictEqual(message);
		}
	});

	it("turns odd values into text without ever calling their toString", () => {
		expect(asText(undefined)).toBe("");
		expect(asText(null)).toBe("");
		expect(asText(3)).toBe("3");
		expect(asText({ toString: 1 })).toBe('{"toString":1}');
		expect(normalizeMessage({ role: "compactionSummary", summary: { a: 1 } })).toMatchObject({ summary: '{"a":1}' });
		expect(normalizeMessage({ role: "user", content: 7 })).toMatchObject({ content: [{ type: "text", text: "7" }] });
		expect(normalizeMessage({ role: "assistant" })).toMatchObject({ content: [] });
		expect(normalizeMessage("a string")).toBeUndefined();
	});
});
