import { createHash } from "node:crypto";
import { LazyEntry } from "./lazy-entry.js";
import { decodeColumns, encodeColumns } from "./skeleton-binary.js";
import { SkeletonColumns } from "./skeleton-columns.js";
import type { JsonlLineError, SessionHeader, StoredEntry } from "./types.js";

/** Bumped when the encoding changes: an older cache is rebuilt, never misread. */
const FORMAT = 5;

/** Bytes hashed at the end of what a cache covers (and at the start of the file). */
const CHECK_BYTES = 4096;

/** Where a skeleton cache lives; deleting it loses nothing (the next open rebuilds it). */
export interface SkeletonStore {
	read(sessionFile: string): Buffer | undefined;
	/** Atomic: a reader sees the old cache or the new one. */
	write(sessionFile: string, bytes: Buffer): Promise<void>;
}

/** What a cache says about the file it was made from, checked before it is trusted. */
export interface CoveredFile {
	ino: number;
	/** Bytes covered: up to the end of the last complete line read. */
	bytes: number;
	mtimeMs: number;
	/** sha256 of the first and of the last covered `CHECK_BYTES`. */
	headHash: string;
	tailHash: string;
}

/** A session's skeleton as the loader left it: enough to open without reading the file again. */
export interface Skeleton {
	file: CoveredFile;
	header: SessionHeader;
	skipped: JsonlLineError[];
	/** Number of the line after the last one covered. */
	nextLineNumber: number;
	entries: LazyEntry[];
}

/** What the cache holds beside the columns. */
interface Extra {
	file: CoveredFile;
	header: SessionHeader;
	skipped: JsonlLineError[];
	nextLineNumber: number;
	pinned: [number, StoredEntry][];
}

/** Hashes the two ends of the bytes a cache covers (what `readAt` returns there). */
export async function coverHashes(
	readAt: (position: number, length: number) => Promise<Buffer>,
	bytes: number,
): Promise<{ headHash: string; tailHash: string }> {
	const head = await readAt(0, Math.min(CHECK_BYTES, bytes));
	const tailStart = Math.max(0, bytes - CHECK_BYTES);
	const tail = await readAt(tailStart, bytes - tailStart);
	return {
		headHash: createHash("sha256").update(head).digest("hex"),
		tailHash: createHash("sha256").update(tail).digest("hex"),
	};
}

/** True when `entries` are rows 0 … n-1 of one columns object, in order: their columns are the cache's. */
function oneLoad(entries: readonly LazyEntry[]): SkeletonColumns | undefined {
	const columns = entries[0]?.columns;
	if (!columns) return undefined;
	for (let i = 0; i < entries.length; i++) {
		const entry = entries[i]!;
		if (entry.columns !== columns || entry.row !== i) return undefined;
	}
	return columns;
}

/** Encodes a skeleton: columns of numbers and shared strings, so a million entries decode quickly. */
export function encodeSkeleton(skeleton: Skeleton): Buffer {
	const { entries } = skeleton;
	const n = entries.length;
	let columns = oneLoad(entries);
	if (!columns) {
		columns = new SkeletonColumns();
		for (const e of entries) columns.push(e.type, e.id, e.parentId, e.timestamp, e.offset, e.length, e.facts);
	}
	// Parent positions come from the entries when the session worked them out; else from an id map.
	let index: Map<string, number> | undefined;
	const data = columns.data();
	for (let i = 0; i < n; i++) {
		const entry = entries[i]!;
		if (entry.parentAt >= 0 && data.parents[i] === entry.parentAt) continue;
		if (entry.parentAt >= 0) {
			data.parents[i] = entry.parentAt;
			continue;
		}
		const parentId = entry.parentId;
		if (parentId === null) {
			data.parents[i] = -1;
			continue;
		}
		if (!index) {
			index = new Map();
			for (let j = 0; j < n; j++) index.set(entries[j]!.id, j);
		}
		const parent = index.get(parentId);
		data.parents[i] = parent ?? -1;
	}
	// Dangling parents keep their ids; parents found by position need none.
	data.oddParents = data.oddParents.filter(([i]) => data.parents[i]! < 0);
	const pinned: [number, StoredEntry][] = [];
	for (let i = 0; i < n; i++) {
		const entry = entries[i]!;
		if (entry.pinned && KEPT_PINNED.has(entry.type)) pinned.push([i, entry.pinned]);
	}
	const extra: Extra = {
		file: skeleton.file,
		header: skeleton.header,
		skipped: skeleton.skipped,
		nextLineNumber: skeleton.nextLineNumber,
		pinned,
	};
	return encodeColumns(FORMAT, data, extra);
}

/** Bodies a warm open needs without reading the file: labels and the context's state. */
const KEPT_PINNED = new Set(["label", "model_change", "thinking_level_change", "ttsr_injection", "mode_change"]);

/** Decodes a cache, or undefined when it is from another format or damaged. */
export function decodeSkeleton(bytes: Buffer): Skeleton | undefined {
	const decoded = decodeColumns(FORMAT, bytes);
	if (!decoded) return undefined;
	const extra = decoded.extra as Extra;
	if (!extra?.file || !extra.header || !Array.isArray(extra.pinned)) return undefined;
	const columns = new SkeletonColumns(decoded.columns);
	const entries: LazyEntry[] = new Array(columns.size);
	for (let i = 0; i < entries.length; i++) entries[i] = new LazyEntry(columns, i);
	for (const [i, entry] of extra.pinned) if (entries[i]) entries[i].pinned = entry;
	return {
		file: extra.file,
		header: extra.header,
		skipped: extra.skipped ?? [],
		nextLineNumber: extra.nextLineNumber,
		entries,
	};
}
