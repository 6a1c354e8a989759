import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { getAgentDir } from "../agent-dir.js";
import { log } from "../logger.js";
import { ensurePrivateDirSync, precreatePrivateFile } from "../private-files.js";

/** `<agentDir>/index.db`; resolved per call so `XCSH_AGENT_DIR` set by tests is honoured. */
export function getIndexDbPath(): string {
	return join(getAgentDir(), "index.db");
}

// Bumped whenever the schema or what is indexed changes: an old index is simply rebuilt.
const SCHEMA_VERSION = 5;

// header_line and inode are how an append is told from a rewrite (rename, migration, new title).
// Entries refer to their session by a small integer: a path on each of millions of rows would be
// most of the index, and most of what a build writes.
// The FTS table keeps no text and no positions (contentless, detail=column): the text stays in the
// session files, found again through each entry's byte range, so the index is a small fraction of them.
// FTS rows are never deleted: FTS5's delete tombstones made every later prefix query up to four
// times slower. A session's old rows are orphaned instead (their `entries` rows go, so no join
// finds them; ids are AUTOINCREMENT so none is reused) and counted in `meta`; the index is rebuilt
// once orphans outnumber a quarter of the live rows.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
	sid INTEGER PRIMARY KEY,
	path TEXT NOT NULL UNIQUE,
	dir TEXT NOT NULL,
	id TEXT NOT NULL,
	cwd TEXT NOT NULL,
	title TEXT,
	created INTEGER NOT NULL,
	modified REAL NOT NULL,
	size INTEGER NOT NULL,
	indexed_bytes INTEGER NOT NULL,
	message_count INTEGER NOT NULL,
	first_prompt TEXT NOT NULL,
	last_activity INTEGER,
	parent_session TEXT,
	header_line TEXT NOT NULL,
	inode INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_cwd ON sessions(cwd, modified);
CREATE INDEX IF NOT EXISTS sessions_dir ON sessions(dir, modified);
CREATE INDEX IF NOT EXISTS sessions_modified ON sessions(modified);
CREATE TABLE IF NOT EXISTS entries (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	sid INTEGER NOT NULL,
	entry_id TEXT,
	role TEXT NOT NULL,
	timestamp INTEGER NOT NULL,
	line_start INTEGER NOT NULL,
	line_end INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_session ON entries(sid);
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5(
	text,
	content='',
	columnsize=0,
	detail=column,
	tokenize='unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS meta (
	key TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS compacted (
	sid INTEGER NOT NULL,
	entry_id TEXT NOT NULL,
	PRIMARY KEY (sid, entry_id)
) WITHOUT ROWID;
`;

const DROP = `DROP TABLE IF EXISTS sessions; DROP TABLE IF EXISTS entries_fts; DROP TABLE IF EXISTS entries;
	DROP TABLE IF EXISTS compacted; DROP TABLE IF EXISTS meta;`;

/** True for the errors that mean the database file itself is unusable. */
export function isCorruptionError(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT_VTAB";
}

function removeDbFiles(path: string): void {
	for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
}

function openOnce(path: string): Database.Database {
	// The index holds the sessions' text: SQLite gives its -wal and -shm files this file's mode.
	precreatePrivateFile(path);
	const db = new Database(path);
	try {
		// WAL lets a running xcsh refresh the index while another one searches it.
		db.pragma("journal_mode = WAL");
		db.pragma("synchronous = NORMAL");
		db.pragma("busy_timeout = 5000");
		const version = db.pragma("user_version", { simple: true });
		if (version !== SCHEMA_VERSION) {
			db.exec(DROP);
			db.exec(SCHEMA);
			db.pragma(`user_version = ${SCHEMA_VERSION}`);
		}
		return db;
	} catch (error) {
		db.close();
		throw error;
	}
}

/** Opens the index; a corrupt or foreign file is deleted and rebuilt, since the index is only a cache. */
export function openIndexDb(path: string): Database.Database {
	ensurePrivateDirSync(dirname(path));
	try {
		return openOnce(path);
	} catch (error) {
		if (!isCorruptionError(error)) throw error;
		log.warn(`session index ${path} is unreadable, rebuilding it`);
		removeDbFiles(path);
		return openOnce(path);
	}
}

/** Deletes the index files so the next open starts empty. */
export function deleteIndexDb(path: string): void {
	removeDbFiles(path);
}
