import { type Dispatch, useMemo } from "react";
import type { SearchHit } from "../../source/index/session-index.js";
import {
	backspace,
	type EditorBuffer,
	fromText,
	getText,
	insertText,
	killToLineStart,
	killWordLeft,
	lineEnd,
	lineStart,
	moveLeft,
	moveRight,
	wordLeft,
	wordRight,
} from "../editor/editor-buffer.js";
import { cleanTyped } from "../list/list-keys.js";
import { initialListState, type ListMoveAction, type ListState, listReducer } from "../list/list-state.js";
import { type ListApi, useList } from "../list/use-list.js";
import { useSyncReducer } from "../use-sync-reducer.js";

/** Everything the search screen shows besides the controller's results: the query line and the window. */
export interface SearchViewState {
	/** The query line (one line; the cursor counts graphemes). */
	readonly buffer: EditorBuffer;
	/** The query the hits answer; a new one puts the selection back on the best hit. */
	readonly hitsQuery: string;
	/** The hits, the selection and the window. */
	readonly list: ListState<SearchHit>;
}

/** How the query line is edited. */
export type QueryEdit =
	| "left"
	| "right"
	| "wordLeft"
	| "wordRight"
	| "lineStart"
	| "lineEnd"
	| "backspace"
	| "killLine"
	| "killWordLeft";

/** Every state change of the search screen. */
export type SearchViewAction =
	| { readonly type: "sync"; readonly hits: readonly SearchHit[]; readonly query: string; readonly rows: number }
	| { readonly type: "type"; readonly text: string }
	| { readonly type: "edit"; readonly edit: QueryEdit }
	| ListMoveAction;

const EDITS: Readonly<Record<QueryEdit, (buffer: EditorBuffer) => EditorBuffer>> = {
	left: moveLeft,
	right: moveRight,
	wordLeft,
	wordRight,
	lineStart,
	lineEnd,
	backspace,
	// One line: Ctrl+U clears it all, wherever the cursor is.
	killLine: (buffer) => killToLineStart(lineEnd(buffer)),
	killWordLeft,
};

/** What a hit is called in the list: its session and entry (the same entry can match only once). */
export function hitKey(hit: SearchHit): string {
	return `${hit.sessionPath}\0${hit.entryId ?? ""}\0${hit.timestamp}`;
}

/** New results: the same query (the index caught up) keeps the selected hit; a new query starts at the best. */
function sync(state: SearchViewState, hits: readonly SearchHit[], query: string, rows: number): SearchViewState {
	const resized = listReducer(state.list, { type: "resize", height: rows });
	const keyOf = query === state.hitsQuery ? hitKey : undefined;
	const list = listReducer(resized, { type: "reload", items: hits, keyOf, fallback: 0 });
	return list === state.list && query === state.hitsQuery ? state : { ...state, hitsQuery: query, list };
}

/** The search screen's pure reducer. */
export function searchViewReducer(state: SearchViewState, action: SearchViewAction): SearchViewState {
	switch (action.type) {
		case "sync":
			return sync(state, action.hits, action.query, action.rows);
		case "type":
			return { ...state, buffer: insertText(state.buffer, cleanTyped(action.text)) };
		case "edit": {
			const buffer = EDITS[action.edit](state.buffer);
			return buffer === state.buffer ? state : { ...state, buffer };
		}
		case "list": {
			const list = listReducer(state.list, action.move);
			return list === state.list ? state : { ...state, list };
		}
	}
}

/** The initial state: the prefilled query with the cursor at its end. */
export function initialSearchViewState(
	query: string,
	hits: readonly SearchHit[],
	hitsQuery: string,
	rows: number,
): SearchViewState {
	return { buffer: fromText(cleanTyped(query)), hitsQuery, list: initialListState(hits, rows) };
}

/** The state hook's result: state, dispatch, the query line's text and the list's view and verbs. */
export interface SearchViewStateApi {
	readonly state: SearchViewState;
	readonly dispatch: Dispatch<SearchViewAction>;
	/** The state after every action so far, rendered or not: what the next key of a burst acts on. */
	readonly getState: () => SearchViewState;
	readonly query: string;
	readonly list: ListApi<SearchHit>;
}

/** Owns the query line and the window; follows new hits (answering `hitsQuery`) and row counts. */
export function useSearchViewState(
	initialQuery: string,
	hits: readonly SearchHit[],
	hitsQuery: string,
	rows: number,
): SearchViewStateApi {
	const { state, dispatch, getState } = useSyncReducer(searchViewReducer, () =>
		initialSearchViewState(initialQuery, hits, hitsQuery, rows),
	);
	// Synced during render (not in an effect), so new results never show one stale frame.
	if (state.list.items !== hits || state.hitsQuery !== hitsQuery || state.list.height !== Math.max(1, rows))
		dispatch({ type: "sync", hits, query: hitsQuery, rows });
	const list = useList(state.list, dispatch);
	const query = getText(state.buffer);
	return useMemo(() => ({ state, dispatch, getState, query, list }), [state, dispatch, getState, query, list]);
}
