import { listWindow, windowStartFor } from "./list-window.js";

/** A windowed list: its items, how many rows show, the selection and the first visible row. */
export interface ListState<T> {
	readonly items: readonly T[];
	/** How many rows fit; at least one. */
	readonly height: number;
	/** Index into `items`; 0 when the list is empty. */
	readonly selected: number;
	/** Index of the first visible item; the window is centred on the selection. */
	readonly windowStart: number;
}

/** A move of the selection: what the list keys (↑↓, PgUp/PgDn, Home/End) do. */
export type ListMove =
	| { readonly type: "move"; readonly delta: number; readonly wrap?: boolean }
	| { readonly type: "page"; readonly direction: 1 | -1 }
	| { readonly type: "first" }
	| { readonly type: "last" };

/** A move addressed to the list inside a screen's reducer. */
export interface ListMoveAction {
	readonly type: "list";
	readonly move: ListMove;
}

/** New items: the selection stays on the item with the same key, else goes to `fallback`. */
export interface ListReload<T> {
	readonly type: "reload";
	readonly items: readonly T[];
	/** Omitted when the selection should not follow its item (a new filter starts at the best match). */
	readonly keyOf?: ((item: T) => string) | undefined;
	/** The index selected when the old selection is gone (clamped into the new list). */
	readonly fallback: number;
}

/** Every change of a list. */
export type ListAction<T> =
	| ListMove
	| ListReload<T>
	| { readonly type: "select"; readonly index: number }
	| { readonly type: "resize"; readonly height: number };

function rowsOf(height: number): number {
	return Math.max(1, Math.floor(height));
}

/** The list with `index` selected (clamped into it) and the window centred on it; the same object when nothing moved. */
function selectIndex<T>(state: ListState<T>, index: number, changes: Partial<ListState<T>> = {}): ListState<T> {
	const next = { ...state, ...changes };
	const count = next.items.length;
	const selected = count === 0 ? 0 : Math.max(0, Math.min(index, count - 1));
	const windowStart = windowStartFor(selected, count, next.height);
	const same =
		next.items === state.items &&
		next.height === state.height &&
		selected === state.selected &&
		windowStart === state.windowStart;
	return same ? state : { ...next, selected, windowStart };
}

function moved<T>(state: ListState<T>, move: ListMove): number {
	const count = state.items.length;
	switch (move.type) {
		case "move":
			if (move.wrap && count > 0) return (((state.selected + move.delta) % count) + count) % count;
			return state.selected + move.delta;
		case "page":
			return state.selected + move.direction * state.height;
		case "first":
			return 0;
		case "last":
			return count - 1;
	}
}

function reloaded<T>(state: ListState<T>, reload: ListReload<T>): number {
	const { keyOf, items } = reload;
	const previous = state.items[state.selected];
	if (keyOf !== undefined && previous !== undefined) {
		const key = keyOf(previous);
		const kept = items.findIndex((item) => keyOf(item) === key);
		if (kept >= 0) return kept;
	}
	return reload.fallback;
}

/** The list's pure reducer: moves, pages, first/last, new items and new heights. */
export function listReducer<T>(state: ListState<T>, action: ListAction<T>): ListState<T> {
	switch (action.type) {
		case "move":
		case "page":
		case "first":
		case "last":
			return selectIndex(state, moved(state, action));
		case "select":
			return selectIndex(state, action.index);
		case "reload":
			return selectIndex(state, reloaded(state, action), { items: action.items });
		case "resize":
			return selectIndex(state, state.selected, { height: rowsOf(action.height) });
	}
}

/** A list of `items` in `height` rows with `selected` (clamped) selected. */
export function initialListState<T>(items: readonly T[], height: number, selected = 0): ListState<T> {
	const empty: ListState<T> = { items, height: rowsOf(height), selected: 0, windowStart: 0 };
	return selectIndex(empty, selected);
}

/** What a view draws of a list: the selected item, the visible items and how many are hidden each side. */
export interface ListView<T> {
	readonly focused: T | undefined;
	readonly selected: number;
	readonly windowStart: number;
	readonly visibleItems: readonly T[];
	readonly hiddenAbove: number;
	readonly hiddenBelow: number;
}

/** The view of a list state. */
export function listView<T>(state: ListState<T>): ListView<T> {
	const window = listWindow(state.windowStart, state.items.length, state.height);
	return {
		focused: state.items[state.selected],
		selected: state.selected,
		windowStart: window.start,
		visibleItems: state.items.slice(window.start, window.end),
		hiddenAbove: window.above,
		hiddenBelow: window.below,
	};
}
