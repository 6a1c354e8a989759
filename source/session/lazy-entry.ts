import { entryKind } from "./entry-summary.js";
import type { SkimFields } from "./line-skim.js";
import { type EntryFacts, SkeletonColumns, type UsageFacts } from "./skeleton-columns.js";
import type { StoredEntry } from "./types.js";

export { type EntryFacts, SkeletonColumns, UNKNOWN_PARENT, type UsageFacts } from "./skeleton-columns.js";

/**
 * An entry of a big session read from its file: its place in the tree, where its line is, and its
 * body when that is kept in memory (`pinned`: context state, the active context). Otherwise
 * `SessionEntries` reads the body when a caller asks for the entry. It is a view of one row of the
 * load's `SkeletonColumns`, pinned body included: two views of a row are the same entry.
 */
export class LazyEntry {
	constructor(
		readonly columns: SkeletonColumns,
		readonly row: number,
	) {}

	/** The body, when kept in memory (held by the columns: views of a row are made and dropped freely). */
	get pinned(): StoredEntry | undefined {
		return this.columns.pinned(this.row);
	}

	set pinned(entry: StoredEntry | undefined) {
		this.columns.setPinned(this.row, entry);
	}

	get type(): string {
		return this.columns.type(this.row);
	}

	get id(): string {
		return this.columns.id(this.row);
	}

	get parentId(): string | null {
		return this.columns.parentId(this.row);
	}

	get timestamp(): string {
		return this.columns.timestamp(this.row);
	}

	/** Byte offset of the line in the file the body reader has open (moves when the file is rewritten). */
	get offset(): number {
		return this.columns.offset(this.row);
	}

	set offset(offset: number) {
		this.columns.setOffset(this.row, offset);
	}

	/** Length of the line in bytes, newline excluded. */
	get length(): number {
		return this.columns.length(this.row);
	}

	/** Position of the parent among the file's entries, once known (else `UNKNOWN_PARENT`). */
	get parentAt(): number {
		return this.columns.parentAt(this.row);
	}

	set parentAt(parent: number) {
		this.columns.setParentAt(this.row, parent);
	}

	/** `message.role` of a message entry. */
	get role(): string | undefined {
		return this.columns.role(this.row);
	}

	/** "provider/model" of an assistant message. */
	get model(): string | undefined {
		return this.columns.model(this.row);
	}

	/** What `/tree` shows the entry as. */
	get kind(): EntryFacts["kind"] {
		return this.columns.kind(this.row);
	}

	/** What an assistant message cost. */
	get usage(): UsageFacts | undefined {
		return this.columns.usage(this.row);
	}

	/** All of the facts above as one object. */
	get facts(): EntryFacts {
		return this.columns.facts(this.row);
	}
}

/** An entry as the session holds it: in memory, or a skeleton whose body is on disk. */
export type EntrySlot = StoredEntry | LazyEntry;

/** True when the slot's id is `id` (a skeleton's id string is not made for it). */
export function hasId(slot: EntrySlot, id: string): boolean {
	return slot instanceof LazyEntry ? slot.columns.hasId(slot.row, id) : slot.id === id;
}

/** True for a skeleton (its body pinned or on disk) rather than an entry held only in memory. */
export function isLazy(slot: object): slot is LazyEntry {
	return slot instanceof LazyEntry;
}

/** Entry types that carry context state (thinking, models, rules, mode, labels): never left on disk. */
const ALWAYS_RESIDENT = new Set(["label", "model_change", "thinking_level_change", "ttsr_injection", "mode_change"]);

/**
 * True when an entry of a big session may leave its body on disk (otherwise it is pinned at load).
 * Short lines too: the skeleton is made either way, and half a million small bodies kept as parsed
 * objects were most of a first open's memory (a short body costs one read when it is drawn).
 */
export function mayStayOnDisk(entry: StoredEntry): boolean {
	return !ALWAYS_RESIDENT.has(entry.type);
}

function num(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** The facts of an entry (role, assistant model, usage) that its skeleton keeps. */
export function factsOf(entry: StoredEntry): EntryFacts {
	if (entry.type !== "message") return {};
	const message = (entry as { message?: Record<string, unknown> }).message;
	if (!message || typeof message.role !== "string") return {};
	if (message.role !== "assistant") return { role: message.role };
	const facts: EntryFacts = { role: "assistant", model: `${message.provider}/${message.model}` };
	const usage = message.usage as Record<string, unknown> | undefined;
	if (usage) {
		const cost = usage.cost as Record<string, unknown> | undefined;
		facts.usage = {
			input: num(usage.input),
			output: num(usage.output),
			cacheRead: num(usage.cacheRead),
			cost: num(cost?.total),
		};
	}
	return facts;
}

/**
 * The strings a skeleton row is made of (`pushSkeleton`, `factsOf`, `entryKind`), by key: a big line
 * is skimmed with these kept (a resident entry's body is parsed whole).
 */
export const SKELETON_FIELDS: SkimFields = {
	kept: new Set(["type", "id", "parentId", "timestamp", "role", "provider", "model"]),
	// `entryKind` tells an assistant's text from a tool call by whether its text is blank.
	nonBlank: new Set(["text"]),
};

/** Adds a row to `columns` for an entry parsed from the line at `offset`, its body pinned when `pin`; returns the row. */
export function pushSkeleton(
	columns: SkeletonColumns,
	entry: StoredEntry,
	offset: number,
	length: number,
	pin: boolean,
): number {
	const facts = factsOf(entry);
	// The tree's filters need every entry's kind; a warm open has no bodies to find it in.
	facts.kind = entryKind(entry);
	const row = columns.push(entry.type, entry.id, entry.parentId ?? null, entry.timestamp, offset, length, facts);
	if (pin) columns.setPinned(row, entry);
	return row;
}

/** A skeleton of its own (tests, and entries made one at a time). */
export function standaloneSkeleton(
	type: string,
	id: string,
	parentId: string | null,
	timestamp: string,
	offset: number,
	length: number,
	facts: EntryFacts = {},
): LazyEntry {
	const columns = new SkeletonColumns();
	return new LazyEntry(columns, columns.push(type, id, parentId, timestamp, offset, length, facts));
}

/** The entry of a slot if it is in memory. */
export function residentEntry(slot: EntrySlot): StoredEntry | undefined {
	return isLazy(slot) ? slot.pinned : slot;
}
