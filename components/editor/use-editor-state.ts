import { useCallback, useRef, useState } from "react";
import {
	backspace,
	deleteForward,
	type EditorBuffer,
	EMPTY_BUFFER,
	fromText,
	getText,
	insertText,
	killToLineStart,
	killWordLeft,
	lineEnd,
	lineStart,
	moveDown,
	moveLeft,
	moveRight,
	moveUp,
	wordLeft,
	wordRight,
} from "./editor-buffer.js";

/** A slash command offered by the completion list. `name` may be given with or without the slash. */
export interface SlashCommand {
	readonly name: string;
	readonly description: string;
}

/** Incremental reverse history search (Ctrl+R). */
export interface HistorySearchState {
	readonly query: string;
	readonly matchIndex: number;
	readonly matches: readonly string[];
	/** The buffer before the search began; Escape puts it back. */
	readonly saved: EditorBuffer;
}

/** Completion: the selected slash command, whether Escape hid the list, and file-path candidates. */
export interface CompletionState {
	readonly selected: number;
	readonly dismissed: boolean;
	readonly paths: readonly string[];
}

/** Everything the editor remembers between keys. */
export interface EditorState {
	readonly buffer: EditorBuffer;
	/** Index into the history prop while browsing it with ↑/↓; -1 while editing the draft. */
	readonly historyIndex: number;
	/** What was being typed before history browsing began; ↓ past the newest entry restores it. */
	readonly draft: EditorBuffer | undefined;
	readonly search: HistorySearchState | undefined;
	readonly completion: CompletionState;
}

/** Cursor and editing operations the reducer applies to the buffer. */
export type BufferOp =
	| "backspace"
	| "delete"
	| "left"
	| "right"
	| "up"
	| "down"
	| "wordLeft"
	| "wordRight"
	| "lineStart"
	| "lineEnd"
	| "killLine"
	| "killWordLeft";

/** Every state change the editor makes. History and search results arrive in the action to keep this pure. */
export type EditorAction =
	| { readonly type: "insert"; readonly text: string }
	| { readonly type: "edit"; readonly op: BufferOp }
	| { readonly type: "setText"; readonly text: string }
	| { readonly type: "historyPrev"; readonly history: readonly string[] }
	| { readonly type: "historyNext"; readonly history: readonly string[] }
	| { readonly type: "searchOpen" }
	| { readonly type: "searchSet"; readonly query: string; readonly matches: readonly string[] }
	| { readonly type: "searchNext" }
	| { readonly type: "searchAccept" }
	| { readonly type: "searchCancel" }
	| { readonly type: "completionMove"; readonly delta: number; readonly count: number }
	| { readonly type: "completionDismiss" }
	| { readonly type: "completeCommand"; readonly name: string }
	| { readonly type: "completePath"; readonly insert: string; readonly candidates: readonly string[] };

const FRESH_COMPLETION: CompletionState = { selected: 0, dismissed: false, paths: [] };

const OPS: Record<BufferOp, (buffer: EditorBuffer) => EditorBuffer> = {
	backspace,
	delete: deleteForward,
	left: moveLeft,
	right: moveRight,
	up: moveUp,
	down: moveDown,
	wordLeft,
	wordRight,
	lineStart,
	lineEnd,
	killLine: killToLineStart,
	killWordLeft,
};

/** The state of a fresh editor holding `text`. */
export function createEditorState(text = ""): EditorState {
	return {
		buffer: text === "" ? EMPTY_BUFFER : fromText(text),
		historyIndex: -1,
		draft: undefined,
		search: undefined,
		completion: FRESH_COMPLETION,
	};
}

/** The command name without its leading slash. */
export function bareCommandName(name: string): string {
	return name.startsWith("/") ? name.slice(1) : name;
}

/**
 * Commands whose name starts with what follows the `/`, while the text is a lone `/word` (no
 * whitespace yet); empty otherwise.
 */
export function matchCommands(text: string, commands: readonly SlashCommand[]): readonly SlashCommand[] {
	if (!text.startsWith("/") || /\s/.test(text)) return [];
	const prefix = text.slice(1);
	return commands.filter((command) => bareCommandName(command.name).startsWith(prefix));
}

/** The slash commands the completion list shows right now (empty when hidden). */
export function visibleCommands(state: EditorState, commands: readonly SlashCommand[]): readonly SlashCommand[] {
	if (state.search !== undefined || state.completion.dismissed) return [];
	return matchCommands(getText(state.buffer), commands);
}

/** The history-search match currently shown, if any. */
export function currentMatch(search: HistorySearchState): string | undefined {
	return search.matches[search.matchIndex];
}

/** The pure state transition. Returns the same object when an action changes nothing. */
export function editorReducer(state: EditorState, action: EditorAction): EditorState {
	switch (action.type) {
		case "insert":
			return withBuffer(state, insertText(state.buffer, action.text));
		case "edit":
			return withBuffer(state, OPS[action.op](state.buffer));
		case "setText":
			return createEditorState(action.text);
		case "historyPrev": {
			const index = state.historyIndex + 1;
			const entry = action.history[index];
			if (entry === undefined) return state;
			const draft = state.historyIndex === -1 ? state.buffer : state.draft;
			return { ...state, buffer: fromText(entry), historyIndex: index, draft, completion: FRESH_COMPLETION };
		}
		case "historyNext": {
			if (state.historyIndex < 0) return state;
			const index = state.historyIndex - 1;
			const entry = action.history[index];
			if (index < 0 || entry === undefined) {
				return {
					...state,
					buffer: state.draft ?? EMPTY_BUFFER,
					historyIndex: -1,
					draft: undefined,
					completion: FRESH_COMPLETION,
				};
			}
			return { ...state, buffer: fromText(entry), historyIndex: index, completion: FRESH_COMPLETION };
		}
		case "searchOpen":
			if (state.search !== undefined) return state;
			return { ...state, search: { query: "", matchIndex: 0, matches: [], saved: state.buffer } };
		case "searchSet":
			if (state.search === undefined) return state;
			return { ...state, search: { ...state.search, query: action.query, matches: action.matches, matchIndex: 0 } };
		case "searchNext": {
			const search = state.search;
			if (search === undefined || search.matches.length === 0) return state;
			return { ...state, search: { ...search, matchIndex: (search.matchIndex + 1) % search.matches.length } };
		}
		case "searchAccept": {
			if (state.search === undefined) return state;
			const match = currentMatch(state.search);
			// Accepting is like typing the match: a fresh draft, not a position in history.
			if (match === undefined) return { ...state, buffer: state.search.saved, search: undefined };
			return createEditorState(match);
		}
		case "searchCancel":
			if (state.search === undefined) return state;
			return { ...state, buffer: state.search.saved, search: undefined };
		case "completionMove": {
			if (action.count <= 0) return state;
			const selected = (((state.completion.selected + action.delta) % action.count) + action.count) % action.count;
			return { ...state, completion: { ...state.completion, selected } };
		}
		case "completionDismiss":
			return { ...state, completion: { ...state.completion, dismissed: true, paths: [] } };
		case "completeCommand":
			return withBuffer(state, fromText(`/${bareCommandName(action.name)} `));
		case "completePath": {
			const next = withBuffer(state, insertText(state.buffer, action.insert));
			return { ...next, completion: { ...next.completion, paths: action.candidates } };
		}
		default:
			return assertNever(action);
	}
}

/** Applies a buffer change: new text re-filters the list from the top; any change hides path candidates. */
function withBuffer(state: EditorState, buffer: EditorBuffer): EditorState {
	if (buffer === state.buffer) return state;
	if (buffer.lines !== state.buffer.lines) return { ...state, buffer, completion: FRESH_COMPLETION };
	const completion = state.completion.paths.length === 0 ? state.completion : { ...state.completion, paths: [] };
	return { ...state, buffer, completion };
}

function assertNever(value: never): never {
	throw new Error(`unhandled editor action: ${JSON.stringify(value)}`);
}

/** What `useEditorState` hands to the input hook and the view. */
export interface EditorStore {
	readonly state: EditorState;
	readonly dispatch: (action: EditorAction) => void;
	/** The state after every action dispatched so far, including ones not yet rendered. */
	readonly getState: () => EditorState;
}

/**
 * Owns the editor state. Not `useReducer`: keys arrive in bursts within one tick, and Enter must
 * hand `onSubmit` the text produced by the keys before it, so the latest state lives in a ref that
 * every dispatch updates synchronously; React state only drives rendering. `onText` hears every
 * change of the text at once (not after a render, which an unmounting editor never gets).
 */
export function useEditorState(initialText = "", onText?: (text: string) => void): EditorStore {
	const [state, setState] = useState(() => createEditorState(initialText));
	const latest = useRef(state);
	const listener = useRef(onText);
	listener.current = onText;
	const dispatch = useCallback((action: EditorAction) => {
		const previous = latest.current;
		const next = editorReducer(previous, action);
		if (next === previous) return;
		latest.current = next;
		setState(next);
		const text = getText(next.buffer);
		if (text !== getText(previous.buffer)) listener.current?.(text);
	}, []);
	const getState = useCallback(() => latest.current, []);
	return { state, dispatch, getState };
}
