import type { Key } from "ink";
import { useCallback, useRef } from "react";
import { isChord, type KeyAction, matchKey } from "../../controllers/keymap.js";
import type { PathCompletion } from "../../source/path-completion.js";
import { useLatestInput } from "../use-latest-input.js";
import { type EditorBuffer, getText, graphemes, isEmpty, sanitizeInput, textBeforeCursor } from "./editor-buffer.js";
import { type BufferOp, type EditorStore, type SlashCommand, visibleCommands } from "./use-editor-state.js";

/** The props the input hook reacts to. */
export interface EditorInputOptions {
	readonly isActive: boolean;
	/** Editing and submitting are off; Escape and Ctrl+C still reach the app (it aborts turns with them). */
	readonly disabled: boolean;
	/** Newest first. */
	readonly history: readonly string[];
	readonly searchHistory: (query: string) => readonly string[];
	readonly commands: readonly SlashCommand[];
	readonly completePath: (token: string) => PathCompletion;
	readonly completeArgument?: (line: string) => PathCompletion | undefined;
	/** `false`: refused, the text stays. */
	readonly onSubmit: (text: string) => boolean | undefined;
	readonly onEscape: () => void;
	readonly onInterrupt: (isEmpty: boolean) => void;
	/** Keys the screen takes before the editor (the transcript's); true when it took the key. */
	readonly onScreenKey?: ((action: KeyAction) => boolean) | undefined;
	/** The mouse wheel over the screen. */
	readonly onWheel?: ((direction: -1 | 1) => void) | undefined;
}

/** Keys that map straight onto a buffer operation. */
const BUFFER_OPS: Partial<Record<KeyAction, BufferOp>> = {
	left: "left",
	right: "right",
	wordLeft: "wordLeft",
	wordRight: "wordRight",
	home: "lineStart",
	lineStart: "lineStart",
	end: "lineEnd",
	lineEnd: "lineEnd",
	backspace: "backspace",
	// Ink reports the Backspace key (DEL, 0x7f) as `delete` and cannot tell it from the Delete key,
	// so both erase leftwards; Ctrl+D deletes forwards, as in readline.
	delete: "backspace",
	deleteItem: "delete",
	killLine: "killLine",
	killWordLeft: "killWordLeft",
};

/**
 * Binds keys to editor actions. Only dispatches and calls back: all state is read through
 * `getState()` (current even mid-burst) and props through a ref, so the handler never changes and
 * Ink never resubscribes it.
 */
export function useEditorInput({ dispatch, getState }: EditorStore, options: EditorInputOptions): void {
	const props = useRef(options);
	// Latest props for the stable handler; written during render because Ink renders synchronously.
	props.current = options;

	const runSearch = useCallback(
		(query: string) => {
			const matches = query === "" ? [] : [...new Set(props.current.searchHistory(query))];
			dispatch({ type: "searchSet", query, matches });
		},
		[dispatch],
	);

	const handleSearchKey = useCallback(
		(input: string, key: Key, action: KeyAction | undefined) => {
			const query = getState().search?.query ?? "";
			switch (action) {
				case "cancel":
				case "interrupt":
					dispatch({ type: "searchCancel" });
					return;
				case "submit":
					dispatch({ type: "searchAccept" });
					return;
				case "historySearch":
					dispatch({ type: "searchNext" });
					return;
				case "backspace":
				case "delete":
					runSearch(graphemes(query).slice(0, -1).join(""));
					return;
				case undefined:
					if (input === "" || isChord(key)) return;
					// The query is one line: a pasted newline becomes a space.
					runSearch(query + sanitizeInput(input).replaceAll("\n", " "));
					return;
				default:
					return;
			}
		},
		[dispatch, getState, runSearch],
	);

	const handleEditKey = useCallback(
		(action: KeyAction) => {
			const state = getState();
			const { buffer } = state;
			const { history, commands, completePath, completeArgument, onSubmit } = props.current;
			const listed = visibleCommands(state, commands);
			switch (action) {
				case "submit": {
					const text = getText(buffer);
					if (text.trim() === "") return;
					if (onSubmit(text) === false) return;
					dispatch({ type: "setText", text: "" });
					return;
				}
				case "newline":
					dispatch({ type: "insert", text: "\n" });
					return;
				case "up":
					if (listed.length > 0) dispatch({ type: "completionMove", delta: -1, count: listed.length });
					else if (buffer.row === 0) dispatch({ type: "historyPrev", history });
					else dispatch({ type: "edit", op: "up" });
					return;
				case "down":
					if (listed.length > 0) dispatch({ type: "completionMove", delta: 1, count: listed.length });
					else if (buffer.row === buffer.lines.length - 1) dispatch({ type: "historyNext", history });
					else dispatch({ type: "edit", op: "down" });
					return;
				case "historySearch":
					dispatch({ type: "searchOpen" });
					return;
				case "tab": {
					// Clamped: the commands prop may have shrunk since the selection was made.
					const selected = listed[Math.min(state.completion.selected, listed.length - 1)];
					if (selected !== undefined) dispatch({ type: "completeCommand", name: selected.name });
					else {
						const completion = completeArgument?.(textBeforeCursor(buffer)) ?? completePath(tokenBeforeCursor(buffer));
						dispatch({ type: "completePath", ...completion });
					}
					return;
				}
				default: {
					const op = BUFFER_OPS[action];
					if (op !== undefined) dispatch({ type: "edit", op });
				}
			}
		},
		[dispatch, getState],
	);

	const handleInput = useCallback(
		(input: string, key: Key, isPaste: boolean) => {
			const { disabled, commands, onEscape, onInterrupt, onScreenKey } = props.current;
			// A bracketed paste is text only, never a submit, even when it contains newlines.
			const action = isPaste ? undefined : matchKey(input, key);
			if (action !== undefined && onScreenKey?.(action)) return;
			const state = getState();
			if (state.search !== undefined) {
				if (!disabled || action === "cancel" || action === "interrupt") handleSearchKey(input, key, action);
				return;
			}
			if (action === "interrupt") {
				onInterrupt(isEmpty(state.buffer));
				return;
			}
			if (action === "cancel") {
				// Escape first closes whatever popup is showing; only on an empty editor does it reach the app.
				const popup = visibleCommands(state, commands).length > 0 || state.completion.paths.length > 0;
				if (popup) dispatch({ type: "completionDismiss" });
				else if (isEmpty(state.buffer)) onEscape();
				return;
			}
			if (disabled) return;
			if (action !== undefined) {
				handleEditKey(action);
				return;
			}
			// An unbound Ctrl/Alt chord must not type its letter.
			if (input === "" || (!isPaste && isChord(key))) return;
			dispatch({ type: "insert", text: sanitizeInput(input) });
		},
		[dispatch, getState, handleEditKey, handleSearchKey],
	);

	const onWheel = useCallback((direction: -1 | 1) => props.current.onWheel?.(direction), []);
	useLatestInput(handleInput, options.isActive, onWheel);
}

/** The word Tab completes: the current line left of the cursor, back to the last whitespace. */
function tokenBeforeCursor(buffer: EditorBuffer): string {
	const before = textBeforeCursor(buffer);
	const match = /\S*$/.exec(before);
	return match?.[0] ?? "";
}
