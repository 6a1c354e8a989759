import type { SessionEntry, StoredEntry } from "./types.js";

/** The fields of a new entry: one of the taxonomy, without what the session fills in (id, parent, time). */
export type NewEntry<T extends SessionEntry = SessionEntry> = T extends SessionEntry
	? Omit<T, "id" | "parentId" | "timestamp">
	: never;

/** Where an entry sits in the tree, readable without its body. */
export interface EntryShape {
	readonly type: string;
	readonly id: string;
	readonly parentId: string | null;
	readonly timestamp: string;
}

/**
 * The shapes of a run of entries (a path, or all of a session): each made when asked for, so a big
 * session's half a million entries are not objects kept alive. Arrays of shapes are ones too.
 */
export interface EntryShapes extends Iterable<EntryShape> {
	readonly length: number;
	at(index: number): EntryShape | undefined;
	some(test: (shape: EntryShape) => boolean): boolean;
	map<T>(each: (shape: EntryShape, index: number) => T): T[];
}

/** A path's shapes, with what the chat reads of every entry on it without making the entry. */
export interface PathShapes extends EntryShapes {
	type(index: number): string;
	/** The entry if its body is in memory now (undefined: it is on disk). */
	resident(index: number): StoredEntry | undefined;
}

/** Options for `appendSessionInit`. */
export interface SessionInitOptions {
	systemPrompt: string;
	task?: string;
	tools: string[];
	outputSchema?: unknown;
}

/** Now, as an entry's timestamp. */
export function isoNow(): string {
	return new Date().toISOString();
}

/** The object without its undefined fields: the entry in memory is the one a reload reads back. */
export function withoutUndefined<T extends object>(value: T): T {
	for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
	return value;
}
