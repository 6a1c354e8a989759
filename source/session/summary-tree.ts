import { type EntrySummary, summarizeEntry, type TreeRowKind } from "./entry-summary.js";
import { type EntryTable, NO_POSITION } from "./entry-table.js";
import { type EntrySlot, isLazy, residentEntry } from "./lazy-entry.js";
import type { StoredEntry } from "./types.js";

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

class SummaryNode implements SummaryTreeNode {
	readonly id: string;
	readonly children: SummaryNode[] = [];
	label?: string;
	readonly #slot: EntrySlot;
	readonly #read: (slot: EntrySlot) => StoredEntry;
	#summary: EntrySummary | undefined;

	constructor(slot: EntrySlot, read: (slot: EntrySlot) => StoredEntry) {
		this.id = slot.id;
		this.#slot = slot;
		this.#read = read;
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

/** How a tree built by `buildSummaryTree` finds an entry's position (undefined: not in it). */
export type PositionOf = (id: string) => number | undefined;

const pathFinders = new WeakMap<readonly SummaryTreeNode[], (id: string) => SummaryTreeNode[] | undefined>();

/**
 * The nodes root → `id` of a tree `buildSummaryTree` made, walked over parent positions; undefined
 * for a tree it did not make (a caller then searches the tree) or an id not in it.
 */
export function summaryPath(roots: readonly SummaryTreeNode[], id: string): SummaryTreeNode[] | undefined {
	return pathFinders.get(roots)?.(id);
}

/**
 * Builds the summary tree over the table's parent positions (no id map: half a million entries are
 * linked in one pass). Entries whose parent is missing become roots; children keep insertion order.
 */
export function buildSummaryTree(
	table: EntryTable,
	labels: ReadonlyMap<string, string>,
	read: (slot: EntrySlot) => StoredEntry,
	positionOf: PositionOf = (id) => table.position(id),
): SummaryTreeNode[] {
	const { slots } = table;
	const nodes: SummaryNode[] = new Array(slots.length);
	for (let i = 0; i < slots.length; i++) {
		const node = new SummaryNode(slots[i]!, read);
		const label = labels.get(node.id);
		if (label !== undefined) node.label = label;
		nodes[i] = node;
	}
	const roots: SummaryNode[] = [];
	for (let i = 0; i < nodes.length; i++) {
		const parent = table.parentOf(i);
		if (parent !== NO_POSITION && parent !== i) nodes[parent]!.children.push(nodes[i]!);
		else roots.push(nodes[i]!);
	}
	pathFinders.set(roots, (id) => {
		const at = positionOf(id);
		if (at === undefined) return undefined;
		const path = table.pathPositions(at);
		return path.map((position) => nodes[position]!);
	});
	return roots;
}
