import { describe, expect, it } from "vitest";
import { useCommandHarness } from "../helpers/command-harness.js";

describe("CommandController", () => {
	const { state } = useCommandHarness();

	it("lists every command for completion and rejects unknown ones", async () => {
		const { controller } = state;
		const names = controller.completions.map((c) => c.name);
		for (const name of [
			"new",
			"resume",
			"tree",
			"fork",
			"model",
			"thinking",
			"compact",
			"name",
			"session",
			"help",
			"quit",
		]) {
			expect(names).toContain(name);
		}
		expect(await controller.execute("nope", "")).toEqual({
			kind: "notice",
			level: "error",
			text: "Unknown command: /nope. Type /help for the list.",
		});
		expect(await controller.execute("exit", "")).toEqual({ kind: "quit" });
		expect(await controller.execute("resume", "")).toEqual({ kind: "open", screen: "resume" });
		expect(await controller.execute("tree", "")).toEqual({ kind: "open", screen: "tree" });
	});

	it("reads arguments through the command's spec before it runs: an alias is refused under its command's name", async () => {
		expect(await state.controller.execute("exit", "--now")).toEqual({
			kind: "notice",
			level: "error",
			text: "/quit: unknown flag --now. Usage: /quit",
		});
	});

	it("completes arguments only after a known command and a space; free text and paths go to file completion", () => {
		const { controller } = state;
		expect(controller.completeArgument("/thin")).toBeUndefined();
		expect(controller.completeArgument("read the file")).toBeUndefined();
		expect(controller.completeArgument("/nope ")).toBeUndefined();
		expect(controller.completeArgument("/name my")).toBeUndefined();
		expect(controller.completeArgument('/thinking "hi')).toBeUndefined();
		expect(controller.completeArgument("  /thinking h")).toEqual({ insert: "igh ", candidates: [] });
	});
});
