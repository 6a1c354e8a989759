import type { KeyAction } from "../../controllers/keymap.js";
import { listMoveFor } from "../list/list-keys.js";
import { initialListState, listReducer } from "../list/list-state.js";
import type { CodeCheck, NavigateOptions, TreeViewState } from "./tree-view-reducer.js";

/** The choices offered when the files at the entry differ from the working tree, in order. */
export const RESTORE_CHOICES = ["Restore code and conversation", "Conversation only", "Code only"] as const;

/**
 * The decision once everything is chosen: a conversation move that also restores the files when
 * that was chosen, else the move alone (as before checkpoints).
 */
export function decide(state: TreeViewState, entryId: string, options: NavigateOptions): TreeViewState {
	const outcome = state.restoreCode
		? ({ type: "restore", entryId, mode: "both", options } as const)
		: ({ type: "navigate", entryId, options } as const);
	return { ...state, mode: "browse", targetId: null, text: "", restoreCode: false, codeFiles: 0, outcome };
}

/** The conversation part: the summary choice when it leaves the branch, else decided at once. */
function moveConversation(state: TreeViewState, entryId: string, restoreCode: boolean): TreeViewState {
	const next = { ...state, restoreCode };
	return state.leaving ? { ...next, mode: "summary-choice", choice: 0 } : decide(next, entryId, { summarize: false });
}

/** The owner's answer to `check-code`: the restore choice when the files differ, else Enter goes on as before. */
export function codeChecked(state: TreeViewState, entryId: string, check: CodeCheck): TreeViewState {
	// A late answer for a target the person already left is dropped.
	if (state.mode !== "checking" || state.targetId !== entryId) return state;
	switch (check.kind) {
		case "same":
			return moveConversation({ ...state, codeFiles: 0 }, entryId, false);
		case "differs":
			return { ...state, mode: "restore-choice", choice: 0, codeFiles: Math.max(1, check.files) };
		default: {
			const unknown: never = check;
			return unknown;
		}
	}
}

/** Keys of the restore choice: ↑↓ choose, Enter decides, Esc back to the list. */
export function restoreChoiceKey(state: TreeViewState, action: KeyAction | undefined): TreeViewState {
	const targetId = state.targetId;
	if (targetId === null) return { ...state, mode: "browse" };
	const move = listMoveFor(action);
	if (move) {
		const choices = initialListState(RESTORE_CHOICES, RESTORE_CHOICES.length, state.choice);
		return { ...state, choice: listReducer(choices, move).selected };
	}
	switch (action) {
		case "submit":
			if (state.choice === 0) return moveConversation(state, targetId, true);
			if (state.choice === 1) return moveConversation(state, targetId, false);
			return {
				...state,
				mode: "browse",
				targetId: null,
				codeFiles: 0,
				outcome: { type: "restore", entryId: targetId, mode: "code", options: { summarize: false } },
			};
		case "cancel":
			return { ...state, mode: "browse", targetId: null, codeFiles: 0 };
		default:
			return state;
	}
}
