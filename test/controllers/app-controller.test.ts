import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	AppController,
	type AppSnapshot,
	QUEUED_FOLLOW_UP,
	QUIT_HINT,
	RESUME_CANCELLED,
} from "../../controllers/app-controller.js";
import { ChatController, type ChatSnapshot } from "../../controllers/chat-controller.js";
import { CommandController } from "../../controllers/command-controller.js";
import { InputController } from "../../controllers/input-controller.js";
import { MOVED_NOTICE, SearchController } from "../../controllers/search-controller.js";
import { SelectorController } from "../../controllers/selector-controller.js";
import { type TranscriptSource, TranscriptViewport } from "../../controllers/transcript-viewport.js";
import type { ModelInfo } from "../../source/agent/models/model-registry.js";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { NO_ARGS } from "../../source/commands/arg-spec.js";
import { COMMANDS } from "../../source/commands/registry.js";
import type { CommandResult, SlashCommand } from "../../source/commands/types.js";
import type { SearchHit } from "../../source/index/session-index.js";
import { AgentSession, modelRef } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { holdSession } from "../helpers/hold-session.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** Resolves once the app's snapshot satisfies `predicate` (at once if it already does). */
/** One block of 100 rows: room to scroll. */
function tallTranscript(): TranscriptSource {
	const rows = Array.from({ length: 100 }, (_, i) => `row ${i}`);
	return { length: 1, key: () => "tall", rows: () => rows };
}

function until<T>(source: { subscribe(l: () => void): () => void; getSnapshot(): T }, predicate: (s: T) => boolean) {
	return new Promise<T>((resolve) => {
		if (predicate(source.getSnapshot())) return resolve(source.getSnapshot());
		const off = source.subscribe(() => {
			if (predicate(source.getSnapshot())) {
				off();
				resolve(source.getSnapshot());
			}
		});
	});
}

const hasNotice = (text: string) => (s: ChatSnapshot) =>
	s.items.some((item) => item.kind === "notice" && item.text === text);

const offlineInfo: ModelInfo = {
	ref: modelRef(OFFLINE_MODEL),
	provider: OFFLINE_MODEL.provider,
	id: OFFLINE_MODEL.id,
	name: OFFLINE_MODEL.name,
	source: "builtin",
	contextWindow: OFFLINE_MODEL.contextWindow,
	reasoning: OFFLINE_MODEL.reasoning,
	model: OFFLINE_MODEL,
};

describe("AppController (no React)", () => {
	const temp = useTempAgentDir();
	let faux: ReturnType<typeof registerFauxProvider>;
	let session: AgentSession;
	let chat: ChatController;
	let app: AppController;
	let search: SearchController;
	let selector: SelectorController;
	let clock: number;
	let viewport: TranscriptViewport;
	let holder: ChildProcessWithoutNullStreams | undefined;
	/** Resolved by the test: a command waiting on it until then (or until it is aborted). */
	let aborted: AbortSignal | undefined;

	const waiting: SlashCommand = {
		name: "wait",
		description: "waits until aborted",
		spec: NO_ARGS,
		run: ({ signal }) =>
			new Promise<CommandResult>((resolve) => {
				aborted = signal;
				signal?.addEventListener("abort", () => resolve({ kind: "notice", level: "warning", text: "wait stopped" }));
			}),
	};
	const asking = (name: string, cancelNotice: string): SlashCommand => ({
		name,
		description: "asks first",
		spec: NO_ARGS,
		run: () => ({
			kind: "confirm",
			title: "Do the thing?",
			confirmLabel: "do it",
			detailsLabel: "the details",
			details: ["detail"],
			cancelNotice,
			run: async () => ({ kind: "notice", level: "info", text: "the thing is done" }),
		}),
	});

	beforeEach(async () => {
		faux = registerFauxProvider({ models: [{ id: "app-model", contextWindow: 100_000 }] });
		session = await AgentSession.create({
			sessionManager: await SessionManager.create(temp.root),
			models: { find: () => undefined, getApiKey: () => "k" },
			model: faux.getModel(),
		});
		chat = new ChatController({ session, isOffline: () => false });
		const commands = new CommandController(
			{
				session,
				models: {
					list: () => [offlineInfo],
					find: (ref) => (ref === modelRef(OFFLINE_MODEL) ? OFFLINE_MODEL : undefined),
					missingKey: () => undefined,
				},
			},
			[...COMMANDS, waiting, asking("ask", "Nothing was done"), asking("ask-named", "Thing cancelled")],
		);
		const input = new InputController({
			recorder: { add: () => undefined },
			source: { getRecent: () => [], search: () => [] },
			cwd: temp.root,
		});
		selector = new SelectorController({
			cwd: temp.root,
			currentSessionFile: () => session.sessionManager.getSessionFile(),
			switchSession: (path, open) => session.switchSession(path, open),
		});
		search = new SearchController({
			cwd: temp.root,
			session: () => session,
			resume: (path) => selector.resumeSession(path),
		});
		clock = 10_000;
		viewport = new TranscriptViewport();
		app = new AppController({
			session,
			chat,
			commands,
			input,
			selector,
			search,
			viewport,
			now: () => clock,
		});
	});
	afterEach(async () => {
		holder?.kill("SIGKILL");
		holder = undefined;
		await search.dispose();
		chat.dispose();
		await session.dispose();
		faux.unregister();
	});

	it("starts on the chat; /tree opens the tree, Escape-like leave returns; Ctrl+T toggles thinking", async () => {
		expect(app.getSnapshot()).toEqual({ screen: { kind: "chat" }, editor: { text: "", key: 0 } });
		app.submit("/tree");
		const tree = await until(app, (s) => s.screen.kind === "tree");
		expect(tree.screen).toMatchObject({ kind: "tree", selectedId: undefined });
		app.showChat();
		expect(app.getSnapshot().screen).toEqual({ kind: "chat" });
		expect(app.transcriptKey("toggleThinking")).toBe(true);
		expect(chat.getSnapshot().showThinking).toBe(true);
	});

	it("transcript keys scroll the viewport, toggle tool output, and End returns only from an empty editor", () => {
		viewport.attach(tallTranscript(), 10);
		expect(app.transcriptKey("pageUp")).toBe(true);
		expect(viewport.scrolled).toBe(true);
		app.editorChanged("draft");
		expect(app.transcriptKey("end")).toBe(false);
		expect(viewport.scrolled).toBe(true);
		app.editorChanged("");
		expect(app.transcriptKey("end")).toBe(true);
		expect(viewport.scrolled).toBe(false);
		app.wheel(-1);
		expect(viewport.getSnapshot().anchor?.row).toBe(96);
		app.wheel(1);
		expect(viewport.scrolled).toBe(false);
		expect(app.transcriptKey("toggleToolOutput")).toBe(true);
		expect(chat.getSnapshot().expandTools).toBe(true);
		expect(app.transcriptKey("left")).toBe(false);
	});

	it("sending a prompt returns the transcript to its end", async () => {
		viewport.attach(tallTranscript(), 10);
		app.transcriptKey("pageUp");
		faux.setResponses([fauxAssistantMessage("ok")]);
		app.submit("hello");
		expect(viewport.scrolled).toBe(false);
		await until(
			chat,
			(s) => !s.streaming && s.items.some((i) => i.kind === "message" && i.message.role === "assistant"),
		);
	});

	it("a prompt goes to the agent and its answer reaches the chat", async () => {
		faux.setResponses([fauxAssistantMessage("hello from the model")]);
		app.submit("hi there");
		await until(chat, (s) =>
			s.items.some((item) => item.kind === "message" && JSON.stringify(item).includes("hello from the model")),
		);
		expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("Ctrl+C clears a non-empty editor, warns on an empty one, and quits when pressed twice within a second", () => {
		const exits: number[] = [];
		app.onExit(() => exits.push(clock));
		app.interrupt(false);
		expect(app.getSnapshot().editor).toEqual({ text: "", key: 1 });
		clock += 2000;
		app.interrupt(true);
		expect(chat.getSnapshot().transient).toBe(QUIT_HINT);
		expect(chat.getSnapshot().items.some((item) => item.kind === "notice" && item.text === QUIT_HINT)).toBe(false);
		expect(exits).toEqual([]);
		clock += 500;
		app.interrupt(true);
		expect(exits).toEqual([clock]);
	});

	it("/model alone opens the model picker; a pick switches as /model <ref> does, back on the chat", async () => {
		app.submit("/model");
		const picker = await until(app, (s) => s.screen.kind === "model");
		expect(picker.screen).toEqual({
			kind: "model",
			current: modelRef(faux.getModel()),
			models: [{ ref: "xcsh/offline", name: OFFLINE_MODEL.name, contextWindow: 128_000, reasoning: true }],
		});
		app.chooseModel("xcsh/offline");
		expect(app.getSnapshot().screen).toEqual({ kind: "chat" });
		await until(chat, hasNotice("Model: xcsh/offline"));
		expect(modelRef(session.model)).toBe("xcsh/offline");
		expect(session.sessionManager.buildSessionContext().models.default).toBe("xcsh/offline");
	});

	it("a follow-up queued while the agent works is confirmed by a passing hint, never a transcript line", async () => {
		let answer!: () => void;
		const held = new Promise<void>((resolve) => {
			answer = resolve;
		});
		faux.setResponses([
			async () => {
				await held;
				return fauxAssistantMessage("first answer");
			},
			fauxAssistantMessage("answer to the follow-up"),
		]);
		app.submit("first question");
		await until(chat, (s) => s.streaming);
		app.submit(">> and then this");
		expect(chat.getSnapshot().transient).toBe(QUEUED_FOLLOW_UP);
		answer();
		const done = await until(
			chat,
			(s) =>
				!s.streaming &&
				s.items.some(
					(i) =>
						i.kind === "message" &&
						i.message.role === "assistant" &&
						JSON.stringify(i.message).includes("answer to the follow-up"),
				),
		);
		expect(done.items.toArray().filter((i) => i.kind === "notice")).toEqual([]);
	});

	it("Escape cancels the running command through the command controller", async () => {
		app.submit("/wait");
		// A command starts at once: its signal is handed over before submit returns.
		expect(aborted?.aborted).toBe(false);
		app.escape();
		expect(aborted?.aborted).toBe(true);
		await until(chat, hasNotice("wait stopped"));
	});

	it("a confirm step shows its title and labels; no says the command's cancel notice, yes runs the action", async () => {
		app.submit("/ask");
		const asked = await until(app, (s) => s.screen.kind === "confirm");
		expect(asked.screen).toEqual({
			kind: "confirm",
			title: "Do the thing?",
			confirmLabel: "do it",
			detailsLabel: "the details",
			details: ["detail"],
		});
		app.cancelConfirm();
		expect(app.getSnapshot().screen).toEqual({ kind: "chat" });
		await until(chat, hasNotice("Nothing was done"));

		app.submit("/ask-named");
		await until(app, (s) => s.screen.kind === "confirm");
		app.cancelConfirm();
		await until(chat, hasNotice("Thing cancelled"));

		app.submit("/ask");
		await until(app, (s) => s.screen.kind === "confirm");
		app.confirm();
		await until(chat, hasNotice("the thing is done"));
	});

	it("picking a session open in another xcsh shows the locked choice; cancel returns to the chat", async () => {
		const other = await SessionManager.create(temp.root);
		other.appendMessage(userMessage("held elsewhere"));
		other.appendMessage(assistantMessage("yes"));
		await other.close();
		holder = await holdSession(other.getSessionFile()!, temp.agentDir);
		await app.pickSession(other.getSessionFile()!);
		const locked = app.getSnapshot().screen;
		expect(locked).toMatchObject({ kind: "locked", path: other.getSessionFile() });
		expect(locked.kind === "locked" && locked.message).toContain("open in another xcsh");
		await app.chooseLocked("cancel");
		expect(app.getSnapshot().screen).toEqual({ kind: "chat" });
		await until(chat, hasNotice(RESUME_CANCELLED));

		await app.pickSession(other.getSessionFile()!);
		await app.chooseLocked("read-only");
		expect(session.sessionManager.getSessionFile()).toBe(other.getSessionFile());
		expect(session.sessionManager.isReadOnly()).toBe(true);
	});

	it("a search hit in another session says which session it opened, named or not; one in this session does not", async () => {
		async function plant(name?: string): Promise<{ path: string; id: string; entryId: string }> {
			const other = await SessionManager.create(temp.root);
			if (name) await other.setSessionName(name);
			other.appendMessage(userMessage("where is the runbook"));
			const entryId = other.appendMessage(assistantMessage("in the periwinkle lighthouse"));
			await other.close();
			return { path: other.getSessionFile()!, id: other.getSessionId(), entryId };
		}
		const hitIn = (s: { path: string; entryId: string }): SearchHit => ({
			sessionPath: s.path,
			sessionId: "",
			cwd: temp.root,
			entryId: s.entryId,
			role: "assistant",
			timestamp: 0,
			snippet: "",
			compacted: false,
		});
		const named = await plant("Runbook hunt");
		await app.selectHit(hitIn(named));
		expect(session.sessionManager.getSessionFile()).toBe(named.path);
		const namedNotice = `Opened "Runbook hunt" (${named.id.slice(0, 8)}) at the match`;
		await until(chat, hasNotice(namedNotice));
		await until(chat, hasNotice(MOVED_NOTICE));

		const unnamed = await plant();
		await app.selectHit(hitIn(unnamed));
		await until(chat, hasNotice(`Opened session ${unnamed.id.slice(0, 8)} at the match`));

		// a hit in the open session: no "Opened"
		await app.selectHit(hitIn(unnamed));
		const items = chat.getSnapshot().items;
		expect(items.some((i) => i.kind === "notice" && i.text.startsWith("Opened"))).toBe(false);
		expect(items.some((i) => i.kind === "notice" && i.text === MOVED_NOTICE)).toBe(true);
	});

	it("navigating the tree moves the leaf and puts a user message's text in the editor; labels go through the session", async () => {
		const manager = session.sessionManager;
		const first = manager.appendMessage(userMessage("first question"));
		manager.appendMessage(assistantMessage("first answer"));
		manager.appendMessage(userMessage("second question"));
		app.openScreen("tree");
		const before = app.getSnapshot().screen;
		app.setLabel(first, "start");
		const after: AppSnapshot = app.getSnapshot();
		expect(after.screen.kind === "tree" && before.kind === "tree" && after.screen.key).toBeGreaterThan(
			before.kind === "tree" ? before.key : 0,
		);
		expect(manager.getLabel(first)).toBe("start");
		// The tree is drawn again with the cursor on the entry just labelled, not back at the leaf.
		expect(after.screen.kind === "tree" && after.screen.selectedId).toBe(first);

		await app.navigateTree(first, {});
		expect(app.getSnapshot().screen).toEqual({ kind: "chat" });
		expect(app.getSnapshot().editor.text).toBe("first question");
		expect(manager.getLeafId()).toBeNull();
	});

	it("start opens the picker for xcsh --resume once, however often it is called", () => {
		app.start({ initialScreen: "resume" });
		expect(app.getSnapshot().screen).toEqual({ kind: "resume" });
		app.showChat();
		app.start({ initialScreen: "resume" });
		expect(app.getSnapshot().screen).toEqual({ kind: "chat" });
	});

	it("sessions that come in while the picker or search is open are listed there at once", async () => {
		const written = async (words: string) => {
			const other = await SessionManager.create(temp.root);
			other.appendMessage(userMessage(`question about ${words}`));
			other.appendMessage(assistantMessage(`answer about ${words}`));
			await other.close();
		};
		await written("zebras");
		app.openScreen("resume");
		await until(selector, (s) => !s.loading && s.sessions.length === 1);
		await written("okapis");
		app.sessionsArrived();
		await until(selector, (s) => !s.loading && s.sessions.length === 2);
		app.submit("/search okapis");
		await until(search, (s) => s.hits.length === 2 && !s.refreshing);
		await written("more okapis");
		app.sessionsArrived();
		const found = await until(search, (s) => s.hits.length === 4);
		expect(found.hits.map((hit) => hit.snippet)).toContain("question about more [okapis]");
		// on the chat, nothing is listed, so nothing is read
		app.showChat();
		app.sessionsArrived();
		expect(selector.getSnapshot().loading).toBe(false);
	});
});
