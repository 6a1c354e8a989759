import { useCallback, useRef, useState } from "react";

/** A reducer's state for rendering, its dispatch, and the state after every action dispatched so far. */
export interface SyncReducer<S, A> {
	readonly state: S;
	readonly dispatch: (action: A) => void;
	/** Current even between two keys of one read, before React renders. */
	readonly getState: () => S;
}

/**
 * `useReducer` whose latest state can be read at once. The keys of one read are applied in one
 * batch before React renders, so a key that depends on the ones before it (Enter after a filter
 * was typed) must read the state through `getState`, not the rendered `state`.
 */
export function useSyncReducer<S, A>(reducer: (state: S, action: A) => S, init: () => S): SyncReducer<S, A> {
	const [state, setState] = useState(init);
	const latest = useRef(state);
	const dispatch = useCallback(
		(action: A) => {
			const next = reducer(latest.current, action);
			if (Object.is(next, latest.current)) return;
			latest.current = next;
			setState(next);
		},
		[reducer],
	);
	const getState = useCallback(() => latest.current, []);
	return { state, dispatch, getState };
}
