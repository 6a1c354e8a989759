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

/** A reference to resolve: an image's base64 data, or a tool result's text (`xcsh doctor --slim` moves big ones out). */
type BlobRef =
	| { kind: "image"; block: { data: string }; hash: string }
	| { kind: "text"; block: { text: string }; hash: string };

/** The text blocks of a toolResult message: the only texts that may be blob references. */
function toolResultTexts(entry: FileEntry): { type: "text"; text: string }[] {
	if (entry.type !== "message") return [];
	const message = (entry as Record<string, unknown>).message as Record<string, unknown> | undefined;
	if (message?.role !== "toolResult" || !Array.isArray(message.content)) return [];
	return message.content.filter(
		(block): block is { type: "text"; text: string } =>
			typeof block === "object" && block !== null && block.type === "text" && typeof block.text === "string",
	);
}

function blobRefsOf(entries: readonly FileEntry[]): BlobRef[] {
	const refs: BlobRef[] = [];
	for (const entry of entries) {
		for (const content of contentArraysOf(entry)) {
			for (const block of content) {
				if (!isImageBlock(block)) continue;
				const hash = parseBlobRef(block.data);
				if (hash) refs.push({ kind: "image", block, hash });
			}
		}
		for (const block of toolResultTexts(entry)) {
			const hash = parseBlobRef(block.text);
			if (hash) refs.push({ kind: "text", block, hash });
		}
	}
	return refs;
}

/** Text blocks read from the blob store, with the blob they came from and the text's length then. */
const resolvedTexts = new WeakMap<object, { hash: string; length: number }>();

function fill(ref: BlobRef, bytes: Buffer): void {
	if (ref.kind === "image") ref.block.data = bytes.toString("base64");
	else {
		ref.block.text = bytes.toString("utf8");
		resolvedTexts.set(ref.block, { hash: ref.hash, length: ref.block.text.length });
	}
}

/**
 * The blob reference a text block was read from, if it still holds that text: a rewrite writes the
 * reference back (inline, the text would be cut at the persistence limit, and the slimming undone).
 */
export function textBlobRefOf(block: unknown): string | undefined {
	if (typeof block !== "object" || block === null) return undefined;
	const origin = resolvedTexts.get(block);
	const text = (block as { text?: unknown }).text;
	return origin && typeof text === "string" && text.length === origin.length
		? `${BLOB_REF_PREFIX}${origin.hash}`
		: undefined;
}

/** `resolveBlobRefs` for one entry read on demand, inside a synchronous call. */
export function resolveBlobRefsSync(entry: FileEntry, blobs: BlobStorage): string[] {
	const missing: string[] = [];
	for (const ref of blobRefsOf([entry])) {
		const bytes = blobs.getSync(ref.hash);
		if (bytes) fill(ref, bytes);
		else missing.push(ref.hash);
	}
	return missing;
}

/**
 * Replaces blob references with their content, in place (the entries were just parsed): base64 data
 * of message / custom_message image blocks, and the text of toolResult text blocks. Returns the hashes
 * that could not be found.
 */
export async function resolveBlobRefs(entries: readonly FileEntry[], blobs: BlobStorage): Promise<string[]> {
	const refs = blobRefsOf(entries);
	if (refs.length === 0) return [];
	const cache = new Map<string, Promise<Buffer | undefined>>();
	const missing = new Set<string>();
	await Promise.all(
		refs.map(async (ref) => {
			let pending = cache.get(ref.hash);
			if (!pending) {
				pending = blobs.get(ref.hash);
				cache.set(ref.hash, pending);
			}
			const bytes = await pending;
			if (bytes) fill(ref, bytes);
			else missing.add(ref.hash);
		}),
	);
	return [...missing];
}
