import { externaliseImage, isExternalisable, type PendingBlob, textBlobRefOf } from "./blob-refs.js";
import type { FileEntry } from "./types.js";

/** Strings longer than this are cut before they reach disk. */
export const MAX_PERSIST_CHARS = 500_000;
export const TRUNCATION_NOTICE = "[Session persistence truncated large content]";

const TRANSIENT_KEYS: ReadonlySet<string> = new Set(["partialJson", "jsonlEvents"]);

/** Cuts a string to MAX_PERSIST_CHARS including the notice. */
function truncateForPersistence(text: string): string {
	if (text.length <= MAX_PERSIST_CHARS) return text;
	return `${text.slice(0, MAX_PERSIST_CHARS - TRUNCATION_NOTICE.length - 1)}\n${TRUNCATION_NOTICE}`;
}

type Json = unknown;

/**
 * True when an entry whose JSON is `json` needs nothing from `prepareForPersistence`: no string
 * over the limit (the JSON is not even that long), no image, no transient key. For entries built
 * from data never read from a session (whose tool result texts may stand for blob references).
 */
export function persistsAsIs(json: string): boolean {
	// Shorter needles than the keys and values they stand for: about three times faster to search, and
	// a false alarm only means the walk.
	return (
		json.length <= MAX_PERSIST_CHARS && !json.includes('image"') && !json.includes('Json"') && !json.includes('Events"')
	);
}

function countLines(content: Json): number | undefined {
	if (typeof content === "string") return content.length === 0 ? 0 : content.split("\n").length;
	return undefined;
}

/**
 * Returns the form of an entry to write to disk: large strings cut, transient fields dropped,
 * `lineCount` recomputed, large base64 images replaced by `blob:sha256:<hash>`, texts read from the
 * blob store (`xcsh doctor --slim`) written back as their reference. Copy-on-write: the
 * in-memory entry is never modified, and an entry that needs nothing is returned as is.
 */
export function prepareForPersistence(entry: FileEntry, blobs: PendingBlob[]): FileEntry {
	return transform(entry, false, blobs) as FileEntry;
}

function transform(value: Json, inContentArray: boolean, blobs: PendingBlob[]): Json {
	if (typeof value === "string") return truncateForPersistence(value);
	if (typeof value !== "object" || value === null) return value;
	if (Array.isArray(value)) {
		let copy: Json[] | undefined;
		for (let i = 0; i < value.length; i++) {
			const item = value[i];
			const textRef = inContentArray ? textBlobRefOf(item) : undefined;
			const next = textRef
				? { ...(item as object), text: textRef }
				: inContentArray && isExternalisable(item)
					? externaliseImage(item, blobs)
					: transform(item, false, blobs);
			if (next !== item) {
				copy ??= value.slice();
				copy[i] = next;
			}
		}
		return copy ?? value;
	}
	const source = value as Record<string, Json>;
	let copy: Record<string, Json> | undefined;
	for (const key of Object.keys(source)) {
		if (TRANSIENT_KEYS.has(key)) {
			copy ??= { ...source };
			delete copy[key];
			continue;
		}
		const item = source[key];
		const next = transform(item, key === "content" && Array.isArray(item), blobs);
		if (next !== item) {
			copy ??= { ...source };
			copy[key] = next;
		}
	}
	if (copy && "lineCount" in copy && "content" in copy) {
		const lines = countLines(copy.content);
		if (lines !== undefined) copy.lineCount = lines;
	}
	return copy ?? value;
}
