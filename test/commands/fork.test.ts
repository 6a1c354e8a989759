import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { useCommandHarness } from "../helpers/command-harness.js";

describe("/fork", () => {
	const { state, temp, rebuild } = useCommandHarness();

	it("copies the session into a new one and continues there", async () => {
		state.faux.setResponses([fauxAssistantMessage("hello")]);
		await state.session.prompt("hi");
		const oldId = state.session.sessionManager.getSessionId();
		const forked = await state.controller.execute("fork", "");
		expect(forked).toEqual({
			kind: "redraw",
			text: `Forked into session ${state.session.sessionManager.getSessionId()}`,
		});
		expect(state.session.sessionManager.getSessionId()).not.toBe(oldId);
	});

	it("in memory fails with the spec's message", async () => {
		await rebuild(undefined, SessionManager.inMemory(temp.root));
		expect(await state.controller.execute("fork", "")).toEqual({
			kind: "notice",
			level: "error",
			text: "Fork failed (session not persisted or cancelled)",
		});
	});
});
