import type { FileEntry, JsonlLineError, JsonlParseResult } from "./types.js";

function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Parses JSONL, skipping what cannot be read instead of failing: blank lines are ignored,
 * unparseable lines and lines that are not JSON objects are reported with their 1-based number.
 */
export function parseJsonlLenient<T = Record<string, unknown>>(text: string): JsonlParseResult<T> {
	const values: T[] = [];
	const errors: JsonlLineError[] = [];
	const lines = text.split("\n");
	const missingFinalNewline = text.length > 0 && !text.endsWith("\n");
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		if (line.length === 0 || line.trim().length === 0) continue;
		try {
			const value: unknown = JSON.parse(line);
			if (value === null || typeof value !== "object" || Array.isArray(value)) {
				errors.push({ line: i + 1, message: "not a JSON object" });
				continue;
			}
			values.push(value as T);
		} catch (error) {
			errors.push({ line: i + 1, message: describeError(error) });
		}
	}
	return { values, errors, missingFinalNewline };
}

const ENTRY_LEADING_KEYS = ["type", "id", "parentId", "timestamp"] as const;
const HEADER_LEADING_KEYS = ["type", "version", "id", "timestamp", "cwd", "title", "parentSession"] as const;

function hasLeadingKeys(value: object, leading: readonly string[]): boolean {
	const keys = Object.keys(value);
	let k = 0;
	for (const want of leading) {
		if (!(want in value)) continue;
		if (keys[k] !== want) return false;
		k++;
	}
	return true;
}

function withLeadingKeys<T extends object>(value: T, leading: readonly string[]): T {
	const ordered: Record<string, unknown> = {};
	const source = value as Record<string, unknown>;
	for (const key of leading) if (key in source) ordered[key] = source[key];
	for (const key of Object.keys(source)) if (!(key in ordered)) ordered[key] = source[key];
	return ordered as T;
}

/** Returns the entry with `type, id, parentId, timestamp` (header: `type, version, id, …`) as its first keys. */
export function orderEntryKeys<T extends FileEntry>(entry: T): T {
	const leading = entry.type === "session" ? HEADER_LEADING_KEYS : ENTRY_LEADING_KEYS;
	return hasLeadingKeys(entry, leading) ? entry : withLeadingKeys(entry, leading);
}

/** One JSONL line (no newline) for an entry, with the spec's leading keys first. */
export function serializeEntry(entry: FileEntry): string {
	return JSON.stringify(orderEntryKeys(entry));
}
