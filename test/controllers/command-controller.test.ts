import { type Api, fauxAssistantMessage, type Model, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CommandController } from "../../controllers/command-controller.js";
import { ExtensionRunner } from "../../source/agent/extensions/runner.js";
import type { ModelInfo } from "../../source/agent/models/model-registry.js";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { AgentSession, modelRef } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("CommandController and the slash commands", () => {
	const temp = useTempAgentDir();
	let faux: ReturnType<typeof registerFauxProvider>;
	let session: AgentSession;
	let controller: CommandController;

	function info(model: Model<Api>): ModelInfo {
		return {
			ref: modelRef(model),
			provider: model.provider,
			id: model.id,
			name: model.name,
			source: "builtin",
			contextWindow: model.contextWindow,
			reasoning: model.reasoning,
			model,
		};
	}

	async function setup(extensions?: ExtensionRunner, manager?: SessionManager) {
		const models = [faux.getModel(), OFFLINE_MODEL];
		session = await AgentSession.create({
			sessionManager: manager ?? (await SessionManager.create(temp.root)),
			models: { find: (ref) => models.find((m) => modelRef(m) === ref), getApiKey: () => "k" },
			model: faux.getModel(),
			...(extensions ? { extensions } : {}),
		});
		controller = new CommandController({
			session,
			models: {
				list: () => models.map(info),
				find: (ref) => models.find((m) => modelRef(m) === ref),
				missingKey: (ref) => (ref === "anthropic/x" ? "anthropic/x needs ANTHROPIC_API_KEY" : undefined),
			},
		});
	}

	beforeEach(async () => {
		faux = registerFauxProvider({ models: [{ id: "cmd-model", reasoning: false }] });
		await setup();
	});
	afterEach(async () => {
		await session.dispose();
		faux.unregister();
	});

	it("lists every command for completion and rejects unknown ones", async () => {
		const names = controller.completions.map((c) => c.name);
		for (const name of [
			"new",
			"resume",
			"tree",
			"fork",
			"model",
			"thinking",
			"compact",
			"name",
			"session",
			"help",
			"quit",
		]) {
			expect(names).toContain(name);
		}
		expect(await controller.execute("nope", "")).toEqual({
			kind: "notice",
			level: "error",
			text: "Unknown command: /nope. Type /help for the list.",
		});
		expect(await controller.execute("exit", "")).toEqual({ kind: "quit" });
		expect(await controller.execute("resume", "")).toEqual({ kind: "open", screen: "resume" });
		expect(await controller.execute("tree", "")).toEqual({ kind: "open", screen: "tree" });
		const help = await controller.execute("help", "");
		expect(help).toMatchObject({ kind: "notice", level: "info" });
		expect((help as { text: string }).text).toContain(
			"/model [provider/id] — Pick from the available models, or switch to one",
		);
		expect((help as { text: string }).text).toContain("/quit (also /exit) — Leave xcsh");
		expect((help as { text: string }).text).toContain("Ctrl+T show or hide thinking");
		expect((help as { text: string }).text).toContain("PgUp/PgDn a page · Shift+↑/↓ a line · mouse wheel");
		expect((help as { text: string }).text).toContain("Ctrl+O show or clip tool output · Shift+drag selects text");
	});

	it("/model alone opens the picker on the current model; with a ref it switches and records; unknown models are an error", async () => {
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

	it("/thinking shows, validates and sets the level; models that cannot think stay off", async () => {
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

	it("/name, /session, /new and /fork", async () => {
		faux.setResponses([fauxAssistantMessage("hello")]);
		await session.prompt("hi");
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
		const info = (await controller.execute("session", "")) as { text: string };
		expect(info.text).toContain('"lockfile bug"');
		expect(info.text).toContain(`File: ${session.sessionManager.getSessionFile()}`);
		const oldId = session.sessionManager.getSessionId();
		const forked = await controller.execute("fork", "");
		expect(forked).toEqual({ kind: "redraw", text: `Forked into session ${session.sessionManager.getSessionId()}` });
		expect(session.sessionManager.getSessionId()).not.toBe(oldId);
		expect(await controller.execute("new", "")).toEqual({ kind: "redraw", text: "Started a new session" });
		expect(session.messages).toEqual([]);
	});

	it("/fork in memory fails with the spec's message; /new cancelled by an extension says so; /compact on nothing", async () => {
		await session.dispose();
		const extensions = new ExtensionRunner();
		await extensions.add("veto", (api) => api.on("session_before_switch", () => ({ cancel: true })));
		await setup(extensions, SessionManager.inMemory(temp.root));
		expect(await controller.execute("fork", "")).toEqual({
			kind: "notice",
			level: "error",
			text: "Fork failed (session not persisted or cancelled)",
		});
		expect(await controller.execute("new", "")).toEqual({
			kind: "notice",
			level: "warning",
			text: "New session cancelled by an extension",
		});
		expect(await controller.execute("compact", "")).toEqual({
			kind: "notice",
			level: "error",
			text: "Nothing to compact yet: the session has no messages",
		});
		const info = (await controller.execute("session", "")) as { text: string };
		expect(info.text).toContain("File: (in memory, not saved)");
	});
});
