/// <reference lib="dom" />
import { arr, rec, str, type ViewEntry } from "./data.js";

/** Parsed chunks kept: a path on screen spans a few; older ones are parsed again if needed. */
const KEPT_CHUNKS = 16;
const chunks = new Map<number, readonly unknown[]>();

function chunk(number: number): readonly unknown[] {
	const kept = chunks.get(number);
	if (kept) {
		chunks.delete(number);
		chunks.set(number, kept);
		return kept;
	}
	const text = document.getElementById(`xcsh-chunk-${number}`)?.textContent ?? "[]";
	const values = arr(JSON.parse(text));
	chunks.set(number, values);
	if (chunks.size > KEPT_CHUNKS) chunks.delete(chunks.keys().next().value!);
	return values;
}

/**
 * The entry with its whole body: as is in a small page; in a lazy page read from its chunk (parsed
 * when first needed), or the summary when the chunk does not hold it (a damaged file).
 */
export function fullEntry(entry: ViewEntry): ViewEntry {
	if (!entry.place) return entry;
	const raw = rec(chunk(entry.place.chunk)[entry.place.at]);
	return raw && str(raw.id) === entry.id ? { ...entry, raw } : entry;
}
