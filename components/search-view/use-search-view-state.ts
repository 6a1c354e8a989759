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
import { listWindow, windowStartFor } from "../list/list-window.js";
import { useSyncReducer } from "../use-sync-reducer.js";

/** Everything the search screen shows besides the controller's results: the query line and the window. */
export interface SearchViewState {
	/** The query line (one line; the cursor counts graphemes). */
	readonly buffer: EditorBuffer;
	readonly hits: readonly SearchHit[];
	/** The query the hits answer; a new one puts the selection back on the best hit. */
	readonly hitsQuery: string;
	/** How many rows fit. */
	readonly rows: number;
	/** Index into `hits`. */
	readonly selected: number;
	/** Index of the first visible hit. */
	readonly windowStart: number;
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
	| { readonly type: "move"; readonly delta: number }
	| { readonly type: "page"; readonly direction: 1 | -1 }
	| { readonly type: "first" }
	| { readonly type: "last" };

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

function select(state: SearchViewState, index: number): SearchViewState {
	const count = state.hits.length;
	const selected = count === 0 ? 0 : Math.max(0, Math.min(index, count - 1));
	return { ...state, selected, windowStart: windowStartFor(selected, count, state.rows) };
}

/** New results: the same query (the index caught up) keeps the selected hit; a new query starts at the best. */
function sync(state: SearchViewState, hits: readonly SearchHit[], query: string, rows: number): SearchViewState {
	const previous = state.hits[state.selected];
	const kept =
		query === state.hitsQuery && previous !== undefined ? hits.findIndex((h) => hitKey(h) === hitKey(previous)) : -1;
	return select({ ...state, hits, hitsQuery: query, rows: Math.max(1, rows) }, Math.max(kept, 0));
}

/** Text a key press types into the one-line query: line breaks and tabs become spaces, control bytes go. */
export function typedQueryText(input: string): string {
	return input.replace(/[\r\n\t]+/g, " ").replace(/\p{Cc}/gu, "");
}

/** The search screen's pure reducer. */
export function searchViewReducer(state: SearchViewState, action: SearchViewAction): SearchViewState {
	switch (action.type) {
		case "sync":
			return sync(state, action.hits, action.query, action.rows);
		case "type":
			return { ...state, buffer: insertText(state.buffer, typedQueryText(action.text)) };
		case "edit": {
			const buffer = EDITS[action.edit](state.buffer);
			return buffer === state.buffer ? state : { ...state, buffer };
		}
		case "move":
			return select(state, state.selected + action.delta);
		case "page":
			return select(state, state.selected + action.direction * state.rows);
		case "first":
			return select(state, 0);
		case "last":
			return select(state, state.hits.length - 1);
	}
}

/** The initial state: the prefilled query with the cursor at its end. */
export function initialSearchViewState(
	query: string,
	hits: readonly SearchHit[],
	hitsQuery: string,
	rows: number,
): SearchViewState {
	const empty: SearchViewState = {
		buffer: fromText(typedQueryText(query)),
		hits: [],
		hitsQuery,
		rows: 1,
		selected: 0,
		windowStart: 0,
	};
	return sync(empty, hits, hitsQuery, rows);
}

/** The state hook's result: state, dispatch and what the view derives from them. */
export interface SearchViewStateApi {
	readonly state: SearchViewState;
	readonly dispatch: Dispatch<SearchViewAction>;
	/** The state after every action so far, rendered or not: what the next key of a burst acts on. */
	readonly getState: () => SearchViewState;
	readonly query: string;
	readonly selectedHit: SearchHit | undefined;
	readonly visibleHits: readonly SearchHit[];
	readonly hiddenAbove: number;
	readonly hiddenBelow: number;
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
	const wantedRows = Math.max(1, rows);
	// Synced during render (not in an effect), so new results never show one stale frame.
	if (state.hits !== hits || state.hitsQuery !== hitsQuery || state.rows !== wantedRows)
		dispatch({ type: "sync", hits, query: hitsQuery, rows });
	return useMemo(() => {
		const window = listWindow(state.windowStart, state.hits.length, state.rows);
		return {
			state,
			dispatch,
			getState,
			query: getText(state.buffer),
			selectedHit: state.hits[state.selected],
			visibleHits: state.hits.slice(window.start, window.end),
			hiddenAbove: window.above,
			hiddenBelow: window.below,
		};
	}, [state, dispatch, getState]);
}
