import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { type LineScanEnd, type LineScanOptions, type ScannedLine, scanLines } from "../session/line-scan.js";

/** Bytes per read and per copy: what the doctor holds of a file at a time (plus one line being decoded). */
export const CHUNK_BYTES = 4 << 20;

/** How the doctor reads a file; both knobs exist so tests can exercise the limits with small files. */
export interface ReadLimits {
	/** Lines longer than this are reported as too long to read and left untouched (default: V8's string limit). */
	maxLineBytes?: number;
	/** Bytes per read (default 4 MiB). */
	chunkBytes?: number;
}

/** Where a scan starts, and what runs before each chunk is read. */
export interface ScanFrom extends Pick<LineScanOptions, "from" | "firstLineNumber"> {
	beforeRead?: () => Promise<void>;
}

/** A file open for reading in chunks, never as a whole. */
export class ChunkedFile {
	readonly #handle: FileHandle;
	readonly #limits: ReadLimits;
	readonly size: number;
	#buffer: Buffer | undefined;

	private constructor(handle: FileHandle, size: number, limits: ReadLimits) {
		this.#handle = handle;
		this.size = size;
		this.#limits = limits;
	}

	/** Opens `path`; its size is taken now, and every scan covers exactly those bytes. */
	static async open(path: string, limits: ReadLimits = {}): Promise<ChunkedFile> {
		const handle = await open(path, "r");
		try {
			return new ChunkedFile(handle, (await handle.stat()).size, limits);
		} catch (error) {
			await handle.close();
			throw error;
		}
	}

	/** Bytes `[position, position + length)`, in a fresh buffer. */
	async read(position: number, length: number): Promise<Buffer> {
		const bytes = Buffer.allocUnsafe(length);
		const { bytesRead } = await this.#handle.read(bytes, 0, length, position);
		return bytes.subarray(0, bytesRead);
	}

	/** Bytes into one reused chunk buffer: the line scan copies what it keeps. */
	async #readChunk(position: number, length: number): Promise<Buffer> {
		this.#buffer ??= Buffer.allocUnsafe(this.#limits.chunkBytes ?? CHUNK_BYTES);
		const { bytesRead } = await this.#handle.read(this.#buffer, 0, length, position);
		return this.#buffer.subarray(0, bytesRead);
	}

	/**
	 * Calls `onLine` for each line from `from` (a line boundary) on; `onLine` returning false stops the
	 * scan after the current chunk. `beforeRead` runs between chunks, when the lines read so far were
	 * all reported: a writer can drain what they queued, so memory stays at a chunk's worth.
	 */
	scan(onLine: (line: ScannedLine) => boolean | undefined, from: ScanFrom = {}): Promise<LineScanEnd> {
		let stopped = false;
		const { beforeRead } = from;
		return scanLines(
			async (position, length) => {
				if (stopped) return Buffer.alloc(0);
				if (beforeRead) await beforeRead();
				return this.#readChunk(position, length);
			},
			this.size,
			(line) => {
				if (!stopped && onLine(line) === false) stopped = true;
			},
			{
				from: from.from,
				firstLineNumber: from.firstLineNumber,
				maxLineBytes: this.#limits.maxLineBytes,
				chunkBytes: this.#limits.chunkBytes,
			},
		);
	}

	/** Copies bytes `[start, end)` to `write` a chunk at a time. */
	async copyRange(start: number, end: number, write: (bytes: Buffer) => Promise<void>): Promise<void> {
		const chunk = this.#limits.chunkBytes ?? CHUNK_BYTES;
		for (let at = start; at < end; ) {
			const bytes = await this.#readChunk(at, Math.min(chunk, end - at));
			if (bytes.length === 0) throw new Error(`the file shrank while it was read (at byte ${at})`);
			await write(bytes);
			at += bytes.length;
		}
	}

	async close(): Promise<void> {
		await this.#handle.close();
	}
}

/** Opens a file, runs `work` on it, and closes it whatever happens. */
export async function withChunkedFile<T>(
	path: string,
	limits: ReadLimits,
	work: (file: ChunkedFile) => Promise<T>,
): Promise<T> {
	const file = await ChunkedFile.open(path, limits);
	try {
		return await work(file);
	} finally {
		await file.close();
	}
}
