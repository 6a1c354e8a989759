import type { ThinkingLevel } from "@mariozechner/pi-agent-core";
import { loadExtensions } from "../source/agent/extensions/loader.js";
import { describeModelSetup, ModelRegistry } from "../source/agent/models/model-registry.js";
import { buildSystemPrompt } from "../source/agent/system-prompt.js";
import { createCodingTools } from "../source/agent/tools/index.js";
import { TurnCheckpoints } from "../source/checkpoints/turn-checkpoints.js";
import { buildCommands } from "../source/commands/registry.js";
import { copyToClipboard } from "../source/export/clipboard.js";
import { exportSessionToHtml } from "../source/export/html/index.js";
import { openInBrowser } from "../source/export/open-browser.js";
import { shareSession } from "../source/export/share.js";
import { describeShareDestination } from "../source/export/share-destination.js";
import { startAutoImport } from "../source/import/auto-import-process.js";
import { readAutoSetting } from "../source/import/auto-setting.js";
import { AgentSession } from "../source/session/agent-session.js";
import { readOnlyMessage } from "../source/session/agent-session-options.js";
import { HistoryStorage } from "../source/session/history-storage.js";
import type { SessionManager } from "../source/session/session-manager.js";
import { AppController } from "./app-controller.js";
import { AutoImportController } from "./auto-import-controller.js";
import { ChatController } from "./chat-controller.js";
import { CommandController } from "./command-controller.js";
import type { EarlyPickerController } from "./early-picker.js";
import { InputController } from "./input-controller.js";
import { SearchController } from "./search-controller.js";
import { SelectorController } from "./selector-controller.js";
import { type SessionView, viewOf } from "./session-view.js";
import { TranscriptViewport } from "./transcript-viewport.js";

/**
 * What the UI runs on, built by `buildRuntime` (the composition root). Components get the
 * controllers and a read-only view of the session, never the AgentSession or its SessionManager.
 */
export interface AppRuntime {
	readonly view: SessionView;
	readonly app: AppController;
	readonly chat: ChatController;
	readonly commands: CommandController;
	readonly input: InputController;
	readonly selector: SelectorController;
	readonly search: SearchController;
	readonly viewport: TranscriptViewport;
	/** The background import's note for the status line. */
	readonly autoImport: AutoImportController;
	/** Stops the agent, flushes and closes the session and the history. */
	readonly dispose: () => Promise<void>;
}

/** What the interactive UI is started with. */
export interface RuntimeOptions {
	cwd: string;
	/** Creates the session; `notify` collects notices shown once the UI is up. */
	sessionManager: (notify: (text: string) => void) => Promise<SessionManager>;
	model: string | undefined;
	thinkingLevel: ThinkingLevel | undefined;
	extensions: readonly string[];
	sessionDir: string | undefined;
	/** The `xcsh --resume` picker shown while this loads: its pick is handed to the app built here. */
	earlyPicker?: EarlyPickerController | undefined;
}

/** How long after the runtime is built the project's first checkpoint snapshot starts. */
const CHECKPOINT_WARM_UP_MS = 300;
/** How long after the runtime is built the first background import starts (when auto import is on). */
const AUTO_IMPORT_DELAY_MS = 1000;

/** `XCSH_AUTO_IMPORT_INTERVAL_MS=n`: the time between background imports (tests); else the default. */
function autoImportInterval(): { intervalMs?: number } {
	const n = Number(process.env.XCSH_AUTO_IMPORT_INTERVAL_MS ?? Number.NaN);
	return Number.isInteger(n) && n > 0 ? { intervalMs: n } : {};
}

/** Builds the session, agent and controllers behind the UI (loads the LLM layer). */
export async function buildRuntime(options: RuntimeOptions): Promise<AppRuntime> {
	const registry = await ModelRegistry.load();
	const model = options.model ? registry.find(options.model) : registry.getDefault();
	if (!model) {
		const why = registry.missingKey(options.model ?? "") ?? `Unknown model: ${options.model}`;
		throw new Error(`${why}. Run xcsh --list-models to see the available ones.`);
	}
	const setupNotices: string[] = [];
	const sessionManager = await options.sessionManager((text) => setupNotices.push(text));
	const extensions = await loadExtensions(options.extensions, options.cwd);
	const tools = createCodingTools(sessionManager.getCwd());
	// Notices and the waiting line come during a turn, once `chat` below exists.
	const checkpoints = new TurnCheckpoints(
		sessionManager,
		(text) => chat.notice("warning", text),
		(label) => chat.setActivity(label),
	);
	const session = await AgentSession.create({
		sessionManager,
		models: registry,
		model,
		...(options.thinkingLevel ? { thinkingLevel: options.thinkingLevel } : {}),
		tools,
		extensions,
		systemPrompt: buildSystemPrompt({ cwd: sessionManager.getCwd(), tools }),
		turnHooks: checkpoints,
	});
	if (options.model) session.setModel(model);
	if (options.thinkingLevel) session.setThinkingLevel(options.thinkingLevel);
	const offline = registry.isOffline(session.model);
	const chat = new ChatController({
		session,
		isOffline: (m) => registry.isOffline(m),
		...(offline ? { hint: describeModelSetup() } : {}),
	});
	for (const error of [
		...registry.configErrors(),
		...extensions.errors.map((e) => `extension ${e.extension}: ${e.message}`),
	]) {
		chat.notice("warning", error);
	}
	for (const text of setupNotices) chat.notice("info", text);
	const readOnly = sessionManager.getReadOnlyReason();
	if (readOnly === "damaged-header") chat.notice("warning", readOnlyMessage(readOnly, sessionManager.getSessionFile()));
	const history = HistoryStorage.open();
	const input = new InputController({ recorder: history, source: history, cwd: options.cwd });
	const commands = new CommandController(
		{ session, models: registry },
		buildCommands({
			exportHtml: (current, outputPath, choice) =>
				exportSessionToHtml(
					current.sessionManager,
					{
						systemPrompt: current.systemPrompt,
						tools: current.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
					},
					{ ...(outputPath ? { outputPath } : {}), ...choice, cwd: options.cwd },
				),
			share: shareSession,
			openInBrowser: (target) => openInBrowser(target),
			shareDestination: (signal) => describeShareDestination({ signal }),
			copyToClipboard: (text) => copyToClipboard(text),
		}),
	);
	const selector = new SelectorController({
		cwd: sessionManager.getCwd(),
		...(options.sessionDir ? { sessionDir: options.sessionDir } : {}),
		currentSessionFile: () => session.sessionManager.getSessionFile(),
		switchSession: (path, open) => session.switchSession(path, open),
		renameCurrentSession: (name) => session.sessionManager.setSessionName(name),
	});
	const search = new SearchController({
		// "This project" is the one xcsh was started in, as for the /resume picker.
		cwd: sessionManager.getCwd(),
		session: () => session,
		resume: (path) => selector.resumeSession(path),
	});
	const viewport = new TranscriptViewport();
	const app = new AppController({
		session,
		chat,
		commands,
		input,
		selector,
		search,
		viewport,
	});
	options.earlyPicker?.attach(app);
	// The project's first snapshot, in the background once the app has drawn (this runs after the
	// first frame, and the app's own frame follows on the next ticks); unref'd: it never holds exit.
	const warmUp = setTimeout(() => void checkpoints.prepare(), CHECKPOINT_WARM_UP_MS);
	warmUp.unref();
	// Other agents' new sessions, in a child process once the app is up (only with auto import on).
	const autoImport = new AutoImportController({
		cwd: options.cwd,
		readSetting: () => readAutoSetting(),
		startRun: (cwd) => startAutoImport(cwd),
		onArrived: () => app.sessionsArrived(),
		onSettingProblem: (text) => chat.notice("warning", text),
		...autoImportInterval(),
	});
	autoImport.start(AUTO_IMPORT_DELAY_MS);
	const dispose = async () => {
		clearTimeout(warmUp);
		autoImport.dispose();
		await search.dispose();
		chat.dispose();
		await session.dispose();
		// After the session: its last prompt must be recorded before the database closes.
		await history.close();
	};
	const view = viewOf(() => session.sessionManager);
	return { view, app, chat, commands, input, selector, search, viewport, autoImport, dispose };
}
