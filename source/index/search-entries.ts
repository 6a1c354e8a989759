import type Database from "better-sqlite3";
import { toFtsQuery } from "../session/history-storage.js";
import type { IndexedRole } from "./entry-text.js";

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
	snippet: string;
	id: string;
	title: string | null;
	cwd: string;
}

const DEFAULT_LIMIT = 20;
// Tokens of context either side of a hit: about one terminal line.
const SNIPPET_TOKENS = 16;

function toMs(value: Date | number): number {
	return value instanceof Date ? value.getTime() : value;
}

function toHit(row: HitRow): SearchHit {
	const hit: SearchHit = {
		sessionPath: row.session_path,
		sessionId: row.id,
		cwd: row.cwd,
		entryId: row.entry_id,
		role: row.role,
		timestamp: row.timestamp,
		snippet: row.snippet.replace(/\s+/g, " ").trim(),
		compacted: false,
	};
	if (row.title !== null) hit.title = row.title;
	return hit;
}

/** Entries matching every word of `query` as a prefix, best bm25 first; never throws on odd input. */
export function searchEntries(db: Database.Database, query: string, options: SearchOptions): SearchHit[] {
	const fts = toFtsQuery(query);
	const limit = Math.floor(options.limit ?? DEFAULT_LIMIT);
	if (fts === undefined || !(limit > 0)) return [];
	const where = ["entries_fts MATCH @fts"];
	const params: Record<string, string | number> = { fts, limit };
	if (options.cwd !== undefined) {
		where.push("s.cwd = @cwd");
		params.cwd = options.cwd;
	}
	if (options.role !== undefined) {
		where.push("f.role = @role");
		params.role = options.role;
	}
	if (options.since !== undefined) {
		where.push("f.timestamp >= @since");
		params.since = toMs(options.since);
	}
	if (options.until !== undefined) {
		where.push("f.timestamp <= @until");
		params.until = toMs(options.until);
	}
	const sql = `SELECT f.session_path, f.entry_id, f.role, f.timestamp,
			snippet(entries_fts, 0, '[', ']', '…', ${SNIPPET_TOKENS}) AS snippet, s.id, s.title, s.cwd
		FROM entries_fts f JOIN sessions s ON s.path = f.session_path
		WHERE ${where.join(" AND ")}
		ORDER BY bm25(entries_fts), f.timestamp DESC LIMIT @limit`;
	try {
		return db.prepare<Record<string, string | number>, HitRow>(sql).all(params).map(toHit);
	} catch {
		// toFtsQuery leaves nothing SQLite can reject; this is only a last guard for search-as-you-type.
		return [];
	}
}
