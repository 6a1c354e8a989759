import type { SessionEntry } from "./types.js";

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
