import type { Key } from "ink";
import { matchConfirmKey, matchKey } from "../../controllers/keymap.js";
import { filterEditFor, filterKeyFor } from "../list/list-keys.js";
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

/** Binds the picker's keys; it only dispatches to the state hook and calls back. */
export function useSessionSelectorInput(options: SessionSelectorInputOptions): void {
	useLatestInput((input: string, key: Key, paste: boolean) => {
		const { api, onSelect, onCancel, onDelete, onRename, onToggleScope } = options;
		const { dispatch } = api;
		// The latest state, not the rendered one: the keys before this one in the same read count.
		const { mode, filter, list } = api.getState();
		const selectedSession = list.items[list.selected];
		if (mode.kind === "confirmDelete") {
			if (paste) return;
			const answer = matchConfirmKey(input, key);
			if (answer === "confirm") onDelete(mode.path);
			if (answer !== undefined) dispatch({ type: "endMode" });
			return;
		}
		// Pasted text is typed, never read as keys.
		const action = paste ? undefined : matchKey(input, key);
		if (mode.kind === "rename") {
			if (action === "submit") {
				const name = mode.text.trim();
				if (name.length > 0) onRename(mode.path, name);
				dispatch({ type: "endMode" });
			} else if (action === "cancel") dispatch({ type: "endMode" });
			else {
				const edit = filterEditFor(action, input, key);
				if (edit) dispatch({ type: "renameEdit", edit });
			}
			return;
		}
		if (api.list.moveFor(action)) return;
		switch (action) {
			case "submit":
				if (selectedSession) onSelect(selectedSession.path);
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
		const edit = filterKeyFor(action, input, key, filter);
		if (edit === "close") onCancel();
		else if (edit) dispatch({ type: "filter", edit });
	}, options.isActive);
}
