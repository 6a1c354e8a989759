import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { useCommandHarness } from "../helpers/command-harness.js";

describe("/compact", () => {
	const { state, temp, rebuild } = useCommandHarness();

	it("on nothing says there is nothing to compact", async () => {
		await rebuild(undefined, SessionManager.inMemory(temp.root));
		expect(await state.controller.execute("compact", "")).toEqual({
			kind: "notice",
			level: "error",
			text: "Nothing to compact yet: the session has no messages",
		});
	});
});
