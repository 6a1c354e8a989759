import { type EntrySummary, summarizeEntry, type TreeRowKind } from "./entry-summary.js";
import { type EntryTable, NO_POSITION } from "./entry-table.js";
import { type EntrySlot, isLazy, residentEntry } from "./lazy-entry.js";
import { kindCode, modelOfNodes, type TreeModel } from "./tree-model.js";
import type { StoredEntry } from "./types.js";

export { TREE_ROW_KINDS, type TreeModel } from "./tree-model.js";

/**
 * A node of the tree as `/tree` draws it: the entry's kind at once, its one-line text when first
 * read. In a big session that text is the one thing read from disk, and only for rows drawn or searched.
 */
export interface SummaryTreeNode {
	readonly id: string;
	readonly kind: TreeRowKind;
	readonly text: string;
	readonly children: readonly SummaryTreeNode[];
	readonly label?: string;
}

/** How a tree built by `buildSummaryTree` finds an entry's position (undefined: not in it). */
export type PositionOf = (id: string) => number | undefined;

const tableKinds = new WeakMap<EntryTable, Uint8Array>();

/**
 * The tree of a session's entry table by positions: children as one array of positions per parent
 * (two passes over the parent column), kinds from the skeleton, and a node object only for the
 * entries someone asks about (`/tree` of half a million entries draws a screenful).
 */
class TableTreeModel implements TreeModel {
	readonly size: number;
	readonly roots: Int32Array;
	readonly firstChild: Int32Array;
	readonly nextSibling: Int32Array;
	readonly parents: Int32Array;
	readonly parentsFirst: boolean;
	#runs: { start: Int32Array; list: Int32Array } | undefined;
	readonly #table: EntryTable;
	readonly #labels: ReadonlyMap<string, string>;
	readonly #read: (slot: EntrySlot) => StoredEntry;
	readonly #positionOf: PositionOf;
	/** The nodes made so far (a few screenfuls, not one per entry). */
	readonly #nodes = new Map<number, SummaryNode>();
	#kindCodes: Uint8Array | undefined;

	constructor(
		table: EntryTable,
		labels: ReadonlyMap<string, string>,
		read: (slot: EntrySlot) => StoredEntry,
		positionOf: PositionOf,
	) {
		this.#table = table;
		this.#labels = labels;
		this.#read = read;
		this.#positionOf = positionOf;
		const size = table.size;
		this.size = size;
		// Children in insertion order as lists, in one pass from the last entry back (each is put in
		// front of its parent's list). The table's own parent column is used as it is (half a million
		// entries are not copied), unless a damaged file gave an entry itself as parent: then a copy
		// says "root" for it.
		let parents = table.parentPositions();
		let copied = false;
		const first = new Int32Array(size).fill(-1);
		const next = new Int32Array(size);
		const roots: number[] = [];
		let parentsFirst = true;
		for (let i = size - 1; i >= 0; i--) {
			const parent = parents[i]!;
			if (parent >= 0 && parent !== i && parent < size) {
				next[i] = first[parent]!;
				first[parent] = i;
				if (parent > i) parentsFirst = false;
			} else {
				next[i] = -1;
				roots.push(i);
				if (parent !== NO_POSITION) {
					if (!copied) parents = parents.slice();
					copied = true;
					parents[i] = NO_POSITION;
				}
			}
		}
		this.parents = parents;
		this.parentsFirst = parentsFirst;
		this.roots = Int32Array.from(roots.reverse());
		this.firstChild = first;
		this.nextSibling = next;
	}

	/** The children as runs of one array (the full layout of a search or folds walks them), made when first asked for. */
	get childStart(): Int32Array {
		return this.#childRuns().start;
	}

	get childList(): Int32Array {
		return this.#childRuns().list;
	}

	#childRuns(): { start: Int32Array; list: Int32Array } {
		if (this.#runs) return this.#runs;
		const { size, parents } = this;
		const start = new Int32Array(size + 1);
		for (let i = 0; i < size; i++) {
			const parent = parents[i]!;
			if (parent >= 0) start[parent + 1]!++;
		}
		for (let i = 0; i < size; i++) start[i + 1]! += start[i]!;
		const fill = start.slice(0, size);
		const list = new Int32Array(size - this.roots.length);
		for (let i = 0; i < size; i++) {
			const parent = parents[i]!;
			if (parent >= 0) list[fill[parent]!++] = i;
		}
		this.#runs = { start, list };
		return this.#runs;
	}

	parentOf(position: number): number {
		return this.parents[position]!;
	}

	id(position: number): string {
		return this.#table.id(position);
	}

	kind(position: number): TreeRowKind {
		const slot = this.#table.slot(position);
		// A skeleton knows its kind; an entry in memory is summarised (and its text kept for the row).
		if (isLazy(slot) && !slot.pinned && slot.kind !== undefined) return slot.kind;
		return this.node(position).kind;
	}

	kindCodes(): Uint8Array {
		if (this.#kindCodes) return this.#kindCodes;
		// An entry's kind never changes and a table only grows: codes found for an earlier edition are kept.
		const known = tableKinds.get(this.#table);
		const codes = new Uint8Array(this.size);
		let from = known ? Math.min(known.length, this.size) : 0;
		if (known) codes.set(known.subarray(0, from));
		// Skeletons' kinds straight from their columns: the rows a big session's table starts with, in
		// order, without a view per row (a body in memory has the kind its skeleton recorded).
		const run = this.#table.columnRun();
		if (run && from < run.length) {
			const kinds = run.columns.kindColumn();
			const names = kinds.names.map(kindCode);
			const end = Math.min(run.length, codes.length);
			for (let p = from; p < end; p++) {
				const code = kinds.codes[p]!;
				codes[p] = code !== 0 ? names[code - 1]! : kindCode(this.kind(p));
			}
			from = end;
		}
		for (let p = from; p < codes.length; p++) codes[p] = kindCode(this.kind(p));
		tableKinds.set(this.#table, codes);
		this.#kindCodes = codes;
		return codes;
	}

	label(position: number): string | undefined {
		return this.#labels.size === 0 ? undefined : this.#labels.get(this.id(position));
	}

	hasLabels(): boolean {
		return this.#labels.size > 0;
	}

	text(position: number): string {
		return this.node(position).text;
	}

	positionOf(id: string): number | undefined {
		return this.#positionOf(id);
	}

	pathTo(id: string | null): readonly number[] {
		if (id === null) return [];
		const at = this.#positionOf(id);
		return at === undefined ? [] : Array.from(this.#table.pathPositions(at));
	}

	sameOrder(other: TreeModel): boolean {
		return other instanceof TableTreeModel && other.#table === this.#table;
	}

	node(position: number): SummaryNode {
		let node = this.#nodes.get(position);
		if (node === undefined) {
			node = new SummaryNode(this, position, this.#table.slot(position), this.#read, this.label(position));
			this.#nodes.set(position, node);
		}
		return node;
	}
}

/** A node of a `TableTreeModel`: made when first asked for; its children are made when first read. */
class SummaryNode implements SummaryTreeNode {
	readonly id: string;
	readonly label?: string;
	readonly #model: TableTreeModel;
	readonly #position: number;
	readonly #slot: EntrySlot;
	readonly #read: (slot: EntrySlot) => StoredEntry;
	#summary: EntrySummary | undefined;
	#children: SummaryNode[] | undefined;

	constructor(
		model: TableTreeModel,
		position: number,
		slot: EntrySlot,
		read: (slot: EntrySlot) => StoredEntry,
		label: string | undefined,
	) {
		this.#model = model;
		this.#position = position;
		this.id = slot.id;
		this.#slot = slot;
		this.#read = read;
		if (label !== undefined) this.label = label;
	}

	get children(): readonly SummaryNode[] {
		if (this.#children) return this.#children;
		const model = this.#model;
		const from = model.childStart[this.#position]!;
		const to = model.childStart[this.#position + 1]!;
		const children: SummaryNode[] = new Array(to - from);
		for (let i = from; i < to; i++) children[i - from] = model.node(model.childList[i]!);
		this.#children = children;
		return children;
	}

	get kind(): TreeRowKind {
		const slot = this.#slot;
		if (isLazy(slot) && !slot.pinned && slot.kind !== undefined) return slot.kind;
		return this.#summarize().kind;
	}

	get text(): string {
		return this.#summarize().text;
	}

	#summarize(): EntrySummary {
		if (this.#summary) return this.#summary;
		const resident = residentEntry(this.#slot);
		let summary: EntrySummary;
		try {
			summary = summarizeEntry(resident ?? this.#read(this.#slot));
		} catch (error) {
			// A body that cannot be read any more is one odd row, not a broken tree.
			const kind = isLazy(this.#slot) ? (this.#slot.kind ?? "unknown") : "unknown";
			summary = { kind, text: `(unreadable: ${error instanceof Error ? error.message : String(error)})` };
		}
		this.#summary = summary;
		return summary;
	}
}

const models = new WeakMap<readonly SummaryTreeNode[], TreeModel>();

/** The tree by positions: the one a session's tree was built over, else one made from the nodes (kept per tree). */
export function treeModelOf(roots: readonly SummaryTreeNode[]): TreeModel {
	let model = models.get(roots);
	if (!model) {
		model = modelOfNodes(roots);
		models.set(roots, model);
	}
	return model;
}

/**
 * The nodes root → `id` of a tree `buildSummaryTree` made, walked over parent positions; undefined
 * for a tree it did not make (a caller then searches the tree) or an id not in it.
 */
export function summaryPath(roots: readonly SummaryTreeNode[], id: string): SummaryTreeNode[] | undefined {
	const model = models.get(roots);
	if (!(model instanceof TableTreeModel)) return undefined;
	const at = model.positionOf(id);
	if (at === undefined) return undefined;
	return model.pathTo(id).map((position) => model.node(position));
}

/**
 * Builds the summary tree over the table's parent positions (no id map: half a million entries are
 * linked in two passes over typed arrays). Entries whose parent is missing become roots; children
 * keep insertion order. Nodes are made as they are read: `/tree` lays out the positions
 * (`treeModelOf`) and makes nodes only for what it draws.
 */
export function buildSummaryTree(
	table: EntryTable,
	labels: ReadonlyMap<string, string>,
	read: (slot: EntrySlot) => StoredEntry,
	positionOf: PositionOf = (id) => table.position(id),
): SummaryTreeNode[] {
	const model = new TableTreeModel(table, labels, read, positionOf);
	const roots = Array.from(model.roots, (position) => model.node(position));
	models.set(roots, model);
	return roots;
}
