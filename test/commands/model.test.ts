import { describe, expect, it } from "vitest";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { modelRef } from "../../source/session/agent-session.js";
import { useCommandHarness } from "../helpers/command-harness.js";

describe("/model", () => {
	const { state } = useCommandHarness();

	it("/model alone opens the picker on the current model; with a ref it switches and records; unknown models are an error", async () => {
		const { controller, faux, session } = state;
		expect(await controller.execute("model", "")).toEqual({
			kind: "pick-model",
			current: modelRef(faux.getModel()),
			models: [faux.getModel(), OFFLINE_MODEL].map((m) => ({
				ref: modelRef(m),
				name: m.name,
				contextWindow: m.contextWindow,
				reasoning: m.reasoning,
			})),
		});
		expect(await controller.execute("model", "xcsh/offline")).toEqual({
			kind: "notice",
			level: "info",
			text: "Model: xcsh/offline",
		});
		expect(session.sessionManager.buildSessionContext().models.default).toBe("xcsh/offline");
		expect(await controller.execute("model", "no/such")).toEqual({
			kind: "notice",
			level: "error",
			text: "Unknown model: no/such. Type /model to list the available ones.",
		});
		expect(await controller.execute("model", "anthropic/x")).toEqual({
			kind: "notice",
			level: "error",
			text: "anthropic/x needs ANTHROPIC_API_KEY: set it and restart xcsh, or type /model to list the available ones.",
		});
	});

	it("refuses flags and a second model; Tab lists the models", async () => {
		const { controller, faux } = state;
		expect(await controller.execute("model", "--foo")).toEqual({
			kind: "notice",
			level: "error",
			text: "/model: unknown flag --foo. Usage: /model [provider/id]",
		});
		expect(await controller.execute("model", "a/b c/d")).toEqual({
			kind: "notice",
			level: "error",
			text: "/model: unexpected argument c/d. Usage: /model [provider/id]",
		});
		expect(controller.completeArgument("/model ")).toEqual({
			insert: "",
			candidates: [modelRef(faux.getModel()), "xcsh/offline"],
		});
		expect(controller.completeArgument("/model xcsh/o")).toEqual({ insert: "ffline ", candidates: [] });
	});
});
