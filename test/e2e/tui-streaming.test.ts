import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackLlmServer, startLoopbackLlmServer, writeLoopModels } from "../helpers/loopback-llm-server.js";
import { usePtyProject } from "../helpers/pty-project.js";

/** A 1.4 KB answer of long lines (each wraps to two rows at 100 columns): taller than a 30-row screen. */
const LONG_ANSWER = `${Array.from(
	{ length: 10 },
	(_, i) => `Line ${String(i + 1).padStart(2, "0")}: ${"lorem ipsum dolor sit amet ".repeat(5)}`,
).join("\n")}\nTHE-LAST-LINE of the answer.`;

describe("a streamed answer from an OpenAI-compatible endpoint in the full-screen UI", () => {
	const temp = usePtyProject();
	let server: LoopbackLlmServer;

	beforeEach(async () => {
		server = await startLoopbackLlmServer();
		writeLoopModels(temp.agentDir, `${server.baseUrl}/v1`);
	});
	afterEach(async () => {
		await server.close();
	});

	it("shows the last line of an answer taller than the window, without a resize", async () => {
		expect(LONG_ANSWER.length).toBeGreaterThan(1400);
		// Spread over about two seconds, as a real endpoint streams: Ink draws many frames on the way.
		server.enqueue({ text: LONG_ANSWER, delayMsBetweenChunks: 10 });
		const t = temp.open({ args: ["--model", "loop/loop-model"], cols: 100, rows: 30 });
		await t.waitFor("Type a prompt");
		await t.type("tell me a long story");
		t.write("\r");
		// The turn is over once the editor's idle placeholder is back.
		await t.waitFor((s) => s.includes("Ask anything") && s.includes("Line 10"));
		const screen = await t.waitFor("THE-LAST-LINE of the answer.", 5000);
		expect(screen).toContain("Line 10: lorem ipsum");
	});

	it("Ctrl+T shows and hides thinking that is already on screen", async () => {
		server.enqueue({
			thinking: "I should weigh the question carefully.\nThen answer it briefly.",
			text: "The answer is 42.",
		});
		const t = temp.open({ args: ["--model", "loop/loop-model"], cols: 100, rows: 30 });
		await t.waitFor("Type a prompt");
		await t.type("what is the answer");
		t.write("\r");
		const hidden = await t.waitFor((s) => s.includes("The answer is 42.") && s.includes("Ask anything"));
		expect(hidden).toContain("∴ thinking (2 lines, Ctrl+T to show)");
		expect(hidden).not.toContain("weigh the question");
		t.write("\x14");
		// The whole frame in one condition: a frame can be read half drawn.
		const shown = await t.waitFor(
			(s) => s.includes("I should weigh the question carefully.") && s.includes("The answer is 42."),
		);
		expect(shown).toContain("Then answer it briefly.");
		expect(shown).toContain("The answer is 42.");
		expect(shown.match(/› what is the answer/g)?.length).toBe(1);
		t.write("\x14");
		const again = await t.waitFor((s) => !s.includes("weigh the question") && s.includes("The answer is 42."));
		expect(again).toContain("∴ thinking (2 lines, Ctrl+T to show)");
	});
});
