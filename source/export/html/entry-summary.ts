import type { StoredEntry } from "../../session/types.js";

/** Characters of each string a summary keeps: more than a tree row or the search preview shows. */
const SUMMARY_CHARS = 300;
/** Items of each array a summary keeps (content blocks, tool-call arguments). */
const SUMMARY_ITEMS = 24;
/** Object nesting a summary keeps: enough for message → content → block → arguments → value. */
const SUMMARY_DEPTH = 6;

function shrink(value: unknown, depth: number): unknown {
	if (typeof value === "string") return value.length > SUMMARY_CHARS ? `${value.slice(0, SUMMARY_CHARS)}…` : value;
	if (typeof value !== "object" || value === null) return value;
	if (depth >= SUMMARY_DEPTH) return Array.isArray(value) ? [] : {};
	if (Array.isArray(value)) return value.slice(0, SUMMARY_ITEMS).map((item) => shrink(item, depth + 1));
	const record = value as Record<string, unknown>;
	// An image's data is only drawn from the whole entry.
	const image = record.type === "image";
	return Object.fromEntries(
		Object.entries(record).map(([key, item]) => [key, image && key === "data" ? "" : shrink(item, depth + 1)]),
	);
}

/**
 * What the index of a lazy HTML page keeps of an entry: its identity and shape with every string
 * cut short and images left out. The tree, its previews, labels, stats and tool-call pairing read
 * it; the conversation reads the whole entry from its chunk when it shows it.
 */
export function entrySummary(entry: StoredEntry): unknown {
	return shrink(entry, 0);
}
