import { type LineScanEnd, type ScannedLine, scanLines } from "./line-scan.js";
import { SKIM_LINES_ABOVE_BYTES } from "./line-skim.js";
import { isSessionHeader, type VersionCheck } from "./session-header.js";
import { MESSAGE_WITHOUT_MESSAGE, SessionLineParser, type SessionRead } from "./session-lines.js";
import { FileSessionStorage, type SessionStorage } from "./session-storage.js";
import type { ScanCoverage, SkeletonResume } from "./skeleton-cache.js";
import { SkeletonColumns } from "./skeleton-columns.js";
import type { FileEntry, JsonlLineError, StoredEntry } from "./types.js";

/** What reading a session file found. */
export type SessionFileRead =
	| { kind: "missing" }
	| { kind: "empty" }
	| { kind: "invalid"; reason: string }
	| {
			kind: "ok";
			/** Header first, then entries in file order. */
			entries: FileEntry[];
			/** Lines that were skipped: unparseable, too long, not objects, without a type or id, or duplicate ids. */
			skipped: JsonlLineError[];
			/** The file does not end with a newline: the next append must start a new line first. */
			missingFinalNewline: boolean;
			/** What the header's version says, read with the entries (a damaged one keeps the tree). */
			version: VersionCheck;
	  };

export type { ScanCoverage, SkeletonResume };
export { isSessionHeader, MESSAGE_WITHOUT_MESSAGE };

/** Reading was stopped by the person (Escape or Ctrl+C): nothing was opened or changed. */
export class ReadCancelledError extends Error {
	constructor(what: string) {
		super(`Stopped reading ${what}: nothing was opened or changed`);
		this.name = "ReadCancelledError";
	}
}

/** How a streaming read reports and stops. */
export interface ReadProgress {
	signal?: AbortSignal;
	/** Called after each chunk read, with bytes read and the file's size. */
	onProgress?: (bytesRead: number, total: number) => void;
	/** Called when a first read starts on a thread of its own (this thread is free until it ends), with the file's size. */
	onReadApart?: (bytes: number) => void;
}

/** A session read with its big entries left on disk, and how much of the file that covers. */
export type SessionSkeletonRead =
	| { kind: "missing" }
	| (SessionRead<StoredEntry[] | SkeletonColumns> & { covered?: ScanCoverage });

function toFileRead(read: SessionRead<StoredEntry[] | SkeletonColumns>): SessionFileRead {
	if (read.kind !== "ok") return read;
	const { header, entries, skipped, missingFinalNewline, version } = read;
	// A parser made without `lazy` keeps every entry as an object.
	if (entries instanceof SkeletonColumns) throw new Error("a full read made skeletons");
	return { kind: "ok", entries: [header, ...entries], skipped, missingFinalNewline, version };
}

/** Splits text into the lines a file scan would report (byte offsets included). */
function linesOfText(text: string, onLine: (line: ScannedLine) => boolean | undefined): LineScanEnd {
	let start = text.startsWith("\uFEFF") ? 1 : 0;
	let offset = start === 1 ? 3 : 0;
	let number = 1;
	while (start < text.length) {
		const newline = text.indexOf("\n", start);
		const end = newline < 0 ? text.length : newline;
		const line = text.slice(start, end);
		const length = Buffer.byteLength(line);
		if (onLine({ number, offset, length, text: line }) === false) break;
		number++;
		offset += length + 1;
		start = end + 1;
	}
	return { missingFinalNewline: text.length > 0 && !text.endsWith("\n"), endOffset: offset, nextLineNumber: number };
}

/** Parses session text already in memory (tests, generators); files are read with `readSessionFile`. */
export function parseSessionText(raw: string): SessionFileRead {
	const parser = new SessionLineParser();
	const end = linesOfText(raw, (line) => parser.push(line));
	return toFileRead(parser.finish(end.missingFinalNewline));
}

/** Scans a file into a parser, stopping early once the file is known not to be a session. */
async function scanInto(
	path: string,
	storage: SessionStorage,
	parser: SessionLineParser,
	progress: ReadProgress,
	from: ScanCoverage = { bytes: 0, nextLineNumber: 1 },
	until?: number,
	rawAbove?: number,
): Promise<{ end: LineScanEnd; covered: ScanCoverage } | undefined> {
	const stat = storage.statSync(path);
	if (!stat) return undefined;
	const size = until === undefined ? stat.size : Math.min(until, stat.size);
	let stopped = false;
	let lastStart = from.bytes;
	// One open for the whole scan: an open and a close around each read made the read-ahead wait for
	// the main thread between them.
	const reader = storage.openChunkReader(path);
	let end: LineScanEnd;
	try {
		end = await scanLines(
			(position, length, into) => (stopped ? Promise.resolve(Buffer.alloc(0)) : reader.read(position, length, into)),
			size,
			(line) => {
				lastStart = line.offset;
				if (!stopped && !parser.push(line)) stopped = true;
			},
			{ ...progress, from: from.bytes, firstLineNumber: from.nextLineNumber, readAhead: true, rawAbove },
		);
	} finally {
		await reader.close();
	}
	const covered = end.missingFinalNewline
		? { bytes: lastStart, nextLineNumber: end.nextLineNumber - 1 }
		: { bytes: end.endOffset, nextLineNumber: end.nextLineNumber };
	return { end, covered };
}

/**
 * Reads and parses a session file line by line (never the whole file as one string), telling a
 * missing file from an empty or foreign one.
 */
export async function readSessionFile(
	path: string,
	storage: SessionStorage,
	progress: ReadProgress = {},
): Promise<SessionFileRead> {
	const parser = new SessionLineParser();
	const scanned = await scanInto(path, storage, parser, progress);
	if (!scanned) return { kind: "missing" };
	return toFileRead(parser.finish(scanned.end.missingFinalNewline));
}

/**
 * Like `readSessionFile`, but a v3 file's entries come back as skeletons whose big bodies stay on
 * disk; with `resume`, only the bytes after a cached skeleton are read; with `until`, no further than
 * that offset (a line boundary). With `forCache`, the read only makes a cache's bytes: a file that is
 * not v3 is read no further than its header (and comes back as invalid), and the columns keep the
 * room they grew (they are encoded and dropped).
 */
export async function readSessionSkeleton(
	path: string,
	storage: SessionStorage,
	progress: ReadProgress = {},
	resume?: SkeletonResume,
	options: { forCache?: boolean; until?: number } = {},
): Promise<SessionSkeletonRead> {
	const parser = resume
		? SessionLineParser.resume(resume.header, resume.columns, resume.skipped)
		: new SessionLineParser({ lazy: true, skeletonsOnly: options.forCache });
	// Its long lines are skimmed: a skeleton reads few of their strings.
	const scanned = await scanInto(
		path,
		storage,
		parser,
		progress,
		resume?.covered,
		options.until,
		SKIM_LINES_ABOVE_BYTES,
	);
	if (!scanned) return { kind: "missing" };
	return { ...parser.finish(scanned.end.missingFinalNewline, { trim: !options.forCache }), covered: scanned.covered };
}

/** The spec's loader: header + entries, or [] for a missing, empty or non-session file. */
export async function loadEntriesFromFile(
	path: string,
	storage: SessionStorage = new FileSessionStorage(),
): Promise<FileEntry[]> {
	const read = await readSessionFile(path, storage);
	return read.kind === "ok" ? read.entries : [];
}
