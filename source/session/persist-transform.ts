import { BLOB_REF_PREFIX, type BlobStorage, hashBytes, parseBlobRef } from "./blob-store.js";
import type { FileEntry } from "./types.js";

/** Strings longer than this are cut before they reach disk. */
export const MAX_PERSIST_CHARS = 500_000;
export const TRUNCATION_NOTICE = "[Session persistence truncated large content]";
/** Base64 image data at least this long is stored as a blob instead of inline. */
export const BLOB_MIN_BASE64_CHARS = 1024;

const TRANSIENT_KEYS: ReadonlySet<string> = new Set(["partialJson", "jsonlEvents"]);

/** Bytes an entry's serialised form needs in the blob store first. */
export interface PendingBlob {
	hash: string;
	bytes: Buffer;
}

/** Cuts a string to MAX_PERSIST_CHARS including the notice. */
export function truncateForPersistence(text: string): string {
	if (text.length <= MAX_PERSIST_CHARS) return text;
	return `${text.slice(0, MAX_PERSIST_CHARS - TRUNCATION_NOTICE.length - 1)}\n${TRUNCATION_NOTICE}`;
}

type Json = unknown;

function isImageBlock(value: Json): value is { type: "image"; data: string } {
	return (
		typeof value === "object" &&
		value !== null &&
		(value as { type?: unknown }).type === "image" &&
		typeof (value as { data?: unknown }).data === "string"
	);
}

function countLines(content: Json): number | undefined {
	if (typeof content === "string") return content.length === 0 ? 0 : content.split("\n").length;
	return undefined;
}

/**
 * Returns the form of an entry to write to disk: large strings cut, transient fields dropped,
 * `lineCount` recomputed, large base64 images replaced by `blob:sha256:<hash>`. Copy-on-write: the
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
			const next = inContentArray && isImageBlock(item) ? externalise(item, blobs) : transform(item, false, blobs);
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

function externalise(block: { type: "image"; data: string }, blobs: PendingBlob[]): Json {
	if (block.data.length < BLOB_MIN_BASE64_CHARS || block.data.startsWith(BLOB_REF_PREFIX)) {
		return transform(block, false, blobs);
	}
	const bytes = Buffer.from(block.data, "base64");
	const hash = hashBytes(bytes);
	blobs.push({ hash, bytes });
	return { ...block, data: `${BLOB_REF_PREFIX}${hash}` };
}

function contentArraysOf(entry: FileEntry): Json[][] {
	const arrays: Json[][] = [];
	const record = entry as Record<string, Json>;
	if (entry.type === "custom_message" && Array.isArray(record.content)) arrays.push(record.content);
	if (entry.type === "message") {
		const message = record.message as Record<string, Json> | undefined;
		if (message && Array.isArray(message.content)) arrays.push(message.content);
	}
	return arrays;
}

/**
 * Replaces blob references in message / custom_message image blocks with their base64 data, in
 * place (the entries were just parsed). Returns the hashes that could not be found.
 */
export async function resolveBlobRefs(entries: readonly FileEntry[], blobs: BlobStorage): Promise<string[]> {
	const refs: { block: { data: string }; hash: string }[] = [];
	for (const entry of entries) {
		for (const content of contentArraysOf(entry)) {
			for (const block of content) {
				if (!isImageBlock(block)) continue;
				const hash = parseBlobRef(block.data);
				if (hash) refs.push({ block, hash });
			}
		}
	}
	if (refs.length === 0) return [];
	const cache = new Map<string, Promise<Buffer | undefined>>();
	const missing = new Set<string>();
	await Promise.all(
		refs.map(async ({ block, hash }) => {
			let pending = cache.get(hash);
			if (!pending) {
				pending = blobs.get(hash);
				cache.set(hash, pending);
			}
			const bytes = await pending;
			if (bytes) block.data = bytes.toString("base64");
			else missing.add(hash);
		}),
	);
	return [...missing];
}
