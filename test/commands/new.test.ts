import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { ExtensionRunner } from "../../source/agent/extensions/runner.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useCommandHarness } from "../helpers/command-harness.js";

describe("/new", () => {
	const { state, temp, rebuild } = useCommandHarness();

	it("starts an empty session", async () => {
		state.faux.setResponses([fauxAssistantMessage("hello")]);
		await state.session.prompt("hi");
		expect(await state.controller.execute("new", "")).toEqual({ kind: "redraw", text: "Started a new session" });
		expect(state.session.messages).toEqual([]);
	});

	it("cancelled by an extension says so; arguments are refused", async () => {
		const extensions = new ExtensionRunner();
		await extensions.add("veto", (api) => api.on("session_before_switch", () => ({ cancel: true })));
		await rebuild(extensions, SessionManager.inMemory(temp.root));
		expect(await state.controller.execute("new", "")).toEqual({
			kind: "notice",
			level: "warning",
			text: "New session cancelled by an extension",
		});
		expect(await state.controller.execute("new", "please")).toEqual({
			kind: "notice",
			level: "error",
			text: "/new: unexpected argument please. Usage: /new",
		});
	});
});
