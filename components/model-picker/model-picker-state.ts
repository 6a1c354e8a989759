import type { ModelChoice } from "../../source/commands/types.js";
import { windowStartFor } from "../list-window.js";

/** The model picker's state: the filter, what matches it, the selection and the visible window. */
export interface ModelPickerState {
	readonly models: readonly ModelChoice[];
	/** How many rows fit. */
	readonly rows: number;
	readonly filter: string;
	/** `models` whose ref or name holds every word of `filter`, in the registry's order. */
	readonly matches: readonly ModelChoice[];
	/** Index into `matches`. */
	readonly selected: number;
	/** Index of the first visible match. */
	readonly windowStart: number;
}

/** Every change of the model picker. */
export type ModelPickerAction =
	| { readonly type: "resize"; readonly rows: number }
	| { readonly type: "type"; readonly text: string }
	| { readonly type: "backspace" }
	| { readonly type: "clearFilter" }
	| { readonly type: "move"; readonly delta: number }
	| { readonly type: "page"; readonly direction: 1 | -1 }
	| { readonly type: "first" }
	| { readonly type: "last" };

function matching(models: readonly ModelChoice[], filter: string): ModelChoice[] {
	const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
	return models.filter((m) => {
		const text = `${m.ref} ${m.name}`.toLowerCase();
		return words.every((word) => text.includes(word));
	});
}

function select(state: ModelPickerState, index: number): ModelPickerState {
	const count = state.matches.length;
	const selected = count === 0 ? 0 : Math.max(0, Math.min(index, count - 1));
	return { ...state, selected, windowStart: windowStartFor(selected, count, state.rows) };
}

function refilter(state: ModelPickerState, filter: string): ModelPickerState {
	// A new filter starts at its first match, as the session picker does.
	return select({ ...state, filter, matches: matching(state.models, filter) }, 0);
}

/** The picker's pure reducer. */
export function modelPickerReducer(state: ModelPickerState, action: ModelPickerAction): ModelPickerState {
	switch (action.type) {
		case "resize":
			return select({ ...state, rows: Math.max(1, action.rows) }, state.selected);
		case "type":
			return refilter(state, state.filter + action.text);
		case "backspace":
			return refilter(state, Array.from(state.filter).slice(0, -1).join(""));
		case "clearFilter":
			return refilter(state, "");
		case "move":
			return select(state, state.selected + action.delta);
		case "page":
			return select(state, state.selected + action.direction * state.rows);
		case "first":
			return select(state, 0);
		case "last":
			return select(state, state.matches.length - 1);
	}
}

/** The picker as it opens: every model listed, the current one selected. */
export function initialModelPickerState(
	models: readonly ModelChoice[],
	current: string,
	rows: number,
): ModelPickerState {
	const start: ModelPickerState = {
		models,
		rows: Math.max(1, rows),
		filter: "",
		matches: models,
		selected: 0,
		windowStart: 0,
	};
	return select(
		start,
		models.findIndex((m) => m.ref === current),
	);
}
