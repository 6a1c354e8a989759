import type { KeyAction } from "../../controllers/keymap.js";
import type { RestoreMode } from "../../source/checkpoints/checkpoint-data.js";
import type { PathPrompt } from "../../source/checkpoints/session-rewind.js";
import { listMoveFor } from "../list/list-keys.js";
import { initialListState, type ListState, listReducer } from "../list/list-state.js";
import { RESTORE_CHOICES } from "../tree-view/tree-restore-choice.js";

/** The restore mode of each of `RESTORE_CHOICES`, in order. */
const CHOICE_MODES: readonly RestoreMode[] = ["both", "conversation", "code"];

/** A decision the owner acts on; a fresh object per decision. */
export type RewindOutcome =
	| { readonly type: "rewind"; readonly entryId: string; readonly mode: RestoreMode }
	| { readonly type: "cancel" };

/** The `/rewind` screen: the prompts, then the three choices for the one picked. */
export interface RewindViewState {
	readonly list: ListState<PathPrompt>;
	readonly mode: "list" | "choice";
	/** Focused entry of `RESTORE_CHOICES`. */
	readonly choice: number;
	readonly outcome: RewindOutcome | null;
}

/** A key (keymap action), or a new height for the list. */
export type RewindViewAction =
	| { readonly type: "key"; readonly action: KeyAction | undefined }
	| { readonly type: "resize"; readonly rows: number };

/** The screen as it opens: the newest prompt selected. */
export function initRewindView(prompts: readonly PathPrompt[], rows: number): RewindViewState {
	return { list: initialListState(prompts, rows), mode: "list", choice: 0, outcome: null };
}

function listKey(state: RewindViewState, action: KeyAction | undefined): RewindViewState {
	const move = listMoveFor(action);
	if (move) {
		const list = listReducer(state.list, move);
		return list === state.list ? state : { ...state, list };
	}
	switch (action) {
		case "submit":
			return state.list.items.length === 0 ? state : { ...state, mode: "choice", choice: 0 };
		case "cancel":
			return { ...state, outcome: { type: "cancel" } };
		default:
			return state;
	}
}

function choiceKey(state: RewindViewState, action: KeyAction | undefined): RewindViewState {
	const move = listMoveFor(action);
	if (move) {
		const choices = initialListState(RESTORE_CHOICES, RESTORE_CHOICES.length, state.choice);
		return { ...state, choice: listReducer(choices, move).selected };
	}
	switch (action) {
		case "submit": {
			const prompt = state.list.items[state.list.selected];
			const mode = CHOICE_MODES[state.choice];
			if (!prompt || !mode) return { ...state, mode: "list" };
			return { ...state, outcome: { type: "rewind", entryId: prompt.entryId, mode } };
		}
		case "cancel":
			return { ...state, mode: "list" };
		default:
			return state;
	}
}

/** The `/rewind` screen's state machine. Pure. */
export function rewindViewReducer(state: RewindViewState, action: RewindViewAction): RewindViewState {
	// One decision per screen: keys after it in the same read change nothing.
	if (state.outcome !== null) return state;
	if (action.type === "resize") {
		const list = listReducer(state.list, { type: "resize", height: action.rows });
		return list === state.list ? state : { ...state, list };
	}
	switch (state.mode) {
		case "list":
			return listKey(state, action.action);
		case "choice":
			return choiceKey(state, action.action);
		default: {
			const unknown: never = state.mode;
			return unknown;
		}
	}
}
