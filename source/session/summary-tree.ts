import { type EntrySummary, summarizeEntry, type TreeRowKind } from "./entry-summary.js";
import { type EntrySlot, isLazy, residentEntry } from "./lazy-entry.js";
import { linkTree } from "./session-tree.js";
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

/** Builds the summary tree (see `linkTree`). */
export function buildSummaryTree(
	entries: readonly EntrySlot[],
	labels: ReadonlyMap<string, string>,
	read: (slot: EntrySlot) => StoredEntry,
): SummaryTreeNode[] {
	return linkTree(entries, labels, (entry) => new SummaryNode(entry, read));
}
