import { type Key, useInput } from "ink";
import { type Dispatch, useCallback } from "react";
import { matchTreeKey } from "../../controllers/keymap.js";
import type { TreeViewAction } from "./tree-view-reducer.js";

/** Binds the tree view's keys: every press is dispatched; the reducer decides per mode. */
export function useTreeViewInput(dispatch: Dispatch<TreeViewAction>, isActive: boolean): void {
	// Depends on `dispatch` only, which React keeps stable, so Ink subscribes once.
	const handleInput = useCallback(
		(input: string, key: Key) => {
			const action = matchTreeKey(input, key);
			// Ctrl/Meta chords that are not actions must not type their letter.
			if (action === undefined && (key.ctrl || key.meta)) return;
			dispatch({ type: "key", action, input });
		},
		[dispatch],
	);
	useInput(handleInput, { isActive });
}
