import { externaliseImage, isExternalisable, type PendingBlob } from "../session/blob-refs.js";
import { BLOB_REF_PREFIX, hashBytes } from "../session/blob-store.js";

/** A tool result text at least this many UTF-8 bytes goes to the blob store on `--slim`. */
export const SLIM_TEXT_MIN_BYTES = 32 * 1024;

/** What slimming moves (or would move) out of some entries. */
export interface SlimCount {
	toolResults: number;
	images: number;
	/** Bytes of the moved content as it sits in the entries (text, base64). */
	bytes: number;
}

/** An empty count. */
export function noSlimCount(): SlimCount {
	return { toolResults: 0, images: 0, bytes: 0 };
}

type Block = Record<string, unknown>;

/** In a `u` regex a paired surrogate is one code point, so only a lone one is in category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

interface ParsedEntry {
	type?: unknown;
	content?: unknown;
	message?: unknown;
}

/** The content arrays the loader resolves blobs in, and whether they belong to a tool result. */
function contentOf(entry: ParsedEntry): { blocks: unknown[]; toolResult: boolean } | undefined {
	if (entry.type === "custom_message" && Array.isArray(entry.content))
		return { blocks: entry.content, toolResult: false };
	if (entry.type !== "message" || typeof entry.message !== "object" || entry.message === null) return undefined;
	const message = entry.message as { role?: unknown; content?: unknown };
	if (!Array.isArray(message.content)) return undefined;
	return { blocks: message.content, toolResult: message.role === "toolResult" };
}

/**
 * A text that comes back from the blob store exactly as it is: big enough, not a reference already,
 * and well-formed (a lone surrogate would not survive the trip through UTF-8).
 */
function isSlimmableText(block: unknown): block is { type: "text"; text: string } {
	const b = block as Block | null;
	if (typeof b !== "object" || b === null || b.type !== "text" || typeof b.text !== "string") return false;
	const text = b.text;
	return (
		text.length * 3 >= SLIM_TEXT_MIN_BYTES &&
		Buffer.byteLength(text) >= SLIM_TEXT_MIN_BYTES &&
		!text.startsWith(BLOB_REF_PREFIX) &&
		!LONE_SURROGATE.test(text)
	);
}

/** An inline image whose base64 is canonical, so the blob's bytes give back the very same string. */
function isSlimmableImage(block: unknown): block is { type: "image"; data: string } {
	if (!isExternalisable(block)) return false;
	return Buffer.from(block.data, "base64").toString("base64") === block.data;
}

/** What `--slim` would move out of a parsed entry (the doctor's estimate). */
export function measureSlimmable(entry: ParsedEntry, into: SlimCount): void {
	const content = contentOf(entry);
	if (!content) return;
	for (const block of content.blocks) {
		if (content.toolResult && isSlimmableText(block)) {
			into.toolResults++;
			into.bytes += Buffer.byteLength(block.text);
		} else if (isSlimmableImage(block)) {
			into.images++;
			into.bytes += block.data.length;
		}
	}
}

/**
 * Replaces, in place, big tool result texts by `blob:sha256:<hash>` of their UTF-8 bytes and inline
 * images by the reference the persistence layer writes; the bytes are queued in `blobs`.
 */
export function slimEntry(entry: ParsedEntry, blobs: PendingBlob[], count: SlimCount): boolean {
	const content = contentOf(entry);
	if (!content) return false;
	let changed = false;
	const { blocks } = content;
	for (let i = 0; i < blocks.length; i++) {
		const block = blocks[i];
		if (content.toolResult && isSlimmableText(block)) {
			const bytes = Buffer.from(block.text, "utf8");
			const hash = hashBytes(bytes);
			blobs.push({ hash, bytes });
			blocks[i] = { ...block, text: `${BLOB_REF_PREFIX}${hash}` };
			count.toolResults++;
			count.bytes += bytes.length;
			changed = true;
		} else if (isSlimmableImage(block)) {
			count.images++;
			count.bytes += block.data.length;
			blocks[i] = externaliseImage(block, blobs);
			changed = true;
		}
	}
	return changed;
}
