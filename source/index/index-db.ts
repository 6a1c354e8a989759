import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { getAgentDir } from "../agent-dir.js";
import { log } from "../logger.js";

/** `<agentDir>/index.db`; resolved per call so `XCSH_AGENT_DIR` set by tests is honoured. */
export function getIndexDbPath(): string {
	return join(getAgentDir(), "index.db");
}

// Bumped whenever the schema or what is indexed changes: an old index is simply rebuilt.
const SCHEMA_VERSION = 1;

// header_line and inode are how an append is told from a rewrite (rename, migration, new title).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
	path TEXT PRIMARY KEY,
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
CREATE INDEX IF NOT EXISTS sessions_cwd ON sessions(cwd);
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5(
	text,
	session_path UNINDEXED,
	entry_id UNINDEXED,
	role UNINDEXED,
	timestamp UNINDEXED,
	tokenize='unicode61 remove_diacritics 2'
);
`;

/** True for the errors that mean the database file itself is unusable. */
export function isCorruptionError(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT_VTAB";
}

function removeDbFiles(path: string): void {
	for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
}

function openOnce(path: string): Database.Database {
	const db = new Database(path);
	try {
		// WAL lets a running xcsh refresh the index while another one searches it.
		db.pragma("journal_mode = WAL");
		db.pragma("synchronous = NORMAL");
		db.pragma("busy_timeout = 5000");
		const version = db.pragma("user_version", { simple: true });
		if (version !== SCHEMA_VERSION) {
			db.exec("DROP TABLE IF EXISTS sessions; DROP TABLE IF EXISTS entries_fts;");
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
	mkdirSync(dirname(path), { recursive: true });
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
