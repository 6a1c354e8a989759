import { passesFilter, type TreeFilter } from "../../source/session/entry-summary.js";
import { TREE_ROW_KINDS, type TreeModel } from "../../source/session/summary-tree.js";
import { LEAF, makeRow, ON_PATH, SIDE, STANDS_FOR_LEAF, type TreeRows } from "./tree-outline.js";
import type { TreeRow } from "./tree-rows.js";

/** Steps from a known row within which a far row is walked to rather than found from the top. */
const WALK = 2000;

/**
 * The rows of `/tree` laid out around what is looked at: `flattenTree`'s rows, row for row, but only
 * the ones asked for are found, each from a neighbour (its previous or next row in display order),
 * with its connectors from its own side branches. What it knows of the whole tree is a few loops
 * over typed arrays: which entries the filter shows, the active path, and how many shown entries
 * each subtree holds (the ▲/▼ counts and any row's index follow from those). Opening the tree of a
 * half-million-entry session on its leaf costs those loops plus a screenful of rows.
 *
 * Only for a filter: a search (which reads every text) and folds use the full `TreeOutline`.
 */
export class WindowedOutline implements TreeRows {
	readonly model: TreeModel;
	readonly count: number;
	readonly initialIndex: number;
	readonly showsPath: boolean;
	readonly #shown: Uint8Array;
	readonly #onPath: Uint8Array;
	readonly #below: Int32Array;
	readonly #leafAt: number;
	/** The deepest shown entry of the path when the leaf is hidden (it stands for the leaf), else -1. */
	readonly #standIn: number;
	readonly #kids = new Map<number, Int32Array>();
	readonly #depths = new Map<number, number>();
	/** Rows found so far: index → position, both ways. */
	readonly #atIndex = new Map<number, number>();
	readonly #indexOf = new Map<number, number>();
	readonly #rows = new Map<number, TreeRow>();
	/** The index found last. */
	#last = -1;

	private constructor(model: TreeModel, shown: Uint8Array, below: Int32Array, leafId: string | null) {
		this.model = model;
		this.#shown = shown;
		this.#below = below;
		let count = 0;
		for (const root of model.roots) count += below[root]!;
		this.count = count;
		const { onPath, leafAt } = markPath(model, leafId);
		this.#onPath = onPath;
		this.#leafAt = leafAt;
		// The deepest shown entry of the path: the leaf's row, or its stand-in.
		let deepest = leafAt;
		while (deepest >= 0 && shown[deepest] === 0) deepest = model.parentOf(deepest);
		this.#standIn = deepest >= 0 && deepest !== leafAt ? deepest : -1;
		this.showsPath = deepest >= 0;
		if (deepest >= 0) {
			// The path's rows end the display (each is the last child drawn), so a path row's
			// index is what its subtree leaves of the total.
			const index = count - below[deepest]!;
			this.#remember(index, deepest);
			this.initialIndex = index;
		} else this.initialIndex = Math.max(0, count - 1);
	}

	/** The windowed rows of `model` under `filter`; undefined when a parent comes after its child (a damaged file). */
	static create(model: TreeModel, filter: TreeFilter, leafId: string | null): WindowedOutline | undefined {
		if (!model.parentsFirst) return undefined;
		const { shown, below } = filterCounts(model, filter);
		return new WindowedOutline(model, shown, below, leafId);
	}

	rowAt(index: number): TreeRow | undefined {
		if (!(index >= 0 && index < this.count)) return undefined;
		let row = this.#rows.get(index);
		if (!row) {
			const p = this.#positionAt(index);
			const kids = this.#kidsOf(p).length;
			let flags = this.#isMain(p) ? 0 : SIDE;
			if (this.#onPath[p] === 1) flags |= ON_PATH;
			if (p === this.#leafAt) flags |= LEAF;
			if (p === this.#standIn) flags |= STANDS_FOR_LEAF;
			row = makeRow(this.model, p, this.#depthOf(p), flags, kids);
			this.#rows.set(index, row);
		}
		return row;
	}

	positionAt(index: number): number | undefined {
		return index >= 0 && index < this.count ? this.#positionAt(index) : undefined;
	}

	indexOfPosition(position: number): number {
		if (!(position >= 0 && position < this.model.size) || this.#shown[position] === 0) return -1;
		const known = this.#indexOf.get(position);
		if (known !== undefined) return known;
		const index = this.#indexFromTop(position);
		if (index >= 0) this.#remember(index, position);
		return index;
	}

	indexOfId(id: string): number {
		const position = this.model.positionOf(id);
		return position === undefined ? -1 : this.indexOfPosition(position);
	}

	#remember(index: number, position: number): void {
		this.#last = index;
		this.#atIndex.set(index, position);
		this.#indexOf.set(position, index);
	}

	/** The nearest shown proper ancestor (-1: the top level). */
	#shownParent(p: number): number {
		let a = this.model.parentOf(p);
		while (a >= 0 && this.#shown[a] === 0) a = this.model.parentOf(a);
		return a;
	}

	/** The visible children of `a` (-1: the top level) in display order: side branches first, the line's continuation last. */
	#kidsOf(a: number): Int32Array {
		let kids = this.#kids.get(a);
		if (kids) return kids;
		const { firstChild, nextSibling, roots } = this.model;
		const found: number[] = [];
		// Children go on the stack last first, so they come off it in order.
		const pending: number[] = [];
		const pushChildren = (p: number): void => {
			const from = pending.length;
			for (let c = firstChild[p]!; c >= 0; c = nextSibling[c]!) pending.push(c);
			for (let lo = from, hi = pending.length - 1; lo < hi; lo++, hi--) {
				const swap = pending[lo]!;
				pending[lo] = pending[hi]!;
				pending[hi] = swap;
			}
		};
		if (a < 0) for (let i = roots.length - 1; i >= 0; i--) pending.push(roots[i]!);
		else pushChildren(a);
		while (pending.length > 0) {
			const p = pending.pop()!;
			if (this.#shown[p] === 1) found.push(p);
			else pushChildren(p);
		}
		let main = found.length - 1;
		for (let i = 0; i < found.length; i++) {
			if (this.#onPath[found[i]!] === 1) {
				main = i;
				break;
			}
		}
		kids = new Int32Array(found.length);
		let fill = 0;
		for (let i = 0; i < found.length; i++) if (i !== main) kids[fill++] = found[i]!;
		if (main >= 0) kids[fill] = found[main]!;
		this.#kids.set(a, kids);
		return kids;
	}

	/** True when `p` carries its parent's line on (drawn last, in the parent's column). */
	#isMain(p: number): boolean {
		if (this.#onPath[p] === 1) return true;
		const kids = this.#kidsOf(this.#shownParent(p));
		return kids[kids.length - 1] === p;
	}

	/** Side branches between `p` and the top: its row's depth. */
	#depthOf(p: number): number {
		const chain: number[] = [];
		let depth = 0;
		for (let a = p; a >= 0; a = this.#shownParent(a)) {
			// The path runs down column 0.
			if (this.#onPath[a] === 1) break;
			const known = this.#depths.get(a);
			if (known !== undefined) {
				depth = known;
				break;
			}
			chain.push(a);
		}
		for (let i = chain.length - 1; i >= 0; i--) {
			const a = chain[i]!;
			if (!this.#isMain(a)) depth++;
			this.#depths.set(a, depth);
		}
		return depth;
	}

	/** The row after `p`'s in display order (-1: none). */
	#next(p: number): number {
		const kids = this.#kidsOf(p);
		if (kids.length > 0) return kids[0]!;
		for (let c = p; c >= 0; ) {
			const a = this.#shownParent(c);
			const siblings = this.#kidsOf(a);
			const at = siblings.indexOf(c);
			if (at + 1 < siblings.length) return siblings[at + 1]!;
			c = a;
		}
		return -1;
	}

	/** The row before `p`'s in display order (-1: none). */
	#previous(p: number): number {
		const a = this.#shownParent(p);
		const siblings = this.#kidsOf(a);
		const at = siblings.indexOf(p);
		if (at <= 0) return a;
		return this.#lastRowUnder(siblings[at - 1]!);
	}

	/** The last row of `p`'s subtree (its last child's last row, and so on). */
	#lastRowUnder(p: number): number {
		let last = p;
		for (let kids = this.#kidsOf(last); kids.length > 0; kids = this.#kidsOf(last)) last = kids[kids.length - 1]!;
		return last;
	}

	/** The position of the row at `index` (within the outline): walked to from a row found before, or found from the top. */
	#positionAt(index: number): number {
		const known = this.#atIndex.get(index);
		if (known !== undefined) return known;
		// The window moves a row or a page at a time: the last row found is usually next to it.
		let from = this.#atIndex.has(index - 1) ? index - 1 : this.#atIndex.has(index + 1) ? index + 1 : this.#last;
		if (from < 0 || Math.abs(from - index) > Math.abs(this.initialIndex - index)) from = this.initialIndex;
		if (!this.#atIndex.has(from) || Math.abs(from - index) > WALK) {
			const p = this.#positionFromTop(index);
			this.#remember(index, p);
			return p;
		}
		let p = this.#atIndex.get(from)!;
		const step = index > from ? 1 : -1;
		for (let i = from; i !== index; ) {
			p = step > 0 ? this.#next(p) : this.#previous(p);
			i += step;
			this.#remember(i, p);
		}
		return p;
	}

	/** The row at `index` found from the top (or from the path's last row), through subtree counts. */
	#positionFromTop(index: number): number {
		let a = -1;
		let rest = index;
		const deepest = this.#standIn >= 0 ? this.#standIn : this.#leafAt;
		// The path's last shown row: everything after it is its subtree, no need to go down the path.
		if (this.showsPath && this.#shown[deepest] === 1 && index >= this.initialIndex) {
			if (index === this.initialIndex) return deepest;
			a = deepest;
			rest = index - this.initialIndex - 1;
		}
		for (;;) {
			// `rest` rows before the wanted one among a's children's rows.
			let inside = -1;
			for (const kid of this.#kidsOf(a)) {
				const rows = this.#below[kid]!;
				if (rest < rows) {
					inside = kid;
					break;
				}
				rest -= rows;
			}
			if (inside < 0) throw new Error(`tree row ${index} is not among ${this.count}`);
			if (rest === 0) return inside;
			a = inside;
			rest -= 1;
		}
	}

	/** The index of shown `p`'s row: from its nearest path ancestor's (or the top), adding what comes before it on the way down. */
	#indexFromTop(p: number): number {
		let before = 0;
		let c = p;
		for (;;) {
			if (this.#onPath[c] === 1) return this.count - this.#below[c]! + before;
			const known = this.#indexOf.get(c);
			if (known !== undefined) return known + before;
			const a = this.#shownParent(c);
			// A lone child follows its parent; otherwise its elder siblings' rows come first.
			if (a >= 0 && this.#below[a] === 1 + this.#below[c]!) {
				before += 1;
				c = a;
				continue;
			}
			for (const kid of this.#kidsOf(a)) {
				if (kid === c) break;
				before += this.#below[kid]!;
			}
			if (a < 0) return before;
			before += 1;
			c = a;
		}
	}
}

/** 1 for each labeled position (the "labeled" filter). */
function labeledMask(model: TreeModel): Uint8Array {
	const size = model.size;
	const shown = new Uint8Array(size);
	if (model.hasLabels()) for (let p = 0; p < size; p++) shown[p] = model.label(p) === undefined ? 0 : 1;
	return shown;
}

/** Per position, the shown entries of its subtree (itself included), summed children first: parents come first. */
function shownBelow(model: TreeModel, shown: Uint8Array): Int32Array {
	const { parents } = model;
	const below = new Int32Array(shown);
	for (let p = below.length - 1; p >= 0; p--) {
		const parent = parents[p]!;
		if (parent >= 0) below[parent]! += below[p]!;
	}
	return below;
}

/** What a filter by kind shows and `shownBelow` of it, in one pass from the last entry back (parents come first). */
function kindCounts(model: TreeModel, filter: TreeFilter): { shown: Uint8Array; below: Int32Array } {
	const byKind = Uint8Array.from(TREE_ROW_KINDS, (kind) => (passesFilter(kind, undefined, filter) ? 1 : 0));
	const codes = model.kindCodes();
	const { parents, size } = model;
	const shown = new Uint8Array(size);
	const below = new Int32Array(size);
	for (let p = size - 1; p >= 0; p--) {
		const own = byKind[codes[p]!]!;
		shown[p] = own;
		const total = below[p]! + own;
		below[p] = total;
		const parent = parents[p]!;
		if (parent >= 0) below[parent]! += total;
	}
	return { shown, below };
}

const counted = new WeakMap<TreeModel, Map<TreeFilter, { shown: Uint8Array; below: Int32Array }>>();

/** What a filter shows of a model and the counts under it, kept per model: a new leaf or a Tab back reuses them. */
function filterCounts(model: TreeModel, filter: TreeFilter): { shown: Uint8Array; below: Int32Array } {
	let byFilter = counted.get(model);
	if (!byFilter) {
		byFilter = new Map();
		counted.set(model, byFilter);
	}
	let counts = byFilter.get(filter);
	if (!counts) {
		if (filter === "labeled") {
			const shown = labeledMask(model);
			counts = { shown, below: shownBelow(model, shown) };
		} else counts = kindCounts(model, filter);
		byFilter.set(filter, counts);
	}
	return counts;
}

/** The path root → leaf as a mark per position, walked up from the leaf (none when the walk does not end at a root). */
function markPath(model: TreeModel, leafId: string | null): { onPath: Uint8Array; leafAt: number } {
	const onPath = new Uint8Array(model.size);
	const leafAt = leafId === null ? undefined : model.positionOf(leafId);
	if (leafAt === undefined) return { onPath, leafAt: -1 };
	// Parents come before their children here, so the walk up ends at a root.
	const { parents } = model;
	for (let p = leafAt; p >= 0; p = parents[p]!) onPath[p] = 1;
	return { onPath, leafAt };
}
