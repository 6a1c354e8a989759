import { useCallback, useMemo } from "react";
import type { KeyAction } from "../../controllers/keymap.js";
import { useSyncReducer } from "../use-sync-reducer.js";
import { listMoveFor } from "./list-keys.js";
import {
	initialListState,
	type ListMove,
	type ListMoveAction,
	type ListState,
	type ListView,
	listReducer,
	listView,
} from "./list-state.js";

/** The verbs of a list, as a widget's input hook calls them. */
export interface ListVerbs {
	readonly focusPrevious: () => void;
	readonly focusNext: () => void;
	readonly pageUp: () => void;
	readonly pageDown: () => void;
	readonly focusFirst: () => void;
	readonly focusLast: () => void;
	/** Applies a list key (↑↓, PgUp/PgDn, Home/End); false when `action` is none of them. */
	readonly moveFor: (action: KeyAction | undefined) => boolean;
}

/** A list's view and verbs. */
export type ListApi<T> = ListView<T> & ListVerbs;

/** Options of `useList` and `useListState`. */
export interface ListOptions {
	/** ↑ on the first item goes to the last, and ↓ on the last to the first. */
	readonly wrap?: boolean;
}

/**
 * The view and verbs of a list whose state lives in a screen's own reducer, which takes the
 * verbs' moves as `{ type: "list", move }`. One reducer per screen means a burst of keys (a filter
 * typed, then Enter) always acts on the latest state.
 */
export function useList<T>(
	list: ListState<T>,
	dispatch: (action: ListMoveAction) => void,
	options: ListOptions = {},
): ListApi<T> {
	const wrap = options.wrap ?? false;
	const verbs = useMemo<ListVerbs>(() => {
		const move = (move: ListMove) => dispatch({ type: "list", move });
		return {
			focusPrevious: () => move({ type: "move", delta: -1, wrap }),
			focusNext: () => move({ type: "move", delta: 1, wrap }),
			pageUp: () => move({ type: "page", direction: -1 }),
			pageDown: () => move({ type: "page", direction: 1 }),
			focusFirst: () => move({ type: "first" }),
			focusLast: () => move({ type: "last" }),
			moveFor: (action) => {
				const found = listMoveFor(action, wrap);
				if (found) move(found);
				return found !== undefined;
			},
		};
	}, [dispatch, wrap]);
	return useMemo(() => ({ ...listView(list), ...verbs }), [list, verbs]);
}

/** A list that owns its state: the view, the verbs, and the latest state for the next key of a burst. */
export interface ListStateApi<T> extends ListApi<T> {
	/** The selected item after every move so far, rendered or not. */
	readonly getFocused: () => T | undefined;
}

/** Owns a list of fixed `items` in `height` rows (as ink-ui's `useSelectState` does); follows a new height. */
export function useListState<T>(
	items: readonly T[],
	height: number,
	options: ListOptions & { readonly initialIndex?: number } = {},
): ListStateApi<T> {
	const { state, dispatch, getState } = useSyncReducer(listReducer<T>, () =>
		initialListState(items, height, options.initialIndex ?? 0),
	);
	// Synced during render, not in an effect: the first frame after a change already fits.
	if (state.items !== items) dispatch({ type: "reload", items, fallback: state.selected });
	if (state.height !== Math.max(1, Math.floor(height))) dispatch({ type: "resize", height });
	const move = useCallback((action: ListMoveAction) => dispatch(action.move), [dispatch]);
	const api = useList(state, move, options);
	return useMemo(() => ({ ...api, getFocused: () => getState().items[getState().selected] }), [api, getState]);
}
