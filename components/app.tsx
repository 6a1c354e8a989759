import { Box, Text } from "ink";
import { type ReactNode, useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import type { KeyAction } from "../controllers/keymap.js";
import type { AppRuntime } from "../controllers/runtime.js";
import type { TranscriptSource } from "../controllers/transcript-viewport.js";
import { ChatView } from "./chat/chat-view.js";
import { ConfirmScreen } from "./confirm-screen.js";
import { DiffView } from "./diff-view/diff-view.js";
import { Editor } from "./editor/editor.js";
import { Loader } from "./loader.js";
import { LockedSessionChoice } from "./locked-session-choice.js";
import { ModelPicker } from "./model-picker/model-picker.js";
import { QuitKeyContext } from "./quit-key.js";
import { RewindView } from "./rewind-view/rewind-view.js";
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
}

/** The full-screen app: renders the screen the app controller says and sends keys back to it. */
export function App({ runtime, onExit, initialScreen = "chat" }: AppProps) {
	const { app, chat, commands, input, selector, search, view, viewport, autoImport } = runtime;
	const state = useSyncExternalStore(app.subscribe, app.getSnapshot);
	const snapshot = useSyncExternalStore(chat.subscribe, chat.getSnapshot);
	const picker = useSyncExternalStore(selector.subscribe, selector.getSnapshot);
	const scroll = useSyncExternalStore(viewport.subscribe, viewport.getSnapshot);
	const imported = useSyncExternalStore(autoImport.subscribe, autoImport.getSnapshot);
	const { columns, rows } = useTerminalSize();
	const { screen } = state;
	const busy = snapshot.streaming || snapshot.activity !== undefined;

	useEffect(() => app.onExit(onExit), [app, onExit]);
	useEffect(() => app.start({ initialScreen }), [app, initialScreen]);

	// Each screen has one input handler. The chat's is the editor's, which hands the transcript its
	// keys (scrolling, Ctrl+T, Ctrl+O) and the wheel first; every other screen quits on Ctrl+C.
	const transcriptKey = useCallback((action: KeyAction) => app.transcriptKey(action), [app]);
	const wheel = useCallback((direction: -1 | 1) => app.wheel(direction), [app]);
	const quit = useCallback(() => app.quit(), [app]);
	const parts = useMemo(
		() => ({
			items: snapshot.items,
			pending: snapshot.pending,
			pendingId: snapshot.pendingId,
			running: snapshot.running,
		}),
		[snapshot.items, snapshot.pending, snapshot.pendingId, snapshot.running],
	);
	const onDraw = useCallback((source: TranscriptSource, height: number) => viewport.attach(source, height), [viewport]);
	const { rewind } = app;
	const treeKey = screen.kind === "tree" ? screen.key : undefined;
	// Read once per opening of the tree (its key changes whenever it must be read again).
	const fileCounts = useMemo(() => (treeKey === undefined ? undefined : view.getFileCounts()), [view, treeKey]);

	const leave = () => app.showChat();
	let offChat: ReactNode;
	switch (screen.kind) {
		case "search":
			offChat = (
				<SearchScreen
					controller={search}
					currentSessionFile={view.getSessionFile()}
					height={rows - 1}
					width={columns}
					onCancel={leave}
					onSelect={(hit) => void app.selectHit(hit)}
				/>
			);
			break;
		case "resume":
			offChat = (
				<SessionSelector
					{...snapshotProps(picker)}
					currentSessionFile={view.getSessionFile()}
					height={rows - 1}
					width={columns}
					isActive
					onCancel={() => app.leavePicker()}
					onToggleScope={() => selector.toggleScope()}
					onDelete={(path) => void selector.deleteSession(path)}
					onRename={(path, name) => void selector.renameSession(path, name)}
					onSelect={(path) => void app.pickSession(path)}
				/>
			);
			break;
		case "confirm":
			offChat = (
				<ConfirmScreen
					title={screen.title}
					details={screen.details}
					confirmLabel={screen.confirmLabel}
					detailsLabel={screen.detailsLabel}
					onCancel={() => app.cancelConfirm()}
					onConfirm={() => app.confirm()}
				/>
			);
			break;
		case "locked":
			offChat = <LockedSessionChoice message={screen.message} onChoose={(choice) => void app.chooseLocked(choice)} />;
			break;
		case "model":
			offChat = (
				<ModelPicker
					models={screen.models}
					current={screen.current}
					height={rows - 1}
					width={columns}
					onCancel={leave}
					onSelect={(ref) => app.chooseModel(ref)}
				/>
			);
			break;
		case "tree":
			offChat = (
				<TreeView
					key={screen.key}
					tree={view.getTree()}
					leafId={view.getLeafId()}
					initialSelectedId={screen.selectedId}
					height={rows - 1}
					width={columns}
					isActive
					onCancel={leave}
					onLabel={(id, label) => app.setLabel(id, label)}
					onNavigate={(id, options) => void app.navigateTree(id, options)}
					fileCounts={fileCounts}
					onCheckCode={rewind.checkCode}
					onRestore={(id, mode, options) => rewind.restore(id, mode, options)}
					onDiff={(id) => void rewind.showDiff(id)}
				/>
			);
			break;
		case "diff":
			offChat = (
				<DiffView
					key={screen.entryId}
					title={screen.title}
					lines={screen.lines}
					height={rows - 1}
					width={columns}
					onClose={() => rewind.closeDiff(screen.entryId)}
				/>
			);
			break;
		case "rewind":
			offChat = (
				<RewindView
					prompts={screen.prompts}
					height={rows - 1}
					width={columns}
					onCancel={leave}
					onRewind={(id, mode) => rewind.rewindTo(id, mode)}
				/>
			);
			break;
		case "chat":
			break;
	}
	// Ctrl+C quits through the screen's own key handler: one handler per screen.
	if (screen.kind !== "chat") return <QuitKeyContext.Provider value={quit}>{offChat}</QuitKeyContext.Provider>;

	// One row short of the terminal: an Ink frame as tall as the terminal clears it on every frame.
	return (
		<Box flexDirection="column" width={columns} height={Math.max(1, rows - 1)}>
			<ChatView
				parts={parts}
				showThinking={snapshot.showThinking}
				expandTools={snapshot.expandTools}
				width={columns}
				initialHeight={rows - 6}
				anchor={scroll.anchor}
				onDraw={onDraw}
			/>
			<Box flexShrink={0} height={1} overflow="hidden">
				{snapshot.activity ? <Loader label={snapshot.activity.label} startedAt={snapshot.activity.startedAt} /> : null}
				{snapshot.transient ? (
					<Text color="yellow" wrap="truncate-end">
						{snapshot.activity ? " · " : ""}
						{snapshot.transient}
					</Text>
				) : null}
				{!snapshot.activity && !snapshot.transient ? <Text> </Text> : null}
			</Box>
			<Box flexShrink={0} flexDirection="column">
				<Editor
					textKey={state.editor.key}
					width={columns}
					isActive
					history={input.getRecent()}
					searchHistory={(query) => input.search(query)}
					commands={commands.completions}
					completePath={(token) => input.completePath(view.getCwd(), token)}
					completeArgument={(line) => commands.completeArgument(line)}
					placeholder={busy ? "Enter steers · >> queues a follow-up · Esc stops" : "Ask anything · /help"}
					initialText={app.editorDraft()}
					onChange={(text) => app.editorChanged(text)}
					onSubmit={(text) => app.submit(text)}
					onEscape={() => app.escape()}
					onInterrupt={(isEmpty) => app.interrupt(isEmpty)}
					onScreenKey={transcriptKey}
					onWheel={wheel}
				/>
			</Box>
			<Box flexShrink={0}>
				<StatusLine status={snapshot.status} width={columns} note={imported.note} />
			</Box>
		</Box>
	);
}
