import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { KEYS } from "../helpers/keys.js";
import { usePtyProject } from "../helpers/pty-project.js";

/** The status line: the last non-empty row of the chat screen. */
function statusLine(screen: string): string {
	return (
		screen
			.split("\n")
			.filter((line) => line.trim() !== "")
			.at(-1) ?? ""
	);
}

describe("/model without an argument opens a picker", () => {
	const temp = usePtyProject();

	beforeEach(() => {
		mkdirSync(temp.agentDir, { recursive: true });
		// Two models of a local endpoint; nothing is sent to it in these tests.
		writeFileSync(
			join(temp.agentDir, "models.json"),
			JSON.stringify({
				providers: {
					loop: {
						baseUrl: "http://127.0.0.1:9/v1",
						api: "openai-completions",
						apiKey: "sk-loop",
						models: [
							{ id: "model-a", contextWindow: 100_000 },
							{ id: "model-b", contextWindow: 32_000 },
						],
					},
				},
			}),
		);
	});

	it("at 40×12: lists the models, Enter switches like /model <ref>, the status line follows", async () => {
		const t = temp.open({ args: ["--model", "loop/model-a"], cols: 40, rows: 12 });
		await t.waitFor("Type a prompt");
		await t.type("/model");
		t.write(KEYS.enter);
		const picker = await t.waitFor((s) => s.includes("Switch model") && s.includes("loop/model-b"));
		const lines = picker.split("\n");
		expect(lines.find((line) => line.startsWith("›"))).toContain("loop/model-a");
		expect(picker).toContain("xcsh/offline");
		expect(lines.every((line) => line.length <= 40)).toBe(true);
		t.write(KEYS.down);
		await t.waitFor((s) => s.split("\n").some((line) => line.startsWith("›") && line.includes("loop/model-b")));
		t.write(KEYS.enter);
		const chat = await t.waitFor(
			(s) => s.includes("Model: loop/model-b") && s.includes("Ask anything") && statusLine(s).includes(" · "),
		);
		expect(statusLine(chat)).toMatch(/^loop\/model-b · /);
	});

	it("Escape goes back to the chat with the model unchanged", async () => {
		const t = temp.open({ args: ["--model", "loop/model-a"] });
		await t.waitFor("Type a prompt");
		await t.type("/model");
		t.write(KEYS.enter);
		await t.waitFor((s) => s.includes("Switch model — now loop/model-a") && s.includes("Esc back"));
		t.write(KEYS.escape);
		// The whole frame, status line included: a frame can be read half drawn.
		const chat = await t.waitFor(
			(s) => s.includes("Ask anything") && !s.includes("Switch model") && statusLine(s).includes(" · "),
		);
		expect(statusLine(chat)).toMatch(/^loop\/model-a · /);
		expect(chat).not.toContain("Model: ");
	});
});
