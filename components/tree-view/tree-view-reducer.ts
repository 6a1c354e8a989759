import type { KeyAction } from "../../controllers/keymap.js";
import { nextFilter, type TreeFilter } from "../../source/session/entry-summary.js";
import type { SummaryTreeNode } from "../../source/session/summary-tree.js";
import { cleanTyped, editFilter, listMoveFor } from "../list/list-keys.js";
import { initialListState, type ListState, listReducer } from "../list/list-state.js";
import { flattenTree, initialRowIndex, type TreeRow } from "./tree-rows.js";

/** What the keys currently drive: the list, the summary choice, or a one-line text field. */
export type TreeViewMode = "browse" | "summary-choice" | "instructions" | "label";

/** How to navigate: whether to summarize the branch being left, and with what instructions. */
export interface NavigateOptions {
	readonly summarize: boolean;
	readonly customInstructions?: string;
}

/** A decision the owner must act on; a fresh object per decision, so each is reported once. */
export type TreeViewOutcome =
	| { readonly type: "navigate"; readonly entryId: string; readonly options: NavigateOptions }
	| { readonly type: "label"; readonly entryId: string; readonly label: string | undefined }
	| { readonly type: "cancel" };

/** The choices offered when navigating leaves the current branch, in order. */
export const SUMMARY_CHOICES = ["No summary", "Summarize", "Summarize with instructions…"] as const;

/** Everything the tree view shows, including the window of rows. */
export interface TreeViewState {
	readonly tree: readonly SummaryTreeNode[];
	readonly leafId: string | null;
	readonly filter: TreeFilter;
	readonly search: string;
	readonly folded: ReadonlySet<string>;
	/**
	 * The rows (derived from tree, leaf, filter, search and folds; only recomputed when one of them
	 * changes), the selection and the window, as tall as the view leaves for rows.
	 */
	readonly list: ListState<TreeRow>;
	readonly mode: TreeViewMode;
	/** Focused entry of `SUMMARY_CHOICES`. */
	readonly choice: number;
	/** The instructions or label being typed. */
	readonly text: string;
	/** The entry the choice, instructions or label are for. */
	readonly targetId: string | null;
	readonly outcome: TreeViewOutcome | null;
}

/** Inputs of the tree view the reducer cannot derive. */
export interface TreeViewSource {
	readonly tree: readonly SummaryTreeNode[];
	readonly leafId: string | null;
	readonly height: number;
}

/** A key press (as a keymap action plus the typed text) or new props. */
export type TreeViewAction =
	| { readonly type: "key"; readonly action: KeyAction | undefined; readonly input: string }
	| ({ readonly type: "sync" } & TreeViewSource);

/** Window heights are whole rows, at least one. */
export function windowHeight(height: number): number {
	return Math.max(1, Math.floor(height));
}

/** The state with `list`; the same object when the list did not change. */
function withList(state: TreeViewState, list: ListState<TreeRow>): TreeViewState {
	return list === state.list ? state : { ...state, list };
}

type RowInputs = Partial<Pick<TreeViewState, "tree" | "leafId" | "filter" | "search" | "folded">>;

/** Re-flattens after a change of the row inputs; the selection follows its entry when it is still shown. */
function withRows(state: TreeViewState, changes: RowInputs): TreeViewState {
	const next = { ...state, ...changes };
	const rows = flattenTree(next.tree, {
		leafId: next.leafId,
		filter: next.filter,
		search: next.search,
		folded: next.folded,
	});
	// The selection follows its entry; when that is hidden, back to the leaf (if its path shows).
	const fallback = rows.some((row) => row.onActivePath) ? initialRowIndex(rows) : state.list.selected;
	return { ...next, list: listReducer(state.list, { type: "reload", items: rows, keyOf: (row) => row.id, fallback }) };
}

/** What a tree view opens with: its source, and optionally the entry to put the selection on. */
export interface TreeViewInit extends TreeViewSource {
	readonly selectedId?: string | undefined;
}

/** Where the selection starts: on `selectedId` (under the "all" filter if the default one hides it), else the leaf. */
function initialSelection(source: TreeViewInit): { filter: TreeFilter; rows: TreeRow[]; selected: number } {
	const rows = flattenTree(source.tree, { leafId: source.leafId });
	const fallback = { filter: "default" as const, rows, selected: initialRowIndex(rows) };
	const id = source.selectedId;
	if (id === undefined) return fallback;
	const index = rows.findIndex((row) => row.id === id);
	if (index >= 0) return { ...fallback, selected: index };
	const all = flattenTree(source.tree, { leafId: source.leafId, filter: "all" });
	const inAll = all.findIndex((row) => row.id === id);
	return inAll >= 0 ? { filter: "all", rows: all, selected: inAll } : fallback;
}

/** The state a tree view opens with: default filter, selection on the current leaf (or on `selectedId`). */
export function initTreeViewState(source: TreeViewInit): TreeViewState {
	const { filter, rows, selected } = initialSelection(source);
	return {
		tree: source.tree,
		leafId: source.leafId,
		filter,
		search: "",
		folded: new Set(),
		list: initialListState(rows, windowHeight(source.height), selected),
		mode: "browse",
		choice: 0,
		text: "",
		targetId: null,
		outcome: null,
	};
}

function dropLastChar(text: string): string {
	return editFilter(text, { type: "erase" });
}

function toggleFold(state: TreeViewState, fold: boolean): TreeViewState {
	const row = state.list.items[state.list.selected];
	if (!row || (fold ? !row.hasChildren || row.folded : !row.folded)) return state;
	const folded = new Set(state.folded);
	if (fold) folded.add(row.id);
	else folded.delete(row.id);
	return withRows(state, { folded });
}

function navigate(state: TreeViewState, entryId: string, options: NavigateOptions): TreeViewState {
	return { ...state, mode: "browse", targetId: null, text: "", outcome: { type: "navigate", entryId, options } };
}

function submitRow(state: TreeViewState): TreeViewState {
	const row = state.list.items[state.list.selected];
	if (!row || row.id === state.leafId) return state;
	// Moving along the active path abandons nothing, so there is nothing to summarize.
	if (row.onActivePath) return navigate(state, row.id, { summarize: false });
	return { ...state, mode: "summary-choice", choice: 0, targetId: row.id };
}

function browseKey(state: TreeViewState, action: KeyAction | undefined, input: string): TreeViewState {
	const move = listMoveFor(action);
	if (move) return withList(state, listReducer(state.list, move));
	switch (action) {
		case "tab":
			return withRows(state, { filter: nextFilter(state.filter) });
		case "left":
			return toggleFold(state, true);
		case "right":
			return toggleFold(state, false);
		case "submit":
			return submitRow(state);
		case "cancel":
			return state.search !== "" ? withRows(state, { search: "" }) : { ...state, outcome: { type: "cancel" } };
		case "backspace":
		case "delete":
			return state.search !== "" ? withRows(state, { search: dropLastChar(state.search) }) : state;
		case "killLine":
			return state.search !== "" ? withRows(state, { search: "" }) : state;
		case "editLabel": {
			// `l` edits the label only before a search starts; after that it is just a letter.
			const row = state.list.items[state.list.selected];
			if (state.search !== "") return withRows(state, { search: state.search + input });
			return row ? { ...state, mode: "label", targetId: row.id, text: row.label ?? "" } : state;
		}
		case undefined: {
			const text = cleanTyped(input);
			return text === "" ? state : withRows(state, { search: state.search + text });
		}
		default:
			return state;
	}
}

function choiceKey(state: TreeViewState, action: KeyAction | undefined): TreeViewState {
	const targetId = state.targetId;
	if (targetId === null) return { ...state, mode: "browse" };
	const move = listMoveFor(action);
	if (move) {
		const choices = initialListState(SUMMARY_CHOICES, SUMMARY_CHOICES.length, state.choice);
		return { ...state, choice: listReducer(choices, move).selected };
	}
	switch (action) {
		case "submit":
			if (state.choice === 0) return navigate(state, targetId, { summarize: false });
			if (state.choice === 1) return navigate(state, targetId, { summarize: true });
			return { ...state, mode: "instructions", text: "" };
		case "cancel":
			return { ...state, mode: "browse", targetId: null };
		default:
			return state;
	}
}

function submitText(state: TreeViewState, targetId: string): TreeViewState {
	const text = state.text.trim();
	if (state.mode === "instructions") {
		return navigate(state, targetId, text === "" ? { summarize: true } : { summarize: true, customInstructions: text });
	}
	// An empty label clears it.
	const label = text === "" ? undefined : text;
	return { ...state, mode: "browse", targetId: null, text: "", outcome: { type: "label", entryId: targetId, label } };
}

function textKey(state: TreeViewState, action: KeyAction | undefined, input: string): TreeViewState {
	const targetId = state.targetId;
	if (targetId === null) return { ...state, mode: "browse" };
	switch (action) {
		case "submit":
			return submitText(state, targetId);
		case "cancel":
			return state.mode === "instructions"
				? { ...state, mode: "summary-choice", text: "" }
				: { ...state, mode: "browse", targetId: null, text: "" };
		case "backspace":
		case "delete":
			return { ...state, text: dropLastChar(state.text) };
		case "killLine":
			return { ...state, text: "" };
		case undefined:
		case "editLabel": {
			const text = cleanTyped(input);
			return text === "" ? state : { ...state, text: state.text + text };
		}
		default:
			return state;
	}
}

function sync(state: TreeViewState, source: TreeViewSource): TreeViewState {
	const changed = source.tree !== state.tree || source.leafId !== state.leafId;
	const next = changed ? withRows(state, { tree: source.tree, leafId: source.leafId }) : state;
	return withList(next, listReducer(next.list, { type: "resize", height: source.height }));
}

/** The tree view's state machine: key presses per mode, and props arriving. Pure. */
export function treeViewReducer(state: TreeViewState, action: TreeViewAction): TreeViewState {
	if (action.type === "sync") return sync(state, action);
	switch (state.mode) {
		case "browse":
			return browseKey(state, action.action, action.input);
		case "summary-choice":
			return choiceKey(state, action.action);
		case "instructions":
		case "label":
			return textKey(state, action.action, action.input);
		default: {
			const unknown: never = state.mode;
			return unknown;
		}
	}
}
