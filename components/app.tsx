import { Box, Text, useInput, useStdout } from "ink";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { ChatController } from "../controllers/chat-controller.js";
import type { CommandController } from "../controllers/command-controller.js";
import type { InputController } from "../controllers/input-controller.js";
import { matchKey } from "../controllers/keymap.js";
import type { SelectorController } from "../controllers/selector-controller.js";
import type { CommandResult } from "../source/commands/types.js";
import { CLEAR_SCREEN } from "../source/render/terminal.js";
import type { AgentSession } from "../source/session/agent-session.js";
import { ChatView } from "./chat/chat-view.js";
import { ConfirmScreen } from "./confirm-screen.js";
import type { EarlyResume } from "./early-picker.js";
import { Editor } from "./editor/editor.js";
import { Loader } from "./loader.js";
import { LockedSessionChoice } from "./locked-session-choice.js";
import { SearchScreen } from "./search-view/search-screen.js";
import { useSearchFlow } from "./search-view/use-search-flow.js";
import { SessionSelector, snapshotProps } from "./session-selector/session-selector.js";
import { StatusLine } from "./status-line.js";
import { TreeView } from "./tree-view/tree-view.js";
import { useResumeFlow } from "./use-resume-flow.js";
import { useTerminalSize } from "./use-terminal-size.js";

/** Everything the app runs on, built by runApp. */
export interface AppRuntime {
	readonly session: AgentSession;
	readonly chat: ChatController;
	readonly commands: CommandController;
	readonly input: InputController;
	readonly selector: SelectorController;
	/** Stops the agent, flushes and closes the session and the history. */
	readonly dispose: () => Promise<void>;
}

/** Props of App. */
export interface AppProps {
	readonly runtime: AppRuntime;
	readonly onExit: () => void;
	/** Open the session picker first (`xcsh --resume` without a value). */
	readonly initialScreen?: "chat" | "resume";
	/** A pick made in the picker drawn before the app loaded (`xcsh --resume`): report it, or offer the locked choice. */
	readonly initialResume?: EarlyResume;
}

type Screen = "chat" | "resume" | "tree" | "locked" | "confirm" | "search";

const DOUBLE_PRESS_MS = 1000;

/** The full-screen app: chat, editor, status line, and the resume / tree screens. */
export function App({ runtime, onExit, initialScreen = "chat", initialResume }: AppProps) {
	const { session, chat, commands, input, selector } = runtime;
	const snapshot = useSyncExternalStore(chat.subscribe, chat.getSnapshot);
	const picker = useSyncExternalStore(selector.subscribe, selector.getSnapshot);
	const { columns, rows } = useTerminalSize();
	const { stdout } = useStdout();
	const [screen, setScreen] = useState<Screen>(initialScreen);
	const [showThinking, setShowThinking] = useState(false);
	// The editor's text as typed: the editor starts from it when it comes back after another screen.
	const editorDraft = useRef("");
	// Changed to put `editorDraft` into the editor (a message back for editing, a clear).
	const [editorKey, setEditorKey] = useState(0);
	const putInEditor = useCallback((text: string) => {
		editorDraft.current = text;
		setEditorKey((key) => key + 1);
	}, []);
	const [treeVersion, setTreeVersion] = useState(0);
	// Where the tree view opens its selection (a search hit on another branch); undefined: the leaf.
	const [treeSelection, setTreeSelection] = useState<string | undefined>();
	const [lockedPath, setLockedPath] = useState<string | undefined>();
	const [pending, setPending] = useState<Extract<CommandResult, { kind: "confirm" }> | undefined>();
	const lastInterrupt = useRef(0);
	// The running slash command's abort (Escape cancels a share, a summary…).
	const commandAbort = useRef<AbortController | undefined>(undefined);
	const busy = snapshot.streaming || snapshot.activity !== undefined;

	const redraw = useCallback(() => {
		stdout.write(CLEAR_SCREEN);
		chat.rebuild();
	}, [stdout, chat]);

	useEffect(() => {
		if (initialScreen === "resume") void selector.load("project");
	}, [initialScreen, selector]);

	useEffect(() => {
		// A resize garbles what <Static> already printed: clear and redraw the history.
		stdout.on("resize", redraw);
		return () => {
			stdout.off("resize", redraw);
		};
	}, [stdout, redraw]);

	const leave = useCallback(() => setScreen("chat"), []);

	const showLocked = useCallback((path: string) => {
		setLockedPath(path);
		setScreen("locked");
	}, []);

	const resume = useResumeFlow(
		{
			selector,
			chat,
			redraw,
			showChat: leave,
			showLocked,
			// Called only after a choice, when the search flow below exists.
			afterLocked: (outcome, opened) => search.afterLocked(outcome, opened),
		},
		initialResume,
	);

	const search = useSearchFlow({
		session,
		selector,
		chat,
		redraw,
		reportResume: resume.report,
		showChat: leave,
		showTree: (entryId) => {
			setTreeSelection(entryId);
			setTreeVersion((v) => v + 1);
			setScreen("tree");
		},
		showLocked,
		setEditorText: putInEditor,
	});

	const apply = useCallback(
		(result: CommandResult) => {
			switch (result.kind) {
				case "done":
					break;
				case "notice":
					chat.notice(result.level, result.text);
					break;
				case "redraw":
					redraw();
					if (result.text) chat.notice("info", result.text);
					break;
				case "open":
					if (result.screen === "resume") void selector.load("project");
					else {
						setTreeSelection(undefined);
						setTreeVersion((v) => v + 1);
					}
					setScreen(result.screen);
					break;
				case "search":
					void search.controller.open(result.query);
					setScreen("search");
					break;
				case "quit":
					onExit();
					break;
				case "confirm":
					setPending(result);
					setScreen("confirm");
					break;
			}
		},
		[chat, redraw, selector, search, onExit],
	);

	// Runs a slash command (or a confirmed action) with an abort signal Escape can fire.
	const runCommand = useCallback(
		(
			make: () => (run: {
				signal: AbortSignal;
				setActivity: (label: string | undefined) => void;
			}) => Promise<CommandResult>,
		) => {
			const controller = new AbortController();
			commandAbort.current = controller;
			const report = (error: unknown) => chat.notice("error", error instanceof Error ? error.message : String(error));
			void make()({ signal: controller.signal, setActivity: (label) => chat.setActivity(label) })
				.then(apply, report)
				.finally(() => {
					if (commandAbort.current === controller) commandAbort.current = undefined;
					chat.setActivity(undefined);
				});
		},
		[apply, chat],
	);

	const onSubmit = useCallback(
		(text: string) => {
			const route = input.route(text, {
				isStreaming: chat.getSnapshot().streaming,
				refusal: session.promptRefusal,
			});
			const report = (error: unknown) => chat.notice("error", error instanceof Error ? error.message : String(error));
			switch (route.kind) {
				case "command":
					runCommand(() => (run) => commands.execute(route.name, route.args, run));
					break;
				case "prompt":
					void session.prompt(route.text).catch(report);
					break;
				case "steer":
					void session.steer(route.text).catch(report);
					break;
				case "follow-up":
					void session.followUp(route.text).catch(report);
					chat.notice("info", "Queued as a follow-up");
					break;
				case "refused":
					chat.notice("error", route.reason);
					return false;
				case "ignore":
					break;
			}
			return true;
		},
		[input, session, chat, commands, runCommand],
	);

	const abort = useCallback(() => {
		const now = chat.getSnapshot();
		if (commandAbort.current) {
			commandAbort.current.abort();
			return;
		}
		if (!now.streaming && now.activity === undefined) return;
		void session.abort().then(() => chat.notice("warning", "Stopped."));
	}, [session, chat]);

	const onInterrupt = useCallback(
		(isEmpty: boolean) => {
			const now = Date.now();
			if (now - lastInterrupt.current < DOUBLE_PRESS_MS) {
				onExit();
				return;
			}
			lastInterrupt.current = now;
			const current = chat.getSnapshot();
			if (current.streaming || current.activity !== undefined) abort();
			else if (!isEmpty) putInEditor("");
			else chat.notice("info", "Press Ctrl+C again to quit");
		},
		[abort, chat, onExit, putInEditor],
	);

	// App-wide keys that no screen widget owns.
	useInput(
		useCallback(
			(value, key) => {
				if (key.ctrl && value === "t") setShowThinking((v) => !v);
				else if (matchKey(value, key) === "interrupt" && screen !== "chat") onExit();
			},
			[screen, onExit],
		),
	);

	if (screen === "search") {
		return (
			<SearchScreen
				controller={search.controller}
				currentSessionFile={session.sessionManager.getSessionFile()}
				height={rows - 1}
				width={columns}
				onCancel={leave}
				onSelect={search.select}
			/>
		);
	}

	if (screen === "resume") {
		return (
			<SessionSelector
				{...snapshotProps(picker)}
				currentSessionFile={session.sessionManager.getSessionFile()}
				height={rows - 1}
				width={columns}
				isActive
				onCancel={leave}
				onToggleScope={() => selector.toggleScope()}
				onDelete={(path) => void selector.deleteSession(path)}
				onRename={(path, name) => void selector.renameSession(path, name)}
				onSelect={resume.pick}
			/>
		);
	}

	if (screen === "confirm" && pending) {
		return (
			<ConfirmScreen
				title={pending.title}
				details={pending.details}
				onCancel={() => {
					setScreen("chat");
					chat.notice("warning", "Share cancelled");
				}}
				onConfirm={() => {
					setScreen("chat");
					runCommand(() => pending.run);
				}}
			/>
		);
	}

	if (screen === "locked" && lockedPath) {
		return (
			<LockedSessionChoice
				message={selector.getSnapshot().error ?? "This session is open in another xcsh"}
				onChoose={(choice) => resume.chooseLocked(lockedPath, choice)}
			/>
		);
	}

	if (screen === "tree") {
		return (
			<TreeView
				key={treeVersion}
				tree={session.sessionManager.getTree()}
				leafId={session.sessionManager.getLeafId()}
				initialSelectedId={treeSelection}
				height={rows - 1}
				width={columns}
				isActive
				onCancel={leave}
				onLabel={(id, label) => {
					session.sessionManager.appendLabelChange(id, label);
					setTreeVersion((v) => v + 1);
				}}
				onNavigate={(id, options) => {
					setScreen("chat");
					if (options.summarize) chat.setActivity("Summarising the branch");
					void session.navigateTree(id, options).then(
						(result) => {
							chat.setActivity(undefined);
							if (result.cancelled) {
								chat.notice("warning", "Navigation cancelled");
								return;
							}
							redraw();
							if (result.editorText !== undefined) putInEditor(result.editorText);
						},
						(error: unknown) => {
							chat.setActivity(undefined);
							chat.notice("error", error instanceof Error ? error.message : String(error));
						},
					);
				}}
			/>
		);
	}

	const liveRows = Math.max(3, rows - 8);
	return (
		<Box flexDirection="column" width={columns}>
			<ChatView
				items={snapshot.items}
				pending={snapshot.pending}
				running={snapshot.running}
				remountKey={snapshot.remountKey}
				showThinking={showThinking}
				width={columns}
				liveRows={liveRows}
			/>
			<Box marginTop={1}>
				{snapshot.activity ? (
					<Loader label={snapshot.activity.label} startedAt={snapshot.activity.startedAt} />
				) : (
					<Text> </Text>
				)}
			</Box>
			<Editor
				textKey={editorKey}
				width={columns}
				isActive={screen === "chat"}
				history={input.getRecent()}
				searchHistory={(query) => input.search(query)}
				commands={commands.completions}
				cwd={session.sessionManager.getCwd()}
				placeholder={busy ? "Enter steers · >> queues a follow-up · Esc stops" : "Ask anything · /help"}
				initialText={editorDraft.current}
				onChange={(text) => {
					editorDraft.current = text;
				}}
				onSubmit={onSubmit}
				onEscape={abort}
				onInterrupt={onInterrupt}
			/>
			<StatusLine status={snapshot.status} width={columns} />
		</Box>
	);
}
