import { passesFilter, type TreeFilter } from "../../source/session/entry-summary.js";
import { TREE_ROW_KINDS, type TreeModel } from "../../source/session/summary-tree.js";
import type { FlattenOptions, TreeRow, TreeRowKind } from "./tree-rows.js";

// Bits of a display row's flags.
export const SIDE = 1;
export const ON_PATH = 2;
export const LEAF = 4;
export const FOLDED = 8;
export const STANDS_FOR_LEAF = 16;

/** The rows of `/tree` as the list reads them: a count, and rows made on demand. */
export interface TreeRows {
	readonly model: TreeModel;
	/** Number of rows. */
	readonly count: number;
	/** Index of the leaf's row, else of its deepest shown ancestor, else the last row (0 when empty). */
	readonly initialIndex: number;
	/** True when some row is on the active path. */
	readonly showsPath: boolean;
	/** The row at `index` (undefined outside); the same object each time. */
	rowAt(index: number): TreeRow | undefined;
	/** Position (in the model) of the row at `index`. */
	positionAt(index: number): number | undefined;
	/** Index of the row of the entry at `position` (-1: not shown). */
	indexOfPosition(position: number): number;
	/** Index of the row of entry `id` (-1: not shown). */
	indexOfId(id: string): number;
}

/** Rows `start` to `end` (exclusive) of `rows`, clamped. */
export function rowsBetween(rows: TreeRows, start: number, end: number): TreeRow[] {
	const between: TreeRow[] = [];
	for (let i = Math.max(0, start); i < Math.min(end, rows.count); i++) between.push(rows.rowAt(i)!);
	return between;
}

/** The row of `position` with its depth, flag bits and number of visible children. */
export function makeRow(model: TreeModel, position: number, depth: number, flags: number, childCount: number): TreeRow {
	return new OutlineRow(model, position, depth, flags, childCount);
}

const NO_FOLDS: ReadonlySet<string> = new Set();

/** The connectors of a row: `depth` side branches deep, "├─ " where its own side branch starts. */
function prefixOf(depth: number, side: boolean): string {
	return side ? `${"│  ".repeat(depth - 1)}├─ ` : "│  ".repeat(depth);
}

/** A row made for display from a position of the outline; its text is read when drawn. */
class OutlineRow implements TreeRow {
	readonly id: string;
	readonly depth: number;
	readonly prefix: string;
	readonly kind: TreeRowKind;
	readonly onActivePath: boolean;
	readonly isLeaf: boolean;
	readonly standsForLeaf: boolean;
	readonly label?: string;
	readonly hasChildren: boolean;
	readonly childCount: number;
	readonly folded: boolean;
	readonly #model: TreeModel;
	readonly #position: number;

	constructor(model: TreeModel, position: number, depth: number, flags: number, childCount: number) {
		this.#model = model;
		this.#position = position;
		this.id = model.id(position);
		this.depth = depth;
		this.prefix = prefixOf(depth, (flags & SIDE) !== 0);
		this.kind = model.kind(position);
		this.onActivePath = (flags & ON_PATH) !== 0;
		this.isLeaf = (flags & LEAF) !== 0;
		this.standsForLeaf = (flags & STANDS_FOR_LEAF) !== 0;
		const label = model.label(position);
		if (label !== undefined) this.label = label;
		this.childCount = childCount;
		this.hasChildren = childCount > 0;
		this.folded = (flags & FOLDED) !== 0;
	}

	get text(): string {
		return this.#model.text(this.#position);
	}
}

/**
 * The rows of `/tree` in display order as positions, with each row's depth, flags and number of
 * visible children in typed arrays: what `flattenTree` computes, without an object or a string per
 * row. A row object (connectors, id, label, text) is made only for the rows asked for, so opening the
 * tree of a half-million-entry session costs a loop over integers plus a screenful of rows.
 */
export class TreeOutline implements TreeRows {
	readonly model: TreeModel;
	/** Number of rows. */
	readonly count: number;
	/** Index of the leaf's row, else of its deepest shown ancestor, else the last row (0 when empty). */
	readonly initialIndex: number;
	/** True when some row is on the active path. */
	readonly showsPath: boolean;
	readonly #order: Int32Array;
	readonly #depth: Int32Array;
	readonly #flags: Uint8Array;
	readonly #kids: Int32Array;
	readonly #rows = new Map<number, TreeRow>();

	constructor(model: TreeModel, options: FlattenOptions) {
		this.model = model;
		const laid = layOut(model, options);
		this.count = laid.count;
		this.#order = laid.order;
		this.#depth = laid.depth;
		this.#flags = laid.flags;
		this.#kids = laid.kids;
		this.showsPath = laid.lastOnPath >= 0;
		this.initialIndex =
			laid.leafRow >= 0 ? laid.leafRow : laid.lastOnPath >= 0 ? laid.lastOnPath : Math.max(0, laid.count - 1);
	}

	/** The row at `index` (undefined outside the outline); the same object each time. */
	rowAt(index: number): TreeRow | undefined {
		if (!(index >= 0 && index < this.count)) return undefined;
		let row = this.#rows.get(index);
		if (!row) {
			row = new OutlineRow(
				this.model,
				this.#order[index]!,
				this.#depth[index]!,
				this.#flags[index]!,
				this.#kids[index]!,
			);
			this.#rows.set(index, row);
		}
		return row;
	}

	/** Position (in the model) of the row at `index`. */
	positionAt(index: number): number | undefined {
		return index >= 0 && index < this.count ? this.#order[index] : undefined;
	}

	/** Index of the row of the entry at `position` (-1: not shown). */
	indexOfPosition(position: number): number {
		return this.#order.subarray(0, this.count).indexOf(position);
	}

	/** Index of the row of entry `id` (-1: not shown). */
	indexOfId(id: string): number {
		const position = this.model.positionOf(id);
		return position === undefined ? -1 : this.indexOfPosition(position);
	}
}

interface Laid {
	count: number;
	order: Int32Array;
	depth: Int32Array;
	flags: Uint8Array;
	kids: Int32Array;
	leafRow: number;
	lastOnPath: number;
}

/** Per position, 1 when `options` show the entry (a search reads the texts of those the filter shows). */
function shownMask(model: TreeModel, filter: TreeFilter, needle: string): Uint8Array {
	const size = model.size;
	const shown = new Uint8Array(size);
	if (filter === "labeled") {
		if (model.hasLabels()) for (let p = 0; p < size; p++) shown[p] = model.label(p) === undefined ? 0 : 1;
	} else {
		const byKind = Uint8Array.from(TREE_ROW_KINDS, (kind) => (passesFilter(kind, undefined, filter) ? 1 : 0));
		const codes = model.kindCodes();
		for (let p = 0; p < size; p++) shown[p] = byKind[codes[p]!]!;
	}
	if (needle === "") return shown;
	const labels = model.hasLabels();
	for (let p = 0; p < size; p++) {
		if (shown[p] === 0) continue;
		// Reads the entry's text: in a big session, a search reads every body it has to look at.
		const label = labels ? model.label(p) : undefined;
		const hit = model.text(p).toLowerCase().includes(needle) || (label?.toLowerCase().includes(needle) ?? false);
		if (!hit) shown[p] = 0;
	}
	return shown;
}

/** 1 for every position on the path root → leaf (none when the path does not start at a root). */
function pathMask(model: TreeModel, path: readonly number[]): Uint8Array {
	const onPath = new Uint8Array(model.size);
	if (path.length > 0 && model.roots.includes(path[0]!)) for (const p of path) onPath[p] = 1;
	return onPath;
}

/**
 * `flattenTree` over positions, row for row: depth-first without recursion, the active path down
 * column 0 with side branches hanging off it (git log --graph), hidden entries passing their
 * children up to the nearest shown ancestor. Connectors follow from depth and the side bit: every
 * side branch adds "│  " to the gutter of what hangs under it.
 */
function layOut(model: TreeModel, options: FlattenOptions): Laid {
	const folded = options.folded ?? NO_FOLDS;
	const shown = shownMask(model, options.filter ?? "default", (options.search ?? "").trim().toLowerCase());
	const path = model.pathTo(options.leafId);
	const leafAt = path.length > 0 ? path[path.length - 1]! : -1;
	const onPath = pathMask(model, path);
	const { childStart, childList } = model;

	const size = model.size;
	const order = new Int32Array(size);
	const depthOut = new Int32Array(size);
	const flagsOut = new Uint8Array(size);
	const kidsOut = new Int32Array(size);

	// The rows still to lay out (a stack) and the visible children of the current row (scratch).
	const stackNode = new Int32Array(size + 1);
	const stackDepth = new Int32Array(size + 1);
	const stackSide = new Uint8Array(size + 1);
	let top = 0;
	const kids = new Int32Array(size + 1);
	const pending = new Int32Array(size + 1);

	// The visible children of a run of children: shown ones as they are, hidden ones replaced by
	// their own visible descendants, in depth-first order. Every position is looked at once.
	const collect = (from: number, to: number, list: Int32Array): number => {
		let count = 0;
		for (let i = from; i < to; i++) {
			const child = list[i]!;
			if (shown[child] === 1) {
				kids[count++] = child;
				continue;
			}
			let waiting = 0;
			pending[waiting++] = child;
			while (waiting > 0) {
				const p = pending[--waiting]!;
				if (shown[p] === 1) {
					kids[count++] = p;
					continue;
				}
				for (let k = childStart[p + 1]! - 1; k >= childStart[p]!; k--) pending[waiting++] = childList[k]!;
			}
		}
		return count;
	};

	// The child that carries the line on (on the active path, else the newest) is drawn after its
	// siblings, which hang off it one step right: pushed first, as the stack pops last in first.
	const pushChildren = (count: number, depth: number): void => {
		if (count === 0) return;
		let main = count - 1;
		for (let i = 0; i < count; i++) {
			if (onPath[kids[i]!] === 1) {
				main = i;
				break;
			}
		}
		stackNode[top] = kids[main]!;
		stackDepth[top] = depth;
		stackSide[top++] = 0;
		for (let i = count - 1; i >= 0; i--) {
			if (i === main) continue;
			stackNode[top] = kids[i]!;
			stackDepth[top] = depth + 1;
			stackSide[top++] = SIDE;
		}
	};

	let count = 0;
	let leafRow = -1;
	let lastOnPath = -1;
	const checkFolds = folded.size > 0;
	pushChildren(collect(0, model.roots.length, model.roots), 0);
	while (top > 0) {
		top--;
		const p = stackNode[top]!;
		const depth = stackDepth[top]!;
		let flags = stackSide[top]!;
		const childCount = collect(childStart[p]!, childStart[p + 1]!, childList);
		const isFolded = checkFolds && childCount > 0 && folded.has(model.id(p));
		if (onPath[p] === 1) {
			flags |= ON_PATH;
			lastOnPath = count;
		}
		if (p === leafAt) {
			flags |= LEAF;
			leafRow = count;
		}
		if (isFolded) flags |= FOLDED;
		order[count] = p;
		depthOut[count] = depth;
		flagsOut[count] = flags;
		kidsOut[count] = childCount;
		count++;
		if (!isFolded) pushChildren(childCount, depth);
	}
	if (leafRow < 0 && lastOnPath >= 0 && (flagsOut[lastOnPath]! & FOLDED) === 0)
		flagsOut[lastOnPath]! |= STANDS_FOR_LEAF;
	return { count, order, depth: depthOut, flags: flagsOut, kids: kidsOut, leafRow, lastOnPath };
}
