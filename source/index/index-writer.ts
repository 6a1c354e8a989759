import type Database from "better-sqlite3";
import type { LocatedText, SessionRow } from "./session-scan.js";

/** One file's new state, waiting to be written with others in a single transaction. */
export interface PendingStore {
	row: SessionRow;
	texts: readonly LocatedText[];
	/** The file was read from its start: whatever the index held for it is replaced. */
	full: boolean;
	compacted: readonly string[];
	/** The row the read started from; the write is skipped if another xcsh changed it meanwhile. */
	base: SessionRow | undefined;
}

const COLUMNS = [
	"path",
	"dir",
	"id",
	"cwd",
	"title",
	"created",
	"modified",
	"size",
	"indexed_bytes",
	"message_count",
	"first_prompt",
	"last_activity",
	"parent_session",
	"header_line",
	"inode",
] as const;

// An upsert keeps the row's sid, which the session's entries refer to.
const UPSERT_SQL = `INSERT INTO sessions (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map((c) => `@${c}`).join(", ")})
	ON CONFLICT(path) DO UPDATE SET ${COLUMNS.slice(1)
		.map((c) => `${c} = excluded.${c}`)
		.join(", ")}
	RETURNING sid`;

// Another xcsh may have indexed the file between our read and our write: then its row stands.
function sameVersion(current: SessionRow | undefined, base: SessionRow | undefined): boolean {
	if (current === undefined || base === undefined) return current === base;
	return (
		current.indexed_bytes === base.indexed_bytes && current.modified === base.modified && current.size === base.size
	);
}

/** The statements that change the index; callers wrap them in transactions. */
export class IndexWriter {
	readonly #current: Database.Statement<[string], SessionRow>;
	readonly #upsert: Database.Statement<SessionRow, { sid: number }>;
	readonly #sidOf: Database.Statement<[string], { sid: number }>;
	readonly #insertEntry: Database.Statement<[number, string | null, string, number, number, number]>;
	readonly #insertFts: Database.Statement<[number | bigint, string | Uint8Array]>;
	readonly #countOrphans: Database.Statement<[number]>;
	readonly #deleteEntries: Database.Statement<[number]>;
	readonly #deleteCompacted: Database.Statement<[number]>;
	readonly #insertCompacted: Database.Statement<[number, string]>;
	readonly #deleteSession: Database.Statement<[number]>;
	readonly #db: Database.Database;

	constructor(db: Database.Database) {
		this.#db = db;
		this.#current = db.prepare("SELECT * FROM sessions WHERE path = ?");
		this.#upsert = db.prepare(UPSERT_SQL);
		this.#sidOf = db.prepare("SELECT sid FROM sessions WHERE path = ?");
		this.#insertEntry = db.prepare(
			"INSERT INTO entries (sid, entry_id, role, timestamp, line_start, line_end) VALUES (?, ?, ?, ?, ?, ?)",
		);
		this.#insertFts = db.prepare("INSERT INTO entries_fts (rowid, text) VALUES (?, ?)");
		this.#countOrphans = db.prepare(
			"INSERT INTO meta (key, value) VALUES ('orphans', ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
		);
		this.#deleteEntries = db.prepare("DELETE FROM entries WHERE sid = ?");
		this.#deleteCompacted = db.prepare("DELETE FROM compacted WHERE sid = ?");
		this.#insertCompacted = db.prepare("INSERT OR IGNORE INTO compacted (sid, entry_id) VALUES (?, ?)");
		this.#deleteSession = db.prepare("DELETE FROM sessions WHERE sid = ?");
	}

	/** Writes every pending file in one transaction (one commit is far cheaper than one per file). */
	storeAll(pending: readonly PendingStore[]): void {
		if (pending.length === 0) return;
		this.#db
			.transaction(() => {
				for (const item of pending) this.#store(item);
			})
			.immediate();
	}

	/** Removes sessions and everything indexed for them. */
	forgetAll(paths: readonly string[]): void {
		if (paths.length === 0) return;
		this.#db.transaction(() => {
			for (const path of paths) {
				const sid = this.#sidOf.get(path)?.sid;
				if (sid === undefined) continue;
				this.#forgetEntries(sid);
				this.#deleteSession.run(sid);
			}
		})();
	}

	#store({ row, texts, full, compacted, base }: PendingStore): void {
		if (!sameVersion(this.#current.get(row.path), base)) return;
		const existing = this.#sidOf.get(row.path)?.sid;
		if (full && existing !== undefined) this.#forgetEntries(existing);
		const sid = this.#upsert.get(row)?.sid;
		if (sid === undefined) throw new Error(`index upsert of ${row.path} returned no row`);
		const indexedIds = new Set<string>();
		for (const text of texts) {
			const { lastInsertRowid } = this.#insertEntry.run(
				sid,
				text.entryId,
				text.role,
				text.timestamp,
				text.lineStart,
				text.lineEnd,
			);
			this.#insertFts.run(lastInsertRowid, text.text);
			if (text.entryId !== null) indexedIds.add(text.entryId);
		}
		// Only entries that can be a search hit need the mark.
		for (const id of compacted) if (indexedIds.has(id)) this.#insertCompacted.run(sid, id);
	}

	/** Drops a session's entries; their FTS rows stay behind as orphans no join finds (see index-db.ts). */
	#forgetEntries(sid: number): void {
		const { changes } = this.#deleteEntries.run(sid);
		if (changes > 0) this.#countOrphans.run(changes);
		this.#deleteCompacted.run(sid);
	}
}
