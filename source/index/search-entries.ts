import { closeSync, openSync, readSync } from "node:fs";
import type Database from "better-sqlite3";
import { type IndexedRole, indexedTextOf } from "./entry-text.js";
import { queryTerms, toMatchExpression } from "./fts-terms.js";
import { buildSnippet } from "./snippet.js";
/** Filters of `search()`. */
export interface SearchOptions {
	/** Only sessions whose header cwd is exactly this. */
	cwd?: string | undefined;
	role?: IndexedRole | undefined;
	/** Entries at or after this time (Date or epoch ms). */
	since?: Date | number | undefined;
	/** Entries at or before this time (Date or epoch ms). */
	until?: Date | number | undefined;
	/** Default 20. */
	limit?: number | undefined;
}

/** One matching entry. */
export interface SearchHit {
	sessionPath: string;
	sessionId: string;
	title?: string;
	cwd: string;
	entryId: string | null;
	role: IndexedRole;
	/** Epoch milliseconds. */
	timestamp: number;
	/** The matching text around the hit, with matched terms in `[` `]`. */
	snippet: string;
	/** True when a later compaction summarised this entry away: the model no longer sees it. */
	compacted: boolean;
}

interface HitRow {
	session_path: string;
	entry_id: string | null;
	role: IndexedRole;
	timestamp: number;
	line_start: number;
	line_end: number;
	id: string;
	title: string | null;
	cwd: string;
	compacted: 0 | 1;
}

interface Candidate {
	rowid: number;
	role: IndexedRole;
	timestamp: number;
}

// What people typed first, then the answers, then tool output (the noisiest text).
const ROLE_RANK: Record<IndexedRole, number> = { user: 0, assistant: 1, toolResult: 2 };

const DEFAULT_LIMIT = 20;
/**
 * Ranking every match of a common word costs time in proportion to the whole history; only the
 * newest matches (row ids follow time) are ranked, which keeps a search within a few ms at any size.
 */
const RANKED_WINDOW = 1000;
// A line longer than this is not read back for its snippet (an inline image, a huge paste).
const MAX_SNIPPET_LINE_BYTES = 4 << 20;

function toMs(value: Date | number): number {
	return value instanceof Date ? value.getTime() : value;
}

/** The entry's text, read back from its line in the session file; "" if the file changed since. */
function textAt(row: HitRow): string {
	const length = row.line_end - row.line_start;
	if (length <= 0 || length > MAX_SNIPPET_LINE_BYTES) return "";
	let fd: number | undefined;
	try {
		fd = openSync(row.session_path, "r");
		const buffer = Buffer.alloc(length);
		const read = readSync(fd, buffer, 0, length, row.line_start);
		const entry: unknown = JSON.parse(buffer.toString("utf8", 0, read));
		if (typeof entry !== "object" || entry === null) return "";
		const record = entry as Record<string, unknown>;
		if (row.entry_id !== null && record.id !== row.entry_id) return "";
		return indexedTextOf(record)?.text ?? "";
	} catch {
		// deleted or rewritten since it was indexed: the next refresh catches up
		return "";
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

function toHit(row: HitRow, terms: readonly string[]): SearchHit {
	const hit: SearchHit = {
		sessionPath: row.session_path,
		sessionId: row.id,
		cwd: row.cwd,
		entryId: row.entry_id,
		role: row.role,
		timestamp: row.timestamp,
		snippet: buildSnippet(textAt(row), terms),
		compacted: row.compacted === 1,
	};
	if (row.title !== null) hit.title = row.title;
	return hit;
}

function filtersOf(options: SearchOptions): { where: string[]; params: Record<string, string | number> } {
	const where: string[] = [];
	const params: Record<string, string | number> = {};
	if (options.cwd !== undefined) {
		where.push("s.cwd = @cwd");
		params.cwd = options.cwd;
	}
	if (options.role !== undefined) {
		where.push("e.role = @role");
		params.role = options.role;
	}
	if (options.since !== undefined) {
		where.push("e.timestamp >= @since");
		params.since = toMs(options.since);
	}
	if (options.until !== undefined) {
		where.push("e.timestamp <= @until");
		params.until = toMs(options.until);
	}
	return { where, params };
}

const DETAIL_SQL = `SELECT s.path AS session_path, e.entry_id, e.role, e.timestamp, e.line_start, e.line_end,
		s.id, s.title, s.cwd,
		EXISTS (SELECT 1 FROM compacted c WHERE c.sid = e.sid AND c.entry_id = e.entry_id) AS compacted
	FROM entries e JOIN sessions s ON s.sid = e.sid WHERE e.id = ?`;

/**
 * Entries matching every word of `query` (the last one also as a prefix): prompts, then answers, then tool output, each
 * newest first. The index keeps no word positions (that halves its size and build time), so there is
 * no term-frequency ranking. Never throws on odd input.
 */
export function searchEntries(db: Database.Database, query: string, options: SearchOptions): SearchHit[] {
	const terms = queryTerms(query);
	const match = toMatchExpression(terms);
	const limit = Math.floor(options.limit ?? DEFAULT_LIMIT);
	if (match === undefined || !(limit > 0)) return [];
	const { where, params } = filtersOf(options);
	const candidatesSql = `SELECT entries_fts.rowid AS rowid, e.role AS role, e.timestamp AS timestamp
		FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid JOIN sessions s ON s.sid = e.sid
		WHERE ${["entries_fts MATCH @match", ...where].join(" AND ")}
		ORDER BY entries_fts.rowid DESC LIMIT @window`;
	try {
		const candidates = db
			.prepare<Record<string, string | number>, Candidate>(candidatesSql)
			.all({ ...params, match, window: Math.max(RANKED_WINDOW, limit) });
		candidates.sort((a, b) => ROLE_RANK[a.role] - ROLE_RANK[b.role] || b.timestamp - a.timestamp || b.rowid - a.rowid);
		const detail = db.prepare<[number], HitRow>(DETAIL_SQL);
		const hits: SearchHit[] = [];
		for (const { rowid } of candidates.slice(0, limit)) {
			const row = detail.get(rowid);
			if (row) hits.push(toHit(row, terms));
		}
		return hits;
	} catch {
		// The match expression is built from single tokens only; this is a last guard for search-as-you-type.
		return [];
	}
}
