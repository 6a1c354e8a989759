import { beforeEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { KEYS } from "../helpers/keys.js";
import { writeLoopModels } from "../helpers/loopback-llm-server.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
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
		// Two models of a local endpoint; nothing is sent to it in these tests.
		writeLoopModels(temp.agentDir, "http://127.0.0.1:9/v1", [
			{ id: "model-a", contextWindow: 100_000 },
			{ id: "model-b", contextWindow: 32_000 },
		]);
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

	it("after /tree to a part of the path recorded with another model, the status line shows that model", async () => {
		const sm = await SessionManager.create(temp.project);
		sm.appendModelChange("loop/model-a");
		sm.appendMessage(userMessage("first question"));
		sm.appendMessage(assistantMessage("first answer", "model-a", "loop"));
		sm.appendModelChange("xcsh/offline");
		sm.appendMessage(userMessage("second question"));
		sm.appendMessage(assistantMessage("second answer", "offline", "xcsh"));
		await sm.close();
		const t = temp.open({ args: ["--continue"] });
		await t.waitFor((s) => s.includes("second answer") && statusLine(s).startsWith("offline model · "));
		await t.type("/tree");
		t.write(KEYS.enter);
		await t.waitFor((s) => s.includes("Session tree"));
		t.write(KEYS.home);
		const selected = (s: string) => s.split("\n").find((line) => line.startsWith("❯ ")) ?? "";
		await t.waitFor((s) => selected(s).includes("first question"));
		t.write(KEYS.down);
		await t.waitFor((s) => selected(s).includes("first answer"));
		t.write(KEYS.enter);
		const chat = await t.waitFor((s) => s.includes("Ask anything") && statusLine(s).startsWith("loop/model-a · "));
		expect(chat).toContain("first answer");
		expect(chat).not.toContain("second answer");
	});
});
