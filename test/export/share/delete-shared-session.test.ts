import { existsSync } from "node:fs";
import { registerFauxProvider } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SelectorController } from "../../../controllers/selector-controller.js";
import { liveSharesWarning, recordShare } from "../../../source/export/share-registry.js";
import { SessionManager } from "../../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../../helpers/messages.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";

describe("deleting a session that is still shared warns first (the picker; /session delete in test/commands/session.test.ts)", () => {
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
});
