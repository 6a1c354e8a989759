import { createHash } from "node:crypto";
import { mayStayOnDisk } from "./lazy-entry.js";
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
	/** The entries, as rows 0 … size - 1 (pinned bodies of the context's state included). */
	columns: SkeletonColumns;
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

/** Encodes a skeleton: columns of numbers and shared strings, so a million entries decode quickly. */
export function encodeSkeleton(skeleton: Skeleton): Buffer {
	const { columns } = skeleton;
	const n = columns.size;
	const data = columns.data();
	// Parent positions are the ones the session worked out; the others come from an id map.
	let index: Map<string, number> | undefined;
	for (let i = 0; i < n; i++) {
		if (data.parents[i]! >= 0) continue;
		const parentId = columns.parentId(i);
		if (parentId === null) {
			data.parents[i] = -1;
			continue;
		}
		if (!index) {
			index = new Map();
			for (let j = 0; j < n; j++) index.set(columns.id(j), j);
		}
		data.parents[i] = index.get(parentId) ?? -1;
	}
	// Dangling parents keep their ids; parents found by position need none.
	data.oddParents = data.oddParents.filter(([i]) => data.parents[i]! < 0);
	const pinned: [number, StoredEntry][] = [];
	// Bodies a warm open needs without reading the file (labels, the context's state); not the
	// context's own bodies, which were pinned for this open only.
	for (const [i, entry] of columns.pins()) if (i < n && !mayStayOnDisk(entry)) pinned.push([i, entry]);
	pinned.sort((a, b) => a[0] - b[0]);
	const extra: Extra = {
		file: skeleton.file,
		header: skeleton.header,
		skipped: skeleton.skipped,
		nextLineNumber: skeleton.nextLineNumber,
		pinned,
	};
	return encodeColumns(FORMAT, data, extra);
}

/** Where a scan stopped: past the last complete line (a torn tail is read again next time). */
export interface ScanCoverage {
	/** Bytes up to the end of the last newline-terminated line. */
	bytes: number;
	/** Number of the line after it. */
	nextLineNumber: number;
}

/** A cached skeleton to go on from instead of reading the whole file. */
export interface SkeletonResume {
	header: SessionHeader;
	/** Its rows, which the read extends with what was appended. */
	columns: SkeletonColumns;
	skipped: readonly JsonlLineError[];
	covered: ScanCoverage;
}

/** What a skeleton cache is made of: the same parts a read goes on from. */
export type SkeletonToCache = SkeletonResume;

/** A skeleton's cache bytes, stamped with the file it covers (none where the storage has no inodes). */
export async function skeletonBytes(
	file: string,
	storage: {
		statSync(path: string): { ino?: number; mtimeMs: number } | undefined;
		readBytes(path: string, position: number, length: number): Promise<Buffer>;
	},
	skeleton: SkeletonToCache,
): Promise<Buffer | undefined> {
	const stat = storage.statSync(file);
	if (stat?.ino === undefined) return undefined;
	const hashes = await coverHashes(
		(position, length) => storage.readBytes(file, position, length),
		skeleton.covered.bytes,
	);
	return encodeSkeleton({
		file: { ino: stat.ino, bytes: skeleton.covered.bytes, mtimeMs: stat.mtimeMs, ...hashes },
		header: skeleton.header,
		skipped: [...skeleton.skipped],
		nextLineNumber: skeleton.covered.nextLineNumber,
		columns: skeleton.columns,
	});
}

/** A decoded skeleton as the point a read goes on from. */
export function resumeOf(skeleton: Skeleton): SkeletonResume {
	const { header, columns, skipped } = skeleton;
	return { header, columns, skipped, covered: { bytes: skeleton.file.bytes, nextLineNumber: skeleton.nextLineNumber } };
}

/** Decodes a cache, or undefined when it is from another format or damaged. */
export function decodeSkeleton(bytes: Buffer): Skeleton | undefined {
	const decoded = decodeColumns(FORMAT, bytes);
	if (!decoded) return undefined;
	const extra = decoded.extra as Extra;
	if (!extra?.file || !extra.header || !Array.isArray(extra.pinned)) return undefined;
	const columns = new SkeletonColumns(decoded.columns);
	for (const [i, entry] of extra.pinned) if (i >= 0 && i < columns.size) columns.setPinned(i, entry);
	return {
		file: extra.file,
		header: extra.header,
		skipped: extra.skipped ?? [],
		nextLineNumber: extra.nextLineNumber,
		columns,
	};
}
