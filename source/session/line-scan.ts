/**
 * Reads a file line by line in fixed-size chunks, so no file is ever held as one string or one
 * buffer: sessions grow to gigabytes, past V8's longest string (0x1fffffe8 characters).
 */

/** The longest line that can be decoded at all: V8's string length limit (about 512 MiB). */
export const MAX_LINE_BYTES = 0x1fffffe8;

/** Bytes read per chunk. */
const CHUNK_BYTES = 4 << 20;

/** One line of the file: its text without the newline, or null when it is too long to decode. */
export interface ScannedLine {
	/** 1-based line number. */
	number: number;
	/** Byte offset of the line's first byte (after a leading BOM on line 1). */
	offset: number;
	/** Length in bytes, newline excluded. */
	length: number;
	/** null: longer than `maxLineBytes`; the bytes were skipped, never buffered. */
	text: string | null;
	/** The file's last line, with no newline after it (it may still be being written). */
	unterminated?: true;
	/**
	 * The line's bytes, for a line over `rawAbove` (its `text` then decodes them when asked). A view
	 * of the scan's buffer: valid only until the next batch of lines is asked for.
	 */
	readonly raw?: Buffer;
}

/** A line handed over as its bytes (`rawAbove`): decoded only if its text is asked for. */
class UndecodedLine implements ScannedLine {
	unterminated?: true;

	constructor(
		readonly number: number,
		readonly offset: number,
		readonly length: number,
		readonly raw: Buffer,
	) {}

	#text: string | undefined;

	get text(): string {
		this.#text ??= this.raw.toString("utf8");
		return this.#text;
	}
}

/** How the scan ended. */
export interface LineScanEnd {
	/** The file does not end with a newline: its last line may be torn. */
	missingFinalNewline: boolean;
	/** Bytes scanned (the file's size when the scan began, plus nothing read past it). */
	endOffset: number;
	/** Number of the line after the last one (1 + lines seen). */
	nextLineNumber: number;
}

/** Where and how a scan reads. */
export interface LineScanOptions {
	/** Byte offset to start at (a line boundary); default 0. */
	from?: number;
	/** Number of the first line read; default 1. */
	firstLineNumber?: number;
	/** Longer lines are reported with `text: null` (default `MAX_LINE_BYTES`). */
	maxLineBytes?: number;
	/** Bytes per read (default 4 MiB). */
	chunkBytes?: number;
	/** Checked between chunks; an aborted scan rejects with the signal's reason. */
	signal?: AbortSignal;
	/** Called after each chunk with the bytes read so far and the total. */
	onProgress?: (bytesRead: number, total: number) => void;
	/** A leading byte-order mark stays part of line 1 (the session index keeps the header's bytes as they are). */
	keepBom?: boolean;
	/**
	 * Reads the next chunk while this one's lines are reported (as a read stream reads ahead): a big
	 * open's parse no longer waits for each read. Only for a reader that reads into the buffer it is
	 * given (or a fresh one) and needs no pause between chunks.
	 */
	readAhead?: boolean;
	/** Lines longer than this many bytes come undecoded (`ScannedLine.raw`), for a reader that may need only part of them. */
	rawAbove?: number;
}

/**
 * Reads up to `length` bytes at `position` (fewer at the end of the file); with `into`, it may read
 * into that buffer: the scan reuses its chunk buffers (a new 4 MB buffer per chunk was tens of MB of
 * garbage at a big open's peak).
 */
export type ReadAt = (position: number, length: number, into?: Buffer) => Promise<Buffer>;

const NEWLINE = 0x0a;

/** Lines handed over at a time by `lineBatches`. */
const BATCH_LINES = 16;

/**
 * Calls `onLine` for every line of the first `size` bytes, in order. Lines are decoded one at a
 * time from the chunk that holds them; a line split across chunks is joined from its pieces.
 */
export async function scanLines(
	readAt: ReadAt,
	size: number,
	onLine: (line: ScannedLine) => void,
	options: LineScanOptions = {},
): Promise<LineScanEnd> {
	const batches = lineBatches(readAt, size, options);
	for (;;) {
		const next = await batches.next();
		if (next.done) return next.value;
		for (const line of next.value) onLine(line);
	}
}

/**
 * The lines of the first `size` bytes, a few at a time (one await per batch, not per line);
 * returns how the scan ended. What `scanLines` and the session index read with.
 */
export async function* lineBatches(
	readAt: ReadAt,
	size: number,
	options: LineScanOptions = {},
): AsyncGenerator<ScannedLine[], LineScanEnd, undefined> {
	const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
	const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
	const rawAbove = options.rawAbove ?? Number.POSITIVE_INFINITY;
	let position = options.from ?? 0;
	let number = options.firstLineNumber ?? 1;
	// The current line's pieces from earlier chunks; skipping = the line is too long and is dropped.
	let pieces: Buffer[] = [];
	let pendingBytes = 0;
	let lineStart = position;
	let skipping = false;
	let bomChecked = position > 0 || options.keepBom === true;
	let batch: ScannedLine[] = [];
	// Every line of a chunk is decoded (or its rest copied) before its buffer is read into again; with
	// `readAhead`, two buffers take turns, one being read while the other's lines are reported.
	const bufferBytes = Math.min(chunkBytes, Math.max(0, size - position));
	const buffers = options.readAhead
		? [Buffer.allocUnsafe(bufferBytes), Buffer.allocUnsafe(bufferBytes)]
		: [Buffer.allocUnsafe(bufferBytes)];
	let turn = 0;
	const readFrom = (at: number): Promise<Buffer> | undefined => {
		if (at >= size) return undefined;
		turn = (turn + 1) % buffers.length;
		return readAt(at, Math.min(chunkBytes, size - at), buffers[turn]);
	};
	let ahead = readFrom(position);

	const emit = (last: Buffer | undefined, end: number): ScannedLine => {
		const length = end - lineStart;
		let line: ScannedLine = { number, offset: lineStart, length, text: null };
		if (!skipping && length <= maxLine) {
			const bytes = pieces.length === 0 ? last! : Buffer.concat(last ? [...pieces, last] : pieces);
			line =
				length > rawAbove
					? new UndecodedLine(number, lineStart, length, bytes)
					: { number, offset: lineStart, length, text: bytes.toString("utf8") };
		}
		batch.push(line);
		number++;
		pieces = [];
		pendingBytes = 0;
		skipping = false;
		return line;
	};

	try {
		while (ahead) {
			if (options.signal?.aborted) throw options.signal.reason;
			const chunk = await ahead;
			ahead = undefined;
			if (chunk.length === 0) break;
			if (options.readAhead) ahead = readFrom(position + chunk.length);
			let start = 0;
			if (!bomChecked) {
				bomChecked = true;
				if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
					start = 3;
					lineStart = position + 3;
				}
			}
			for (let at = chunk.indexOf(NEWLINE, start); at >= 0; at = chunk.indexOf(NEWLINE, start)) {
				emit(chunk.subarray(start, at), position + at);
				start = at + 1;
				lineStart = position + start;
				// A few lines at a time: decoding a whole chunk's lines before any is used kept megabytes of
				// text alive past the young generation (a 32 MB open took 50 MB more).
				if (batch.length >= BATCH_LINES) {
					yield batch;
					batch = [];
				}
			}
			if (start < chunk.length && !skipping) {
				const rest = chunk.subarray(start);
				pendingBytes += rest.length;
				// A line past the limit can never be decoded: stop holding its bytes.
				if (pendingBytes > maxLine) {
					skipping = true;
					pieces = [];
				} else {
					// Copied: the chunk buffer may be reused by the reader.
					pieces.push(Buffer.from(rest));
				}
			}
			position += chunk.length;
			options.onProgress?.(position, size);
			if (batch.length > 0) {
				yield batch;
				batch = [];
			}
			ahead ??= readFrom(position);
		}
	} finally {
		// A read still running when the scan stops (aborted, or the caller stopped early) must not fail unheard.
		ahead?.catch(() => undefined);
	}
	const missingFinalNewline = position > lineStart;
	if (missingFinalNewline) emit(pieces.length === 0 ? Buffer.alloc(0) : undefined, position).unterminated = true;
	if (batch.length > 0) yield batch;
	return { missingFinalNewline, endOffset: position, nextLineNumber: number };
}
