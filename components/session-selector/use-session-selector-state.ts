import { type Dispatch, useMemo } from "react";
import type { SessionInfo } from "../../source/session/types.js";
import {
	type FilterListAction,
	type FilterListRules,
	type FilterListState,
	filterListReducer,
	initialFilterList,
} from "../list/filter-list.js";
import { editFilter, type FilterEdit } from "../list/list-keys.js";
import { type ListApi, useList } from "../list/use-list.js";
import { useSyncReducer } from "../use-sync-reducer.js";
import { fuzzyFilterSessions } from "./fuzzy.js";

/** What the picker is doing: browsing, asking y/n before a delete, or editing a name. */
export type SessionSelectorMode =
	| { readonly kind: "browse" }
	| { readonly kind: "confirmDelete"; readonly path: string; readonly label: string }
	| { readonly kind: "rename"; readonly path: string; readonly text: string };

/** Everything the picker shows: the sessions, the filter, the list of matches (with its window) and the mode. */
export interface SessionSelectorState extends FilterListState<SessionInfo> {
	readonly mode: SessionSelectorMode;
}

/** Every state change of the picker: the filter list's, and the delete and rename modes'. */
export type SessionSelectorAction =
	| FilterListAction<SessionInfo>
	| { readonly type: "askDelete" }
	| { readonly type: "startRename" }
	| { readonly type: "renameEdit"; readonly edit: FilterEdit }
	| { readonly type: "endMode" };

const BROWSE: SessionSelectorMode = { kind: "browse" };

/** What a row shows for a session: its name, else its first message, else its id. */
export function sessionLabel(session: SessionInfo): string {
	return session.title || session.firstMessage || session.id;
}

/** Sessions best match first; the selection follows a session across reloads. */
const SESSION_RULES: FilterListRules<SessionInfo> = {
	match: (sessions, filter) => fuzzyFilterSessions(sessions, filter).map((match) => match.session),
	keyOf: (session) => session.path,
};

const filterListStep = filterListReducer<SessionInfo, SessionSelectorState>(SESSION_RULES);

/** The picker's pure reducer. */
export function sessionSelectorReducer(
	state: SessionSelectorState,
	action: SessionSelectorAction,
): SessionSelectorState {
	switch (action.type) {
		case "list":
		case "filter":
		case "sync":
			return filterListStep(state, action);
		case "askDelete": {
			const session = state.list.items[state.list.selected];
			if (!session) return state;
			return { ...state, mode: { kind: "confirmDelete", path: session.path, label: sessionLabel(session) } };
		}
		case "startRename": {
			const session = state.list.items[state.list.selected];
			if (!session) return state;
			return { ...state, mode: { kind: "rename", path: session.path, text: session.title ?? "" } };
		}
		case "renameEdit":
			if (state.mode.kind !== "rename") return state;
			return { ...state, mode: { ...state.mode, text: editFilter(state.mode.text, action.edit) } };
		case "endMode":
			return { ...state, mode: BROWSE };
	}
}

/** The initial state for a list and a row count. */
export function initialSessionSelectorState(sessions: readonly SessionInfo[], rows: number): SessionSelectorState {
	return { ...initialFilterList(SESSION_RULES, sessions, rows), mode: BROWSE };
}

/** The state hook's result: state, dispatch, and the list's view and verbs. */
export interface SessionSelectorStateApi {
	readonly state: SessionSelectorState;
	readonly dispatch: Dispatch<SessionSelectorAction>;
	/** The state after every action so far, rendered or not: what the next key of a burst acts on. */
	readonly getState: () => SessionSelectorState;
	readonly list: ListApi<SessionInfo>;
}

/** Owns the picker's state; follows new `sessions` and `rows` props without losing the selection. */
export function useSessionSelectorState(sessions: readonly SessionInfo[], rows: number): SessionSelectorStateApi {
	const { state, dispatch, getState } = useSyncReducer(sessionSelectorReducer, () =>
		initialSessionSelectorState(sessions, rows),
	);
	// Syncing during render (not in an effect) means a reloaded list never shows one stale frame.
	if (state.all !== sessions || state.list.height !== Math.max(1, rows))
		dispatch({ type: "sync", all: sessions, height: rows });
	const list = useList(state.list, dispatch);
	return useMemo(() => ({ state, dispatch, getState, list }), [state, dispatch, getState, list]);
}
