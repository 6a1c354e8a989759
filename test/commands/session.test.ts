import { existsSync } from "node:fs";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { recordShare } from "../../source/export/share-registry.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useCommandHarness } from "../helpers/command-harness.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

describe("/session", () => {
	const { state, temp, rebuild } = useCommandHarness();

	it("shows the session's name and file", async () => {
		state.faux.setResponses([fauxAssistantMessage("hello")]);
		await state.session.prompt("hi");
		await state.controller.execute("name", "lockfile bug");
		const info = (await state.controller.execute("session", "")) as { text: string };
		expect(info.text).toContain('"lockfile bug"');
		expect(info.text).toContain(`File: ${state.session.sessionManager.getSessionFile()}`);
	});

	it("counts the whole context of a path longer than the model's window, though only its end was read", async () => {
		const writer = await SessionManager.create(temp.root);
		for (let i = 0; i < 40; i++) {
			writer.appendMessage(userMessage(`q${i} ${"q".repeat(20_000)}`));
			writer.appendMessage(assistantMessage(`a${i} ${"a".repeat(20_000)}`));
		}
		const file = writer.getSessionFile()!;
		await writer.close();
		await rebuild(undefined, await SessionManager.open(file, { lazyAboveBytes: 0, breadcrumb: false }));
		expect(state.session.messages.length).toBeLessThan(80);
		const info = (await state.controller.execute("session", "")) as { text: string };
		expect(info.text).toContain("Entries: 80 (80 messages), context: 80 messages");
	});

	it("in memory says it is not saved", async () => {
		await rebuild(undefined, SessionManager.inMemory(temp.root));
		const info = (await state.controller.execute("session", "")) as { text: string };
		expect(info.text).toContain("File: (in memory, not saved)");
	});

	it("refuses an unknown action, a flag of another action, and completes the actions on Tab", async () => {
		const { controller } = state;
		expect(await controller.execute("session", "purge")).toEqual({
			kind: "notice",
			level: "error",
			text: "Unknown /session action: purge (expected save or delete)",
		});
		expect(await controller.execute("session", "save --force")).toEqual({
			kind: "notice",
			level: "error",
			text: "/session save: unknown flag --force. Usage: /session save",
		});
		expect(controller.completeArgument("/session ")).toEqual({ insert: "", candidates: ["save", "delete"] });
		expect(controller.completeArgument("/session del")).toEqual({ insert: "ete ", candidates: [] });
		expect(controller.completeArgument("/session delete --")).toEqual({ insert: "force ", candidates: [] });
	});

	it("/session delete refuses without --force while shares are live", async () => {
		const { session, controller, faux } = state;
		faux.setResponses([fauxAssistantMessage("ok")]);
		await session.prompt("hi");
		await session.sessionManager.flush();
		const file = session.sessionManager.getSessionFile()!;
		await recordShare({
			sessionId: session.sessionManager.getSessionId(),
			sharedAt: "t",
			url: "https://gistpreview.github.io/?abc",
			gistId: "abc",
			scope: "the active branch",
		});
		const refused = await controller.execute("session", "delete");
		expect(refused).toMatchObject({
			kind: "notice",
			level: "warning",
			text: expect.stringContaining("Run /session delete --force"),
		});
		expect(existsSync(file)).toBe(true);
		const done = await controller.execute("session", "delete --force");
		expect(done).toMatchObject({ kind: "redraw", text: expect.stringContaining("Moved the session to the trash") });
		expect(existsSync(file)).toBe(false);
	});
});
