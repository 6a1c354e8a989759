import { type Key, useInput } from "ink";
import { useCallback, useLayoutEffect, useRef } from "react";

/**
 * Ink's `useInput` with one stable subscription that always calls the latest `handler`. Ink
 * re-subscribes a changed handler in a passive effect, which a fast key can beat and so meet a
 * stale handler; the latest one is stored in the commit instead, before any key can be read.
 */
export function useLatestInput(handler: (input: string, key: Key) => void, isActive: boolean): void {
	const latest = useRef(handler);
	useLayoutEffect(() => {
		latest.current = handler;
	});
	const stable = useCallback((input: string, key: Key) => latest.current(input, key), []);
	useInput(stable, { isActive });
}
