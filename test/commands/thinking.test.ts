import { describe, expect, it } from "vitest";
import { modelRef } from "../../source/session/agent-session.js";
import { useCommandHarness } from "../helpers/command-harness.js";

describe("/thinking", () => {
	const { state } = useCommandHarness();

	it("/thinking shows, validates and sets the level; models that cannot think stay off", async () => {
		const { controller, faux } = state;
		expect(await controller.execute("thinking", "")).toMatchObject({ text: expect.stringContaining("Thinking: off") });
		expect(await controller.execute("thinking", "huge")).toMatchObject({
			level: "error",
			text: expect.stringContaining("/thinking must be one of"),
		});
		expect(await controller.execute("thinking", "high")).toEqual({
			kind: "notice",
			level: "info",
			text: `${modelRef(faux.getModel())} cannot think: thinking stays off`,
		});
		await controller.execute("model", "xcsh/offline");
		expect(await controller.execute("thinking", "high")).toEqual({
			kind: "notice",
			level: "info",
			text: "Thinking: high",
		});
	});

	it("Tab lists the levels and completes one", () => {
		const { controller } = state;
		expect(controller.completeArgument("/thinking ")).toEqual({
			insert: "",
			candidates: ["off", "minimal", "low", "medium", "high", "xhigh"],
		});
		expect(controller.completeArgument("/thinking me")).toEqual({ insert: "dium ", candidates: [] });
		expect(controller.completeArgument("/thinking m")).toEqual({ insert: "", candidates: ["minimal", "medium"] });
		expect(controller.completeArgument("/thinking zz")).toEqual({ insert: "", candidates: [] });
	});
});
