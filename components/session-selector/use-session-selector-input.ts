import type { Key } from "ink";
import { type KeyAction, matchConfirmKey, matchKey } from "../../controllers/keymap.js";
import { useLatestInput } from "../use-latest-input.js";
import type { SessionSelectorStateApi } from "./use-session-selector-state.js";

/** What the picker reports to its owner. */
export interface SessionSelectorCallbacks {
	readonly onSelect: (path: string) => void;
	readonly onCancel: () => void;
	readonly onDelete: (path: string) => void;
	readonly onRename: (path: string, name: string) => void;
	readonly onToggleScope: () => void;
}

/** Options of `useSessionSelectorInput`. */
export interface SessionSelectorInputOptions extends SessionSelectorCallbacks {
	readonly api: SessionSelectorStateApi;
	readonly isActive: boolean;
}

/** Text a key press types: control characters dropped, pasted line breaks and tabs become spaces. */
function typedText(input: string, key: Key): string {
	if (key.ctrl || key.meta || input.length === 0) return "";
	return input.replace(/[\r\n\t]+/g, " ").replace(/\p{Cc}/gu, "");
}

/** The editing keys shared by the filter and the rename field. */
type EditAction = "erase" | "clear";

function editAction(action: KeyAction | undefined): EditAction | undefined {
	// Terminals send DEL (0x7f) for Backspace and Ink reports it as `delete`; with no cursor both erase.
	if (action === "backspace" || action === "delete") return "erase";
	if (action === "killLine") return "clear";
	return undefined;
}

/** Binds the picker's keys; it only dispatches to the state hook and calls back. */
export function useSessionSelectorInput(options: SessionSelectorInputOptions): void {
	useLatestInput((input: string, key: Key, paste: boolean) => {
		const { api, onSelect, onCancel, onDelete, onRename, onToggleScope } = options;
		const { dispatch } = api;
		// The latest state, not the rendered one: the keys before this one in the same read count.
		const { mode, filter, matches, selected } = api.getState();
		const selectedSession = matches[selected];
		if (mode.kind === "confirmDelete") {
			if (paste) return;
			const answer = matchConfirmKey(input, key);
			if (answer === "confirm") onDelete(mode.path);
			if (answer !== undefined) dispatch({ type: "endMode" });
			return;
		}
		// Pasted text is typed, never read as keys.
		const action = paste ? undefined : matchKey(input, key);
		const edit = editAction(action);
		if (mode.kind === "rename") {
			if (action === "submit") {
				const name = mode.text.trim();
				if (name.length > 0) onRename(mode.path, name);
				dispatch({ type: "endMode" });
			} else if (action === "cancel") dispatch({ type: "endMode" });
			else if (edit === "erase") dispatch({ type: "renameBackspace" });
			else if (edit === "clear") dispatch({ type: "renameClear" });
			else if (action === undefined) {
				const text = typedText(input, key);
				if (text.length > 0) dispatch({ type: "renameType", text });
			}
			return;
		}
		switch (action) {
			case "up":
				return dispatch({ type: "move", delta: -1 });
			case "down":
				return dispatch({ type: "move", delta: 1 });
			case "pageUp":
				return dispatch({ type: "page", direction: -1 });
			case "pageDown":
				return dispatch({ type: "page", direction: 1 });
			case "home":
				return dispatch({ type: "first" });
			case "end":
				return dispatch({ type: "last" });
			case "submit":
				if (selectedSession) onSelect(selectedSession.path);
				return;
			case "cancel":
				// Escape peels one layer: the filter first, then the picker itself.
				if (filter.length > 0) dispatch({ type: "clearFilter" });
				else onCancel();
				return;
			case "tab":
				return onToggleScope();
			case "deleteItem":
				return dispatch({ type: "askDelete" });
			// Ctrl+R is history search at the prompt; inside the picker it renames, like Ctrl+N.
			case "rename":
			case "historySearch":
				return dispatch({ type: "startRename" });
			default:
				break;
		}
		if (edit === "erase") dispatch({ type: "backspace" });
		else if (edit === "clear") dispatch({ type: "clearFilter" });
		else if (action === undefined) {
			const text = typedText(input, key);
			if (text.length > 0) dispatch({ type: "type", text });
		}
	}, options.isActive);
}
