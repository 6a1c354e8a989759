import type { Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { allSessionDirs } from "../session/session-discovery.js";
import { FileSessionStorage } from "../session/session-storage.js";
import type { SessionInfo } from "../session/types.js";
import type { IndexedText } from "./entry-text.js";
import type { ReadStats } from "./file-lines.js";
import { deleteIndexDb, getIndexDbPath, isCorruptionError, openIndexDb } from "./index-db.js";
import { type SearchHit, type SearchOptions, searchEntries } from "./search-entries.js";
import { type SessionRow, scanSessionFile } from "./session-scan.js";

export type { IndexedRole } from "./entry-text.js";
export type { SearchHit, SearchOptions } from "./search-entries.js";

/** What one `refresh()` did, in files. */
export interface RefreshResult {
	added: number;
	updated: number;
	removed: number;
	unchanged: number;
}

/** A listed session: `SessionInfo` plus the time of its newest entry. */
export interface IndexedSessionInfo extends SessionInfo {
	lastActivity?: Date;
}

const UPSERT_SQL = `INSERT OR REPLACE INTO sessions
	(path, id, cwd, title, created, modified, size, indexed_bytes, message_count, first_prompt, last_activity,
	parent_session, header_line, inode)
	VALUES (@path, @id, @cwd, @title, @created, @modified, @size, @indexed_bytes, @message_count, @first_prompt,
	@last_activity, @parent_session, @header_line, @inode)`;

function toInfo(row: SessionRow): IndexedSessionInfo {
	const info: IndexedSessionInfo = {
		id: row.id,
		path: row.path,
		cwd: row.cwd,
		created: new Date(row.created),
		modified: new Date(row.modified),
		size: row.size,
		messageCount: row.message_count,
		firstMessage: row.first_prompt,
	};
	if (row.title !== null) info.title = row.title;
	if (row.parent_session !== null) info.parentSession = row.parent_session;
	if (row.last_activity !== null) info.lastActivity = new Date(row.last_activity);
	return info;
}

async function sessionFiles(): Promise<string[]> {
	const files: string[] = [];
	for (const dir of allSessionDirs(new FileSessionStorage())) {
		try {
			for (const name of await readdir(dir)) if (name.endsWith(".jsonl")) files.push(join(dir, name));
		} catch {
			// the directory went away while walking: its sessions are removed below
		}
	}
	return files;
}

async function statFile(path: string): Promise<Stats | undefined> {
	try {
		const found = await stat(path);
		return found.isFile() ? found : undefined;
	} catch {
		return undefined;
	}
}

// Another xcsh may have indexed the file between our read and our write: then its row stands.
function sameVersion(current: SessionRow | undefined, base: SessionRow | undefined): boolean {
	if (current === undefined || base === undefined) return current === base;
	return (
		current.indexed_bytes === base.indexed_bytes && current.modified === base.modified && current.size === base.size
	);
}

/**
 * A full-text index of every session's messages in `<agentDir>/index.db`. It is a cache of the
 * session files (never written to): a corrupt or missing database is rebuilt from them.
 */
export class SessionIndex {
	readonly dbPath: string;
	/** Cumulative bytes and files read from session files. */
	readonly stats: ReadStats = { bytesRead: 0, filesRead: 0 };
	#db: Database.Database;

	/** Opens (creating or rebuilding if needed) the index database. */
	constructor(dbPath: string = getIndexDbPath()) {
		this.dbPath = dbPath;
		this.#db = openIndexDb(dbPath);
	}

	/** Same as the constructor; reads better at call sites. */
	static open(dbPath?: string): SessionIndex {
		return new SessionIndex(dbPath);
	}

	/** Brings the index up to date with the session files, reading only what was appended since. */
	async refresh(): Promise<RefreshResult> {
		try {
			return await this.#refresh();
		} catch (error) {
			if (!isCorruptionError(error)) throw error;
			this.#rebuild();
			return this.#refresh();
		}
	}

	/** Indexed sessions newest first, optionally of one project only. */
	list(cwd?: string): IndexedSessionInfo[] {
		const rows =
			cwd === undefined
				? this.#db.prepare<[], SessionRow>("SELECT * FROM sessions ORDER BY modified DESC").all()
				: this.#db
						.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE cwd = ? ORDER BY modified DESC")
						.all(cwd);
		return rows.map(toInfo);
	}

	/** Entries matching every word of `query` as a prefix, best bm25 first; never throws on odd input. */
	search(query: string, options: SearchOptions = {}): SearchHit[] {
		return searchEntries(this.#db, query, options);
	}

	/** Closes the database. */
	close(): void {
		if (this.#db.open) this.#db.close();
	}

	#rebuild(): void {
		this.close();
		deleteIndexDb(this.dbPath);
		this.#db = openIndexDb(this.dbPath);
	}

	async #refresh(): Promise<RefreshResult> {
		const result: RefreshResult = { added: 0, updated: 0, removed: 0, unchanged: 0 };
		const known = new Map<string, SessionRow>();
		for (const row of this.#db.prepare<[], SessionRow>("SELECT * FROM sessions").all()) known.set(row.path, row);
		for (const path of await sessionFiles()) {
			const found = await statFile(path);
			if (!found) continue;
			const base = known.get(path);
			known.delete(path);
			const outcome = await this.#refreshFile(path, found, base);
			result[outcome]++;
		}
		for (const path of known.keys()) {
			this.#db.transaction(() => this.#forget(path))();
			result.removed++;
		}
		return result;
	}

	async #refreshFile(path: string, found: Stats, base: SessionRow | undefined): Promise<keyof RefreshResult> {
		let scan: Awaited<ReturnType<typeof scanSessionFile>>;
		try {
			scan = await scanSessionFile(path, found, base, this.stats);
		} catch (error) {
			// Deleted between the stat and the read: it is no longer a session.
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			scan = { kind: "notSession" };
		}
		switch (scan.kind) {
			case "unchanged":
				return "unchanged";
			case "notSession":
				if (!base) return "unchanged";
				this.#db.transaction(() => this.#forget(path))();
				return "removed";
			case "read": {
				const { full, row, texts } = scan;
				this.#db.transaction(() => this.#store(row, texts, full, base)).immediate();
				return base ? "updated" : "added";
			}
		}
	}

	#store(row: SessionRow, texts: readonly IndexedText[], full: boolean, base: SessionRow | undefined): void {
		const current = this.#db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE path = ?").get(row.path);
		if (!sameVersion(current, base)) return;
		if (full) this.#db.prepare("DELETE FROM entries_fts WHERE session_path = ?").run(row.path);
		this.#db.prepare(UPSERT_SQL).run(row);
		const insert = this.#db.prepare(
			"INSERT INTO entries_fts (text, session_path, entry_id, role, timestamp) VALUES (?, ?, ?, ?, ?)",
		);
		for (const text of texts) insert.run(text.text, row.path, text.entryId, text.role, text.timestamp);
	}

	#forget(path: string): void {
		this.#db.prepare("DELETE FROM entries_fts WHERE session_path = ?").run(path);
		this.#db.prepare("DELETE FROM sessions WHERE path = ?").run(path);
	}
}
