import { type Dispatch, useMemo } from "react";
import type { SessionInfo } from "../../source/session/types.js";
import { listWindow, windowStartFor } from "../list-window.js";
import { useSyncReducer } from "../use-sync-reducer.js";
import { fuzzyFilterSessions } from "./fuzzy.js";

/** What the picker is doing: browsing, asking y/n before a delete, or editing a name. */
export type SessionSelectorMode =
	| { readonly kind: "browse" }
	| { readonly kind: "confirmDelete"; readonly path: string; readonly label: string }
	| { readonly kind: "rename"; readonly path: string; readonly text: string };

/** Everything the picker shows, including the visible window. */
export interface SessionSelectorState {
	readonly sessions: readonly SessionInfo[];
	/** How many rows fit. */
	readonly rows: number;
	readonly filter: string;
	/** `sessions` filtered by `filter`, best match first. */
	readonly matches: readonly SessionInfo[];
	/** Index into `matches`. */
	readonly selected: number;
	/** Index of the first visible match. */
	readonly windowStart: number;
	readonly mode: SessionSelectorMode;
}

/** Every state change of the picker. */
export type SessionSelectorAction =
	| { readonly type: "sync"; readonly sessions: readonly SessionInfo[]; readonly rows: number }
	| { readonly type: "type"; readonly text: string }
	| { readonly type: "backspace" }
	| { readonly type: "clearFilter" }
	| { readonly type: "move"; readonly delta: number }
	| { readonly type: "page"; readonly direction: 1 | -1 }
	| { readonly type: "first" }
	| { readonly type: "last" }
	| { readonly type: "askDelete" }
	| { readonly type: "startRename" }
	| { readonly type: "renameType"; readonly text: string }
	| { readonly type: "renameBackspace" }
	| { readonly type: "renameClear" }
	| { readonly type: "endMode" };

const BROWSE: SessionSelectorMode = { kind: "browse" };

/** What a row shows for a session: its name, else its first message, else its id. */
export function sessionLabel(session: SessionInfo): string {
	return session.title || session.firstMessage || session.id;
}

function clamp(index: number, count: number): number {
	return count === 0 ? 0 : Math.max(0, Math.min(index, count - 1));
}

function select(state: SessionSelectorState, index: number): SessionSelectorState {
	const selected = clamp(index, state.matches.length);
	return { ...state, selected, windowStart: windowStartFor(selected, state.matches.length, state.rows) };
}

/** Refilters; the selection stays on the same session when it still matches. */
function refilter(
	state: SessionSelectorState,
	sessions: readonly SessionInfo[],
	filter: string,
	rows: number,
): SessionSelectorState {
	const previous = state.matches[state.selected]?.path;
	const matches = fuzzyFilterSessions(sessions, filter).map((match) => match.session);
	const kept = filter === state.filter ? matches.findIndex((s) => s.path === previous) : -1;
	// A new filter starts at the best match; a reload keeps the spot even if that session is gone.
	const index = kept >= 0 ? kept : filter === state.filter ? state.selected : 0;
	return select({ ...state, sessions, filter, rows, matches }, index);
}

/** The picker's pure reducer. */
export function sessionSelectorReducer(
	state: SessionSelectorState,
	action: SessionSelectorAction,
): SessionSelectorState {
	switch (action.type) {
		case "sync":
			return refilter(state, action.sessions, state.filter, Math.max(1, action.rows));
		case "type":
			return refilter(state, state.sessions, state.filter + action.text, state.rows);
		case "backspace":
			return refilter(state, state.sessions, Array.from(state.filter).slice(0, -1).join(""), state.rows);
		case "clearFilter":
			return refilter(state, state.sessions, "", state.rows);
		case "move":
			return select(state, state.selected + action.delta);
		case "page":
			return select(state, state.selected + action.direction * state.rows);
		case "first":
			return select(state, 0);
		case "last":
			return select(state, state.matches.length - 1);
		case "askDelete": {
			const session = state.matches[state.selected];
			if (!session) return state;
			return { ...state, mode: { kind: "confirmDelete", path: session.path, label: sessionLabel(session) } };
		}
		case "startRename": {
			const session = state.matches[state.selected];
			if (!session) return state;
			return { ...state, mode: { kind: "rename", path: session.path, text: session.title ?? "" } };
		}
		case "renameType":
			if (state.mode.kind !== "rename") return state;
			return { ...state, mode: { ...state.mode, text: state.mode.text + action.text } };
		case "renameBackspace":
			if (state.mode.kind !== "rename") return state;
			return { ...state, mode: { ...state.mode, text: Array.from(state.mode.text).slice(0, -1).join("") } };
		case "renameClear":
			if (state.mode.kind !== "rename") return state;
			return { ...state, mode: { ...state.mode, text: "" } };
		case "endMode":
			return { ...state, mode: BROWSE };
	}
}

/** The initial state for a list and a row count. */
export function initialSessionSelectorState(sessions: readonly SessionInfo[], rows: number): SessionSelectorState {
	const empty: SessionSelectorState = {
		sessions: [],
		rows: 1,
		filter: "",
		matches: [],
		selected: 0,
		windowStart: 0,
		mode: BROWSE,
	};
	return sessionSelectorReducer(empty, { type: "sync", sessions, rows });
}

/** The state hook's result: state, dispatch and what the view derives from them. */
export interface SessionSelectorStateApi {
	readonly state: SessionSelectorState;
	readonly dispatch: Dispatch<SessionSelectorAction>;
	/** The state after every action so far, rendered or not: what the next key of a burst acts on. */
	readonly getState: () => SessionSelectorState;
	readonly selectedSession: SessionInfo | undefined;
	readonly visibleSessions: readonly SessionInfo[];
	readonly hiddenAbove: number;
	readonly hiddenBelow: number;
}

/** Owns the picker's state; follows new `sessions` and `rows` props without losing the selection. */
export function useSessionSelectorState(sessions: readonly SessionInfo[], rows: number): SessionSelectorStateApi {
	const { state, dispatch, getState } = useSyncReducer(sessionSelectorReducer, () =>
		initialSessionSelectorState(sessions, rows),
	);
	const wantedRows = Math.max(1, rows);
	// Syncing during render (not in an effect) means a reloaded list never shows one stale frame.
	if (state.sessions !== sessions || state.rows !== wantedRows) dispatch({ type: "sync", sessions, rows });
	return useMemo(() => {
		const window = listWindow(state.windowStart, state.matches.length, state.rows);
		return {
			state,
			dispatch,
			getState,
			selectedSession: state.matches[state.selected],
			visibleSessions: state.matches.slice(window.start, window.end),
			hiddenAbove: window.above,
			hiddenBelow: window.below,
		};
	}, [state, dispatch, getState]);
}
