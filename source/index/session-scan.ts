import { dirname } from "node:path";
import { isSessionHeader, locateHeaderLine } from "../session/session-header.js";
import { entryTime, type IndexedText, indexedTextOf, promptOf } from "./entry-text.js";
import { completeLines, type ReadStats, readBytes } from "./file-lines.js";

/** The parts of a file's stat the scan uses (plain data, so it can cross to a worker thread). */
export interface FileStat {
	size: number;
	mtimeMs: number;
	ino: number;
	birthtimeMs: number;
}

/** A row of the `sessions` table. */
export interface SessionRow {
	path: string;
	/** The directory holding the file (a project's session dir). */
	dir: string;
	id: string;
	cwd: string;
	title: string | null;
	/** Epoch ms of the header timestamp. */
	created: number;
	/** mtimeMs of the file when it was last read. */
	modified: number;
	size: number;
	/** Bytes up to and including the last complete line that was indexed. */
	indexed_bytes: number;
	message_count: number;
	first_prompt: string;
	last_activity: number | null;
	parent_session: string | null;
	header_line: string;
	inode: number;
}

/**
 * Indexed text and the byte range of its line, where the snippet is read back from. From the
 * parser thread the text arrives as UTF-8 bytes (one transferred buffer per file), which SQLite
 * tokenises as they are: no strings to decode, re-encode and collect on the writing thread.
 */
export interface LocatedText extends Omit<IndexedText, "text"> {
	text: string | Uint8Array;
	lineStart: number;
	lineEnd: number;
}

/** What looking at one session file found. */
export type SessionScan =
	| { kind: "unchanged" }
	| { kind: "notSession" }
	| { kind: "read"; full: boolean; row: SessionRow; texts: LocatedText[]; compacted: string[] };

interface CompactionMark {
	parentId: string | null;
	firstKeptEntryId: string | undefined;
}

/** What a full read remembers of the tree to tell which entries compactions summarised away. */
class TreeTracker {
	readonly #parents = new Map<string, string | null>();
	readonly #compactions: CompactionMark[] = [];

	add(entry: Record<string, unknown>): void {
		if (typeof entry.id !== "string") return;
		const parentId = typeof entry.parentId === "string" ? entry.parentId : null;
		this.#parents.set(entry.id, parentId);
		if (entry.type === "compaction") {
			const firstKept = typeof entry.firstKeptEntryId === "string" ? entry.firstKeptEntryId : undefined;
			this.#compactions.push({ parentId, firstKeptEntryId: firstKept });
		}
	}

	/** Ids on each compaction's path before its first kept entry: the model sees only their summary. */
	compacted(): string[] {
		const out = new Set<string>();
		for (const mark of this.#compactions) {
			const path: string[] = [];
			const seen = new Set<string>();
			for (let id = mark.parentId; id !== null && !seen.has(id); id = this.#parents.get(id) ?? null) {
				seen.add(id);
				path.push(id);
			}
			path.reverse();
			for (const id of path) {
				if (id === mark.firstKeptEntryId) break;
				out.add(id);
			}
		}
		return [...out];
	}
}

function parseObject(line: string): Record<string, unknown> | undefined {
	if (line.trim().length === 0) return undefined;
	try {
		const value: unknown = JSON.parse(line);
		return typeof value === "object" && value !== null && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		// a torn or hand-edited line: the loader skips it too
		return undefined;
	}
}

/** `headerText` is the file's text up to the header line's end: blank lines and a BOM before it included. */
function headerRow(path: string, headerText: string, stat: FileStat, next: number): SessionRow | undefined {
	const location = locateHeaderLine(headerText);
	const header = location ? parseObject(location.line) : undefined;
	if (!isSessionHeader(header)) return undefined;
	const created = Date.parse(header.timestamp);
	return {
		path,
		dir: dirname(path),
		id: header.id,
		cwd: typeof header.cwd === "string" ? header.cwd : "",
		title: typeof header.title === "string" ? header.title : null,
		created: Number.isNaN(created) ? stat.birthtimeMs || stat.mtimeMs : created,
		modified: stat.mtimeMs,
		size: stat.size,
		indexed_bytes: next,
		message_count: 0,
		first_prompt: "",
		last_activity: null,
		parent_session: typeof header.parentSession === "string" ? header.parentSession : null,
		header_line: headerText,
		inode: stat.ino,
	};
}

/**
 * Sessions are append-only, so a file can be read from where the last refresh stopped unless it
 * shrank, was replaced (new inode: atomic rewrites rename over it), or its header line changed.
 */
async function canAppend(path: string, stat: FileStat, base: SessionRow, stats: ReadStats): Promise<boolean> {
	if (stat.size < base.size || stat.ino !== base.inode) return false;
	const expected = Buffer.from(`${base.header_line}\n`);
	const head = await readBytes(path, 0, expected.length, stats);
	if (!head.equals(expected)) return false;
	if (base.indexed_bytes === expected.length) return true;
	const before = await readBytes(path, base.indexed_bytes - 1, 1, stats);
	return before[0] === 0x0a;
}

function applyEntry(row: SessionRow, entry: Record<string, unknown>): IndexedText | undefined {
	if (entry.type === "message") row.message_count++;
	if (row.first_prompt === "") row.first_prompt = promptOf(entry) ?? "";
	const time = entryTime(entry);
	if (time !== undefined && (row.last_activity === null || time > row.last_activity)) row.last_activity = time;
	return indexedTextOf(entry);
}

/** True when the stat matches the stored row: the file needs no read. */
export function isUnchanged(
	stat: FileStat,
	base: Pick<SessionRow, "size" | "modified" | "inode"> | undefined,
): boolean {
	return base !== undefined && base.size === stat.size && base.modified === stat.mtimeMs && base.inode === stat.ino;
}

/** Reads what changed in one session file since `base` (the stored row), or all of it. */
export async function scanSessionFile(
	path: string,
	stat: FileStat,
	base: SessionRow | undefined,
	stats: ReadStats,
): Promise<SessionScan> {
	if (isUnchanged(stat, base)) return { kind: "unchanged" };
	const from = base !== undefined && (await canAppend(path, stat, base, stats)) ? base : undefined;
	const scan = await readFrom(path, stat, from, stats);
	// A compaction's summarised entries are its ancestors, which an append-only read never saw.
	if (scan !== "compactionAppended") return scan;
	const full = await readFrom(path, stat, undefined, stats);
	return full === "compactionAppended" ? { kind: "notSession" } : full;
}

async function readFrom(
	path: string,
	stat: FileStat,
	from: SessionRow | undefined,
	stats: ReadStats,
): Promise<SessionScan | "compactionAppended"> {
	let row: SessionRow | undefined = from ? { ...from, size: stat.size, modified: stat.mtimeMs } : undefined;
	const texts: LocatedText[] = [];
	const tree = from ? undefined : new TreeTracker();
	let lineStart = from?.indexed_bytes ?? 0;
	// Blank lines (and a BOM) before the header are kept in header_line, so an append is still recognised.
	let beforeHeader = "";
	for await (const { line, next } of completeLines(path, lineStart, stat.size, stats)) {
		const start = lineStart;
		lineStart = next;
		// A line too long to decode is no header, and no entry to index.
		if (line === null) {
			if (row === undefined) return { kind: "notSession" };
			row.indexed_bytes = next;
			continue;
		}
		if (row === undefined) {
			if (line.trim().length === 0) {
				beforeHeader += `${line}\n`;
				continue;
			}
			row = headerRow(path, beforeHeader + line, stat, next);
			if (row === undefined) return { kind: "notSession" };
			continue;
		}
		row.indexed_bytes = next;
		const entry = parseObject(line);
		if (!entry) continue;
		if (tree) tree.add(entry);
		else if (entry.type === "compaction") return "compactionAppended";
		const text = applyEntry(row, entry);
		if (text) texts.push({ ...text, lineStart: start, lineEnd: next - 1 });
	}
	// No complete header line yet: the file is still being created.
	if (row === undefined) return { kind: "notSession" };
	return { kind: "read", full: from === undefined, row, texts, compacted: tree?.compacted() ?? [] };
}
