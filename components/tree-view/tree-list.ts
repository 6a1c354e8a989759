import type { ListMove, ListView } from "../list/list-state.js";
import { listWindow, windowStartFor } from "../list/list-window.js";
import { rowsBetween, type TreeRows } from "./tree-outline.js";
import type { TreeRow } from "./tree-rows.js";

/**
 * The tree's list: `listReducer`'s selection and window over a `TreeRows` instead of an array,
 * so only the rows of the window are ever made.
 */
export interface TreeListState {
	readonly rows: TreeRows;
	/** How many rows fit; at least one. */
	readonly height: number;
	/** Index of the selected row; 0 when there are none. */
	readonly selected: number;
	/** Index of the first visible row; the window is centred on the selection. */
	readonly windowStart: number;
}

/** Every change of the tree's list: a move, new rows (the selection follows its entry, else `fallback`), a new height. */
export type TreeListAction =
	| ListMove
	| { readonly type: "reload"; readonly rows: TreeRows; readonly fallback: number }
	| { readonly type: "resize"; readonly height: number };

function select(state: TreeListState, index: number, changes: Partial<TreeListState> = {}): TreeListState {
	const next = { ...state, ...changes };
	const count = next.rows.count;
	const selected = count === 0 ? 0 : Math.max(0, Math.min(index, count - 1));
	const windowStart = windowStartFor(selected, count, next.height);
	const same =
		next.rows === state.rows &&
		next.height === state.height &&
		selected === state.selected &&
		windowStart === state.windowStart;
	return same ? state : { ...next, selected, windowStart };
}

/** A list of `rows` in `height` lines with `selected` (clamped) selected. */
export function initialTreeList(rows: TreeRows, height: number, selected: number): TreeListState {
	return select({ rows, height: Math.max(1, Math.floor(height)), selected: 0, windowStart: 0 }, selected);
}

/** Where the selected entry is among `rows` (-1: not shown). */
function followed(state: TreeListState, rows: TreeRows): number {
	const old = state.rows;
	const position = old.positionAt(state.selected);
	if (position === undefined) return -1;
	// Positions stay an entry's own while the session only grows; otherwise go by id.
	if (rows.model.sameOrder(old.model)) return rows.indexOfPosition(position);
	return rows.indexOfId(old.model.id(position));
}

/** The tree list's pure reducer, move for move what `listReducer` does. */
export function treeListReducer(state: TreeListState, action: TreeListAction): TreeListState {
	const count = state.rows.count;
	switch (action.type) {
		case "move":
			if (action.wrap && count > 0) return select(state, (((state.selected + action.delta) % count) + count) % count);
			return select(state, state.selected + action.delta);
		case "page":
			return select(state, state.selected + action.direction * state.height);
		case "first":
			return select(state, 0);
		case "last":
			return select(state, count - 1);
		case "reload": {
			const kept = followed(state, action.rows);
			return select(state, kept >= 0 ? kept : action.fallback, { rows: action.rows });
		}
		case "resize":
			return select(state, state.selected, { height: Math.max(1, Math.floor(action.height)) });
	}
}

/** The selected row. */
export function selectedRow(state: TreeListState): TreeRow | undefined {
	return state.rows.rowAt(state.selected);
}

/** What the view draws: the rows of the window and how many are hidden each side. */
export function treeListView(state: TreeListState): ListView<TreeRow> {
	const window = listWindow(state.windowStart, state.rows.count, state.height);
	return {
		focused: state.rows.rowAt(state.selected),
		selected: state.selected,
		windowStart: window.start,
		visibleItems: rowsBetween(state.rows, window.start, window.end),
		hiddenAbove: window.above,
		hiddenBelow: window.below,
	};
}
