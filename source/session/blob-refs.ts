import { BLOB_REF_PREFIX, type BlobStorage, hashBytes, parseBlobRef } from "./blob-store.js";
import type { FileEntry } from "./types.js";

/** Base64 image data at least this long is stored as a blob instead of inline. */
const BLOB_MIN_BASE64_CHARS = 1024;

/** Bytes an entry's serialised form needs in the blob store first. */
export interface PendingBlob {
	hash: string;
	bytes: Buffer;
}

type ImageBlock = { type: "image"; data: string };

function isImageBlock(value: unknown): value is ImageBlock {
	return (
		typeof value === "object" &&
		value !== null &&
		(value as { type?: unknown }).type === "image" &&
		typeof (value as { data?: unknown }).data === "string"
	);
}

/** True for an image block whose inline base64 is large enough to go to the blob store (and is not a reference yet). */
export function isExternalisable(value: unknown): value is ImageBlock {
	return isImageBlock(value) && value.data.length >= BLOB_MIN_BASE64_CHARS && !value.data.startsWith(BLOB_REF_PREFIX);
}

/** The block with its data replaced by `blob:sha256:<hash>`; the bytes are queued in `blobs`. */
export function externaliseImage(block: ImageBlock, blobs: PendingBlob[]): ImageBlock {
	const bytes = Buffer.from(block.data, "base64");
	const hash = hashBytes(bytes);
	blobs.push({ hash, bytes });
	return { ...block, data: `${BLOB_REF_PREFIX}${hash}` };
}

function contentArraysOf(entry: FileEntry): unknown[][] {
	const arrays: unknown[][] = [];
	const record = entry as Record<string, unknown>;
	if (entry.type === "custom_message" && Array.isArray(record.content)) arrays.push(record.content);
	if (entry.type === "message") {
		const message = record.message as Record<string, unknown> | undefined;
		if (message && Array.isArray(message.content)) arrays.push(message.content);
	}
	return arrays;
}

type BlobRef = { block: { data: string }; hash: string };

function blobRefsOf(entries: readonly FileEntry[]): BlobRef[] {
	const refs: BlobRef[] = [];
	for (const entry of entries) {
		for (const content of contentArraysOf(entry)) {
			for (const block of content) {
				if (!isImageBlock(block)) continue;
				const hash = parseBlobRef(block.data);
				if (hash) refs.push({ block, hash });
			}
		}
	}
	return refs;
}

/** `resolveBlobRefs` for one entry read on demand, inside a synchronous call. */
export function resolveBlobRefsSync(entry: FileEntry, blobs: BlobStorage): string[] {
	const missing: string[] = [];
	for (const { block, hash } of blobRefsOf([entry])) {
		const bytes = blobs.getSync(hash);
		if (bytes) block.data = bytes.toString("base64");
		else missing.push(hash);
	}
	return missing;
}

/**
 * Replaces blob references in message / custom_message image blocks with their base64 data, in
 * place (the entries were just parsed). Returns the hashes that could not be found.
 */
export async function resolveBlobRefs(entries: readonly FileEntry[], blobs: BlobStorage): Promise<string[]> {
	const refs = blobRefsOf(entries);
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
