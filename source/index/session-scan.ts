import type { Stats } from "node:fs";
import { isSessionHeader } from "../session/session-loader.js";
import { entryTime, type IndexedText, indexedTextOf, promptOf } from "./entry-text.js";
import { completeLines, type ReadStats, readBytes } from "./file-lines.js";

/** A row of the `sessions` table. */
export interface SessionRow {
	path: string;
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

/** What looking at one session file found. */
export type SessionScan =
	| { kind: "unchanged" }
	| { kind: "notSession" }
	| { kind: "read"; full: boolean; row: SessionRow; texts: IndexedText[] };

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

function headerRow(path: string, line: string, stat: Stats, next: number): SessionRow | undefined {
	const header = parseObject(line);
	if (!isSessionHeader(header)) return undefined;
	const created = Date.parse(header.timestamp);
	return {
		path,
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
		header_line: line,
		inode: stat.ino,
	};
}

/**
 * Sessions are append-only, so a file can be read from where the last refresh stopped unless it
 * shrank, was replaced (new inode: atomic rewrites rename over it), or its header line changed.
 */
async function canAppend(path: string, stat: Stats, base: SessionRow, stats: ReadStats): Promise<boolean> {
	if (stat.size < base.size || stat.ino !== base.inode) return false;
	const expected = Buffer.from(`${base.header_line}\n`);
	const head = await readBytes(path, 0, expected.length, stats);
	if (!head.equals(expected)) return false;
	if (base.indexed_bytes === expected.length) return true;
	const before = await readBytes(path, base.indexed_bytes - 1, 1, stats);
	return before[0] === 0x0a;
}

function applyEntry(row: SessionRow, entry: Record<string, unknown>, texts: IndexedText[]): void {
	if (entry.type === "message") row.message_count++;
	if (row.first_prompt === "") row.first_prompt = promptOf(entry) ?? "";
	const time = entryTime(entry);
	if (time !== undefined && (row.last_activity === null || time > row.last_activity)) row.last_activity = time;
	const text = indexedTextOf(entry);
	if (text) texts.push(text);
}

/** Reads what changed in one session file since `base` (the stored row), or all of it. */
export async function scanSessionFile(
	path: string,
	stat: Stats,
	base: SessionRow | undefined,
	stats: ReadStats,
): Promise<SessionScan> {
	if (base && base.size === stat.size && base.modified === stat.mtimeMs && base.inode === stat.ino) {
		return { kind: "unchanged" };
	}
	const from = base !== undefined && (await canAppend(path, stat, base, stats)) ? base : undefined;
	let row: SessionRow | undefined = from ? { ...from, size: stat.size, modified: stat.mtimeMs } : undefined;
	const texts: IndexedText[] = [];
	for await (const { line, next } of completeLines(path, from?.indexed_bytes ?? 0, stat.size, stats)) {
		if (row === undefined) {
			row = headerRow(path, line, stat, next);
			if (row === undefined) return { kind: "notSession" };
			continue;
		}
		row.indexed_bytes = next;
		const entry = parseObject(line);
		if (entry) applyEntry(row, entry, texts);
	}
	// No complete header line yet: the file is still being created.
	if (row === undefined) return { kind: "notSession" };
	return { kind: "read", full: from === undefined, row, texts };
}
