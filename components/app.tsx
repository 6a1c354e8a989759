import { Box, Text, useInput, useStdout } from "ink";
import { useCallback, useEffect, useSyncExternalStore } from "react";
import type { EarlyResume } from "../controllers/app-controller.js";
import { matchKey } from "../controllers/keymap.js";
import type { AppRuntime } from "../controllers/runtime.js";
import { ChatView } from "./chat/chat-view.js";
import { ConfirmScreen } from "./confirm-screen.js";
import { Editor } from "./editor/editor.js";
import { Loader } from "./loader.js";
import { LockedSessionChoice } from "./locked-session-choice.js";
import { ModelPicker } from "./model-picker/model-picker.js";
import { SearchScreen } from "./search-view/search-screen.js";
import { SessionSelector, snapshotProps } from "./session-selector/session-selector.js";
import { StatusLine } from "./status-line.js";
import { TreeView } from "./tree-view/tree-view.js";
import { useTerminalSize } from "./use-terminal-size.js";

/** Props of App. */
export interface AppProps {
	readonly runtime: AppRuntime;
	readonly onExit: () => void;
	/** Open the session picker first (`xcsh --resume` without a value). */
	readonly initialScreen?: "chat" | "resume";
	/** A pick made in the picker drawn before the app loaded (`xcsh --resume`): report it, or offer the locked choice. */
	readonly initialResume?: EarlyResume;
}

/** The full-screen app: renders the screen the app controller says and sends keys back to it. */
export function App({ runtime, onExit, initialScreen = "chat", initialResume }: AppProps) {
	const { app, chat, commands, input, selector, search, session } = runtime;
	const state = useSyncExternalStore(app.subscribe, app.getSnapshot);
	const snapshot = useSyncExternalStore(chat.subscribe, chat.getSnapshot);
	const picker = useSyncExternalStore(selector.subscribe, selector.getSnapshot);
	const { columns, rows } = useTerminalSize();
	const { stdout } = useStdout();
	const { screen } = state;
	const busy = snapshot.streaming || snapshot.activity !== undefined;
	const manager = session.sessionManager;

	useEffect(() => app.onExit(onExit), [app, onExit]);
	useEffect(
		() => app.start({ initialScreen, ...(initialResume ? { initialResume } : {}) }),
		[app, initialScreen, initialResume],
	);

	useEffect(() => {
		// A resize garbles what <Static> already printed: clear and redraw the history.
		const redraw = () => app.redraw();
		stdout.on("resize", redraw);
		return () => {
			stdout.off("resize", redraw);
		};
	}, [app, stdout]);

	// App-wide keys that no screen widget owns.
	useInput(
		useCallback(
			(value, key) => {
				if (key.ctrl && value === "t") app.toggleThinking();
				else if (matchKey(value, key) === "interrupt" && screen.kind !== "chat") app.quit();
			},
			[app, screen.kind],
		),
	);

	const leave = () => app.showChat();
	switch (screen.kind) {
		case "search":
			return (
				<SearchScreen
					controller={search}
					currentSessionFile={manager.getSessionFile()}
					height={rows - 1}
					width={columns}
					onCancel={leave}
					onSelect={(hit) => void app.selectHit(hit)}
				/>
			);
		case "resume":
			return (
				<SessionSelector
					{...snapshotProps(picker)}
					currentSessionFile={manager.getSessionFile()}
					height={rows - 1}
					width={columns}
					isActive
					onCancel={leave}
					onToggleScope={() => selector.toggleScope()}
					onDelete={(path) => void selector.deleteSession(path)}
					onRename={(path, name) => void selector.renameSession(path, name)}
					onSelect={(path) => void app.pickSession(path)}
				/>
			);
		case "confirm":
			return (
				<ConfirmScreen
					title={screen.title}
					details={screen.details}
					onCancel={() => app.cancelConfirm()}
					onConfirm={() => app.confirm()}
				/>
			);
		case "locked":
			return <LockedSessionChoice message={screen.message} onChoose={(choice) => void app.chooseLocked(choice)} />;
		case "model":
			return (
				<ModelPicker
					models={screen.models}
					current={screen.current}
					height={rows - 1}
					width={columns}
					onCancel={leave}
					onSelect={(ref) => app.chooseModel(ref)}
				/>
			);
		case "tree":
			return (
				<TreeView
					key={screen.key}
					tree={manager.getTree()}
					leafId={manager.getLeafId()}
					initialSelectedId={screen.selectedId}
					height={rows - 1}
					width={columns}
					isActive
					onCancel={leave}
					onLabel={(id, label) => app.setLabel(id, label)}
					onNavigate={(id, options) => void app.navigateTree(id, options)}
				/>
			);
		case "chat":
			break;
	}

	const liveRows = Math.max(3, rows - 8);
	return (
		<Box flexDirection="column" width={columns}>
			<ChatView
				items={snapshot.items}
				pending={snapshot.pending}
				running={snapshot.running}
				remountKey={snapshot.remountKey}
				showThinking={snapshot.showThinking}
				width={columns}
				liveRows={liveRows}
			/>
			<Box marginTop={1}>
				{snapshot.activity ? (
					<Loader label={snapshot.activity.label} startedAt={snapshot.activity.startedAt} />
				) : (
					<Text color="yellow">{snapshot.transient ?? " "}</Text>
				)}
			</Box>
			<Editor
				textKey={state.editor.key}
				width={columns}
				isActive
				history={input.getRecent()}
				searchHistory={(query) => input.search(query)}
				commands={commands.completions}
				cwd={manager.getCwd()}
				placeholder={busy ? "Enter steers · >> queues a follow-up · Esc stops" : "Ask anything · /help"}
				initialText={app.editorDraft()}
				onChange={(text) => app.editorChanged(text)}
				onSubmit={(text) => app.submit(text)}
				onEscape={() => app.escape()}
				onInterrupt={(isEmpty) => app.interrupt(isEmpty)}
			/>
			<StatusLine status={snapshot.status} width={columns} />
		</Box>
	);
}
