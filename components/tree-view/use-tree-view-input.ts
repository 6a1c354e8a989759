import type { Key } from "ink";
import { type Dispatch, useCallback } from "react";
import { isChord, matchTreeKey } from "../../controllers/keymap.js";
import { useLatestInput } from "../use-latest-input.js";
import type { TreeViewAction } from "./tree-view-reducer.js";

/** Binds the tree view's keys: every press is dispatched, in order; the reducer decides per mode. */
export function useTreeViewInput(dispatch: Dispatch<TreeViewAction>, isActive: boolean): void {
	const handleInput = useCallback(
		(input: string, key: Key, paste: boolean) => {
			// Pasted text is typed into the search or the label, never read as keys.
			const action = paste ? undefined : matchTreeKey(input, key);
			// Ctrl/Meta chords that are not actions must not type their letter.
			if (action === undefined && !paste && isChord(key)) return;
			dispatch({ type: "key", action, input });
		},
		[dispatch],
	);
	useLatestInput(handleInput, isActive);
}
