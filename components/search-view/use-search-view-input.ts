import type { Key } from "ink";
import { type KeyAction, matchKey } from "../../controllers/keymap.js";
import type { SearchHit } from "../../source/index/session-index.js";
import { typedText } from "../list/list-keys.js";
import { useLatestInput } from "../use-latest-input.js";
import type { QueryEdit, SearchViewStateApi } from "./use-search-view-state.js";

/** What the search screen reports to its owner. */
export interface SearchViewCallbacks {
	readonly onSelect: (hit: SearchHit) => void;
	readonly onCancel: () => void;
	readonly onToggleScope: () => void;
}

/** Options of `useSearchViewInput`. */
export interface SearchViewInputOptions extends SearchViewCallbacks {
	readonly api: SearchViewStateApi;
	readonly isActive: boolean;
}

function queryEdit(action: KeyAction | undefined): QueryEdit | undefined {
	switch (action) {
		case "left":
		case "right":
		case "wordLeft":
		case "wordRight":
		case "lineStart":
		case "lineEnd":
		case "killLine":
		case "killWordLeft":
			return action;
		// Terminals send DEL (0x7f) for Backspace and Ink reports it as `delete`: both erase left.
		case "backspace":
		case "delete":
			return "backspace";
		default:
			return undefined;
	}
}

/** Binds the search screen's keys: list keys move, editing keys edit the query, the rest is typed. */
export function useSearchViewInput(options: SearchViewInputOptions): void {
	useLatestInput((input: string, key: Key, paste: boolean) => {
		const { api, onSelect, onCancel, onToggleScope } = options;
		const { dispatch } = api;
		if (paste) return dispatch({ type: "type", text: input });
		const action = matchKey(input, key);
		if (api.list.moveFor(action)) return;
		switch (action) {
			case "submit": {
				// The latest state, not the rendered one: keys before Enter in the same read moved the selection.
				const { list } = api.getState();
				const hit = list.items[list.selected];
				if (hit) onSelect(hit);
				return;
			}
			case "cancel":
				return onCancel();
			case "tab":
				return onToggleScope();
			default:
				break;
		}
		const edit = queryEdit(action);
		if (edit !== undefined) dispatch({ type: "edit", edit });
		else if (action === undefined && typedText(input, key).length > 0) dispatch({ type: "type", text: input });
	}, options.isActive);
}
