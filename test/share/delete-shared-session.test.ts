import { existsSync } from "node:fs";
import { fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CommandController } from "../../controllers/command-controller.js";
import { SelectorController } from "../../controllers/selector-controller.js";
import { liveSharesWarning, recordShare } from "../../source/export/share-registry.js";
import { AgentSession } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("deleting a session that is still shared warns first", () => {
	const temp = useTempAgentDir();
	let faux: ReturnType<typeof registerFauxProvider>;
	beforeEach(() => {
		faux = registerFauxProvider({ models: [{ id: "del-model" }] });
	});
	afterEach(() => faux.unregister());

	const share = (sessionId: string) =>
		recordShare({
			sessionId,
			sharedAt: "t",
			url: "https://gistpreview.github.io/?abc",
			gistId: "abc",
			scope: "the active branch",
		});

	it("in the picker: the first delete warns, the second goes ahead", async () => {
		const other = await SessionManager.create(temp.root);
		other.appendMessage(userMessage("shared one"));
		other.appendMessage(assistantMessage("ok"));
		await other.close();
		await share(other.getSessionId());
		const selector = new SelectorController({
			cwd: temp.root,
			currentSessionFile: () => undefined,
			switchSession: async () => true,
		});
		await selector.load("project");
		await selector.deleteSession(other.getSessionFile()!);
		expect(selector.getSnapshot().notice).toBe(liveSharesWarning(1));
		expect(existsSync(other.getSessionFile()!)).toBe(true);
		await selector.deleteSession(other.getSessionFile()!);
		expect(existsSync(other.getSessionFile()!)).toBe(false);
	});

	it("/session delete refuses without --force while shares are live", async () => {
		faux.setResponses([fauxAssistantMessage("ok")]);
		const session = await AgentSession.create({
			sessionManager: await SessionManager.create(temp.root),
			models: { find: () => undefined, getApiKey: () => "k" },
			model: faux.getModel(),
		});
		await session.prompt("hi");
		await session.sessionManager.flush();
		const file = session.sessionManager.getSessionFile()!;
		await share(session.sessionManager.getSessionId());
		const commands = new CommandController({
			session,
			models: { list: () => [], find: () => undefined, missingKey: () => undefined },
		});
		const refused = await commands.execute("session", "delete");
		expect(refused).toMatchObject({
			kind: "notice",
			level: "warning",
			text: expect.stringContaining("Run /session delete --force"),
		});
		expect(existsSync(file)).toBe(true);
		const done = await commands.execute("session", "delete --force");
		expect(done).toMatchObject({ kind: "redraw", text: expect.stringContaining("Moved the session to the trash") });
		expect(existsSync(file)).toBe(false);
		await session.dispose();
	});
});
