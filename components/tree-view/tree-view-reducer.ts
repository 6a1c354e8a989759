import type { KeyAction } from "../../controllers/keymap.js";
import type { CodeCheck } from "../../source/checkpoints/session-rewind.js";
import { nextFilter, type TreeFilter } from "../../source/session/entry-summary.js";
import { type SummaryTreeNode, treeModelOf } from "../../source/session/summary-tree.js";
import { cleanTyped, editFilter, listMoveFor } from "../list/list-keys.js";
import { initialListState, listReducer } from "../list/list-state.js";
import { initialTreeList, selectedRow, type TreeListState, treeListReducer } from "./tree-list.js";
import { TreeOutline, type TreeRows } from "./tree-outline.js";
import { codeChecked, decide, restoreChoiceKey } from "./tree-restore-choice.js";
import type { FlattenOptions } from "./tree-rows.js";
import { WindowedOutline } from "./tree-window.js";

/**
 * What the keys currently drive: the list, the wait for the files' comparison, the restore
 * choice, the summary choice, or a one-line text field.
 */
export type TreeViewMode = "browse" | "checking" | "restore-choice" | "summary-choice" | "instructions" | "label";

export type { CodeCheck };

/** What restoring the code does: with the conversation, or the files alone. */
export type CodeRestore = "both" | "code";

/** How to navigate: whether to summarize the branch being left, and with what instructions. */
export interface NavigateOptions {
	readonly summarize: boolean;
	readonly customInstructions?: string;
}

/** A decision the owner must act on; a fresh object per decision, so each is reported once. */
export type TreeViewOutcome =
	| { readonly type: "navigate"; readonly entryId: string; readonly options: NavigateOptions }
	| { readonly type: "label"; readonly entryId: string; readonly label: string | undefined }
	/** Compare the entry's files with the working tree, then dispatch `code-checked`. */
	| { readonly type: "check-code"; readonly entryId: string }
	/** Put the entry's files back (and, for "both", move the conversation there as `navigate` would). */
	| {
			readonly type: "restore";
			readonly entryId: string;
			readonly mode: CodeRestore;
			readonly options: NavigateOptions;
	  }
	/** Show the diff from the entry's files to the working tree. */
	| { readonly type: "diff"; readonly entryId: string }
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
	readonly list: TreeListState;
	readonly mode: TreeViewMode;
	/** Focused entry of `SUMMARY_CHOICES` or `RESTORE_CHOICES`. */
	readonly choice: number;
	/** Enter asks the owner to compare the entry's files first (false: Enter navigates as before checkpoints). */
	readonly checksCode: boolean;
	/** The target is off the active path: moving the conversation there leaves the current branch. */
	readonly leaving: boolean;
	/** Files that differ at the target (0: not compared, or the same): the restore choice was offered. */
	readonly codeFiles: number;
	/** The conversation move being chosen also restores the target's files. */
	readonly restoreCode: boolean;
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

/** A key press (as a keymap action plus the typed text), new props, or the answer to `check-code`. */
export type TreeViewAction =
	| { readonly type: "key"; readonly action: KeyAction | undefined; readonly input: string }
	| ({ readonly type: "sync" } & TreeViewSource)
	| { readonly type: "code-checked"; readonly entryId: string; readonly check: CodeCheck };

/** Window heights are whole rows, at least one. */
export function windowHeight(height: number): number {
	return Math.max(1, Math.floor(height));
}

/** The state with `list`; the same object when the list did not change. */
function withList(state: TreeViewState, list: TreeListState): TreeViewState {
	return list === state.list ? state : { ...state, list };
}

type RowInputs = Partial<Pick<TreeViewState, "tree" | "leafId" | "filter" | "search" | "folded">>;

/** Re-flattens after a change of the row inputs; the selection follows its entry when it is still shown. */
function withRows(state: TreeViewState, changes: RowInputs): TreeViewState {
	const next = { ...state, ...changes };
	const rows = treeRows(next.tree, {
		leafId: next.leafId,
		filter: next.filter,
		search: next.search,
		folded: next.folded,
	});
	// The selection follows its entry; when that is hidden, back to the leaf (if its path shows).
	const fallback = rows.showsPath ? rows.initialIndex : state.list.selected;
	return { ...next, list: treeListReducer(state.list, { type: "reload", rows, fallback }) };
}

/**
 * The rows of `tree` as `options` show them: laid out around what is drawn, unless a search (which
 * reads every text) or a fold asks for the whole layout.
 */
export function treeRows(tree: readonly SummaryTreeNode[], options: FlattenOptions): TreeRows {
	const model = treeModelOf(tree);
	const whole = (options.search ?? "").trim() !== "" || (options.folded?.size ?? 0) > 0;
	const windowed = whole ? undefined : WindowedOutline.create(model, options.filter ?? "default", options.leafId);
	return windowed ?? new TreeOutline(model, options);
}

/** What a tree view opens with: its source, and optionally the entry to put the selection on. */
export interface TreeViewInit extends TreeViewSource {
	readonly selectedId?: string | undefined;
	/** Enter compares the entry's files with the working tree first (the owner answers `check-code`). */
	readonly checksCode?: boolean;
}

/** Where the selection starts: on `selectedId` (under the "all" filter if the default one hides it), else the leaf. */
function initialSelection(source: TreeViewInit): { filter: TreeFilter; rows: TreeRows; selected: number } {
	const rows = treeRows(source.tree, { leafId: source.leafId });
	const fallback = { filter: "default" as const, rows, selected: rows.initialIndex };
	const id = source.selectedId;
	if (id === undefined) return fallback;
	const index = rows.indexOfId(id);
	if (index >= 0) return { ...fallback, selected: index };
	const all = treeRows(source.tree, { leafId: source.leafId, filter: "all" });
	const inAll = all.indexOfId(id);
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
		list: initialTreeList(rows, windowHeight(source.height), selected),
		mode: "browse",
		choice: 0,
		checksCode: source.checksCode ?? false,
		leaving: false,
		codeFiles: 0,
		restoreCode: false,
		text: "",
		targetId: null,
		outcome: null,
	};
}

function dropLastChar(text: string): string {
	return editFilter(text, { type: "erase" });
}

function toggleFold(state: TreeViewState, fold: boolean): TreeViewState {
	const row = selectedRow(state.list);
	if (!row || (fold ? !row.hasChildren || row.folded : !row.folded)) return state;
	const folded = new Set(state.folded);
	if (fold) folded.add(row.id);
	else folded.delete(row.id);
	return withRows(state, { folded });
}

function submitRow(state: TreeViewState): TreeViewState {
	const row = selectedRow(state.list);
	if (!row || row.id === state.leafId) return state;
	const target = { targetId: row.id, leaving: !row.onActivePath, codeFiles: 0, restoreCode: false };
	if (state.checksCode)
		return { ...state, ...target, mode: "checking", outcome: { type: "check-code", entryId: row.id } };
	// Moving along the active path abandons nothing, so there is nothing to summarize.
	if (row.onActivePath) return decide({ ...state, ...target }, row.id, { summarize: false });
	return { ...state, ...target, mode: "summary-choice", choice: 0 };
}

function browseKey(state: TreeViewState, action: KeyAction | undefined, input: string): TreeViewState {
	const move = listMoveFor(action);
	if (move) return withList(state, treeListReducer(state.list, move));
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
			const row = selectedRow(state.list);
			if (state.search !== "") return withRows(state, { search: state.search + input });
			return row ? { ...state, mode: "label", targetId: row.id, text: row.label ?? "" } : state;
		}
		case "showDiff": {
			// `d` likewise: the diff before a search starts, a letter after.
			const row = selectedRow(state.list);
			if (state.search !== "") return withRows(state, { search: state.search + input });
			return row ? { ...state, outcome: { type: "diff", entryId: row.id } } : state;
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
			if (state.choice === 0) return decide(state, targetId, { summarize: false });
			if (state.choice === 1) return decide(state, targetId, { summarize: true });
			return { ...state, mode: "instructions", text: "" };
		case "cancel":
			// Back to the restore choice when that came first.
			return state.codeFiles > 0
				? { ...state, mode: "restore-choice", choice: state.restoreCode ? 0 : 1 }
				: { ...state, mode: "browse", targetId: null };
		default:
			return state;
	}
}

function submitText(state: TreeViewState, targetId: string): TreeViewState {
	const text = state.text.trim();
	if (state.mode === "instructions") {
		return decide(state, targetId, text === "" ? { summarize: true } : { summarize: true, customInstructions: text });
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
		case "editLabel":
		case "showDiff": {
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
	return withList(next, treeListReducer(next.list, { type: "resize", height: source.height }));
}

/** The tree view's state machine: key presses per mode, and props arriving. Pure. */
export function treeViewReducer(state: TreeViewState, action: TreeViewAction): TreeViewState {
	if (action.type === "sync") return sync(state, action);
	if (action.type === "code-checked") return codeChecked(state, action.entryId, action.check);
	switch (state.mode) {
		case "browse":
			return browseKey(state, action.action, action.input);
		case "checking":
			// Only Escape: back to the list (the comparison's late answer is then ignored).
			return action.action === "cancel" ? { ...state, mode: "browse", targetId: null } : state;
		case "restore-choice":
			return restoreChoiceKey(state, action.action);
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
