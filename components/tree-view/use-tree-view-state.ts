import { type Dispatch, useEffect, useMemo, useReducer, useRef } from "react";
import type { SummaryTreeNode } from "../../source/session/summary-tree.js";
import type { ListView } from "../list/list-state.js";
import { treeChromeLines } from "./tree-layout.js";
import { treeListView } from "./tree-list.js";
import type { TreeRow } from "./tree-rows.js";
import {
	type CodeCheck,
	type CodeRestore,
	initTreeViewState,
	type NavigateOptions,
	type TreeViewAction,
	type TreeViewOutcome,
	type TreeViewState,
	treeViewReducer,
	windowHeight,
} from "./tree-view-reducer.js";

/** What the tree view reports to its owner. */
export interface TreeViewCallbacks {
	readonly onNavigate: (entryId: string, options: NavigateOptions) => void;
	readonly onLabel: (entryId: string, label: string | undefined) => void;
	readonly onCancel: () => void;
	/** Compares an entry's files with the working tree; without it, Enter navigates as before checkpoints. */
	readonly onCheckCode?: ((entryId: string) => Promise<CodeCheck>) | undefined;
	readonly onRestore?: ((entryId: string, mode: CodeRestore, options: NavigateOptions) => void) | undefined;
	readonly onDiff?: ((entryId: string) => void) | undefined;
}

/** Options of `useTreeViewState`. */
export interface TreeViewStateOptions extends TreeViewCallbacks {
	readonly tree: readonly SummaryTreeNode[];
	readonly leafId: string | null;
	/** Lines the whole view may use; the rows get what the title, markers, prompt and footer leave. */
	readonly height: number;
	/** The entry the selection starts on (read when the view opens); default the leaf. */
	readonly initialSelectedId?: string | undefined;
}

/** The state hook's result: the state, its dispatcher and the rows of the window. */
export interface TreeViewStateApi {
	readonly state: TreeViewState;
	readonly dispatch: Dispatch<TreeViewAction>;
	/** The rows of the window, the selection and what is hidden each side. */
	readonly list: ListView<TreeRow>;
}

/** Owns the tree view's state (rows, selection, window, mode) and reports outcomes to the owner. */
export function useTreeViewState(options: TreeViewStateOptions): TreeViewStateApi {
	const { tree, leafId, height, initialSelectedId, onNavigate, onLabel, onCancel } = options;
	const { onCheckCode, onRestore, onDiff } = options;
	const [state, dispatch] = useReducer(
		treeViewReducer,
		{
			tree,
			leafId,
			height: windowHeight(height - treeChromeLines({ mode: "browse", search: "" })),
			selectedId: initialSelectedId,
			checksCode: onCheckCode !== undefined,
		},
		initTreeViewState,
	);
	// The rows get what the chrome leaves, and the chrome changes with the mode and the search line.
	const rowCount = windowHeight(height - treeChromeLines(state));
	// New props are folded in during render (React's "derive state from props" update), so the first
	// frame after a change already shows the new rows.
	if (state.tree !== tree || state.leafId !== leafId || state.list.height !== rowCount) {
		dispatch({ type: "sync", tree, leafId, height: rowCount });
	}

	// Outcomes are fresh objects; remembering the last one reported keeps a re-render with new
	// callback identities from reporting it twice.
	const reported = useRef<TreeViewOutcome | null>(null);
	const { outcome } = state;
	useEffect(() => {
		if (outcome === null || outcome === reported.current) return;
		reported.current = outcome;
		switch (outcome.type) {
			case "navigate":
				onNavigate(outcome.entryId, outcome.options);
				break;
			case "label":
				onLabel(outcome.entryId, outcome.label);
				break;
			case "cancel":
				onCancel();
				break;
			case "check-code": {
				const { entryId } = outcome;
				// A failed comparison counts as "the same": Enter then goes on as it did before checkpoints.
				const same: CodeCheck = { kind: "same" };
				void (onCheckCode?.(entryId) ?? Promise.resolve(same)).then(
					(check) => dispatch({ type: "code-checked", entryId, check }),
					() => dispatch({ type: "code-checked", entryId, check: same }),
				);
				break;
			}
			case "restore":
				onRestore?.(outcome.entryId, outcome.mode, outcome.options);
				break;
			case "diff":
				onDiff?.(outcome.entryId);
				break;
			default: {
				const unknown: never = outcome;
				void unknown;
			}
		}
	}, [outcome, onNavigate, onLabel, onCancel, onCheckCode, onRestore, onDiff]);

	const list = useMemo(() => treeListView(state.list), [state.list]);
	return { state, dispatch, list };
}
