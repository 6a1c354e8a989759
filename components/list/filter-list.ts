import { editFilter, type FilterEdit } from "./list-keys.js";
import { initialListState, type ListMoveAction, type ListState, listReducer } from "./list-state.js";

/** A type-to-filter list: every item, the filter line, and the list of the items that match it. */
export interface FilterListState<T> {
	readonly all: readonly T[];
	readonly filter: string;
	/** `all` filtered by `filter`, best match first. */
	readonly list: ListState<T>;
}

/** Every change of a filter list. */
export type FilterListAction<T> =
	| ListMoveAction
	| { readonly type: "filter"; readonly edit: FilterEdit }
	/** New items (a reload) and/or a new height. */
	| { readonly type: "sync"; readonly all: readonly T[]; readonly height: number };

/** How a filter list finds and names its items. */
export interface FilterListRules<T> {
	/** The items matching `filter`, best first. */
	readonly match: (all: readonly T[], filter: string) => readonly T[];
	/** What stays the same across reloads: the selection follows it. */
	readonly keyOf: (item: T) => string;
}

/** A reducer for filter lists following `rules`; it keeps any other fields of `S` as they are. */
export function filterListReducer<T, S extends FilterListState<T>>(
	rules: FilterListRules<T>,
): (state: S, action: FilterListAction<T>) => S {
	return (state, action) => {
		switch (action.type) {
			case "list": {
				const list = listReducer(state.list, action.move);
				return list === state.list ? state : { ...state, list };
			}
			case "filter": {
				const filter = editFilter(state.filter, action.edit);
				if (filter === state.filter) return state;
				// A new filter starts at its best match.
				const list = listReducer(state.list, { type: "reload", items: rules.match(state.all, filter), fallback: 0 });
				return { ...state, filter, list };
			}
			case "sync": {
				// A reload keeps the selected item, or the spot if it is gone.
				const items = action.all === state.all ? state.list.items : rules.match(action.all, state.filter);
				const resized = listReducer(state.list, { type: "resize", height: action.height });
				const list = listReducer(resized, {
					type: "reload",
					items,
					keyOf: rules.keyOf,
					fallback: state.list.selected,
				});
				return list === state.list && action.all === state.all ? state : { ...state, all: action.all, list };
			}
		}
	};
}

/** A filter list with no filter yet, `selected` selected. */
export function initialFilterList<T>(
	rules: FilterListRules<T>,
	all: readonly T[],
	height: number,
	selected = 0,
): FilterListState<T> {
	return { all, filter: "", list: initialListState(rules.match(all, ""), height, selected) };
}
