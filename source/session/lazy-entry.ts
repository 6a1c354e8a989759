import { entryKind, type TreeRowKind } from "./entry-summary.js";
import type { StoredEntry } from "./types.js";

/** What an assistant message cost, kept in the skeleton so totals need no bodies. */
export interface UsageFacts {
	input: number;
	output: number;
	cacheRead: number;
	cost: number;
}

/** The few facts about a body the session needs without reading it. */
export interface EntryFacts {
	/** `message.role` of a message entry. */
	role?: string;
	/** "provider/model" of an assistant message (the context's default model falls back to it). */
	model?: string;
	usage?: UsageFacts;
	/** What `/tree` shows the entry as (its filters need it for every entry). */
	kind?: TreeRowKind;
}

/** `LazyEntry.parentAt` when the parent's position is not known yet (it is looked up by id). */
export const UNKNOWN_PARENT = -2;

/**
 * An entry of a big session read from its file: its place in the tree, where its line is, and its
 * body when that is kept in memory (`pinned`: small entries, context state, the active context).
 * Otherwise `SessionEntries` reads the body when a caller asks for the entry.
 */
export class LazyEntry {
	/** The body, when kept in memory. */
	pinned: StoredEntry | undefined;
	/** Position of the parent among the file's entries, when the cached skeleton says (else `UNKNOWN_PARENT`). */
	parentAt = UNKNOWN_PARENT;

	constructor(
		readonly type: string,
		readonly id: string,
		readonly parentId: string | null,
		readonly timestamp: string,
		/** Byte offset of the line in the file the body reader has open (moves when the file is rewritten). */
		public offset: number,
		/** Length of the line in bytes, newline excluded. */
		public length: number,
		readonly facts: EntryFacts,
	) {}
}

/** An entry as the session holds it: in memory, or a skeleton whose body is on disk. */
export type EntrySlot = StoredEntry | LazyEntry;

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

/** A skeleton for an entry parsed from the line at `offset`, its body pinned when `pin`. */
export function skeletonOf(entry: StoredEntry, offset: number, length: number, pin: boolean): LazyEntry {
	const facts = factsOf(entry);
	// The tree's filters need every entry's kind; a warm open has no bodies to find it in.
	facts.kind = entryKind(entry);
	const skeleton = new LazyEntry(entry.type, entry.id, entry.parentId ?? null, entry.timestamp, offset, length, facts);
	if (pin) skeleton.pinned = entry;
	return skeleton;
}

/** The entry of a slot if it is in memory. */
export function residentEntry(slot: EntrySlot): StoredEntry | undefined {
	return isLazy(slot) ? slot.pinned : slot;
}
