import { describe, expect, it } from "vitest";
import { useCommandHarness } from "../helpers/command-harness.js";

describe("/name", () => {
	const { state } = useCommandHarness();

	it("names the session; alone it says the name, or how to use it", async () => {
		const { controller } = state;
		expect(await controller.execute("name", "")).toEqual({
			kind: "notice",
			level: "info",
			text: "Usage: /name <name>",
		});
		expect(await controller.execute("name", "  lockfile bug ")).toEqual({
			kind: "notice",
			level: "info",
			text: 'Session named "lockfile bug"',
		});
		expect(await controller.execute("name", "")).toEqual({
			kind: "notice",
			level: "info",
			text: "Session name: lockfile bug",
		});
		// A name is free text: quotes and dashes are kept, never read as flags.
		expect(await controller.execute("name", `"it's" --done`)).toEqual({
			kind: "notice",
			level: "info",
			text: `Session named ""it's" --done"`,
		});
	});
});
