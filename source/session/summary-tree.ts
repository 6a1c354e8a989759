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
		if (isLazy(slot) && !slot.pinned && slot.facts.kind !== undefined) return slot.facts.kind;
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
			const kind = isLazy(this.#slot) ? (this.#slot.facts.kind ?? "unknown") : "unknown";
			summary = { kind, text: `(unreadable: ${error instanceof Error ? error.message : String(error)})` };
		}
		this.#summary = summary;
		return summary;
	}
}

/**
 * Builds the summary tree over the table's parent positions (no id map: half a million entries are
 * linked in one pass). Entries whose parent is missing become roots; children keep insertion order.
 */
export function buildSummaryTree(
	table: EntryTable,
	labels: ReadonlyMap<string, string>,
	read: (slot: EntrySlot) => StoredEntry,
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
	return roots;
}
