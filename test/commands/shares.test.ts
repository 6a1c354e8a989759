import { describe, expect, it } from "vitest";
import { CommandController } from "../../controllers/command-controller.js";
import { buildCommands } from "../../source/commands/registry.js";
import { recordShare } from "../../source/export/share-registry.js";
import { useCommandHarness } from "../helpers/command-harness.js";
import { useExportCommands } from "../helpers/export-command-harness.js";

describe("/shares", () => {
	const { state } = useCommandHarness();
	const { stubs } = useExportCommands();

	function controller() {
		return new CommandController(
			{ session: state.session, models: { list: () => [], find: () => undefined, missingKey: () => undefined } },
			buildCommands(stubs().deps),
		);
	}

	it("lists this session's shares; revoke needs an id; other actions are refused", async () => {
		const commands = controller();
		expect(await commands.execute("shares", "")).toEqual({
			kind: "notice",
			level: "info",
			text: "This session has not been shared",
		});
		await recordShare({
			sessionId: state.session.sessionManager.getSessionId(),
			sharedAt: "2025-01-02T03:04:05.000Z",
			url: "https://s.example/1",
			scope: "the active branch",
		});
		expect(await commands.execute("shares", "")).toMatchObject({
			level: "info",
			text: expect.stringMatching(/^\S+ {2}2025-01-02 03:04 {2}the active branch {2}https:\/\/s\.example\/1$/),
		});
		expect(await commands.execute("shares", "revoke")).toEqual({
			kind: "notice",
			level: "error",
			text: "/shares revoke: missing <id>. Usage: /shares revoke <id>",
		});
		expect(await commands.execute("shares", "revoke nope")).toEqual({
			kind: "notice",
			level: "error",
			text: "No share nope (see /shares)",
		});
		expect(await commands.execute("shares", "list")).toEqual({
			kind: "notice",
			level: "error",
			text: "Unknown /shares action: list (expected revoke)",
		});
	});
});
