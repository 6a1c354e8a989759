import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { getAgentDir } from "../agent-dir.js";
import { log } from "../logger.js";
import { ensurePrivateDirSync, precreatePrivateFile } from "../private-files.js";

/** One recalled prompt. */
export interface HistoryEntry {
	id: number;
	prompt: string;
	/** Epoch milliseconds. */
	createdAt: number;
	cwd: string | undefined;
}

interface HistoryRow {
	id: number;
	prompt: string;
	created_at: number;
	cwd: string | null;
}

interface PendingInsert {
	prompt: string;
	createdAt: number;
	cwd: string | null;
}

/** `<agentDir>/history.db`; resolved per call so `XCSH_AGENT_DIR` set by tests is honoured. */
export function getHistoryDbPath(): string {
	return join(getAgentDir(), "history.db");
}

// External-content FTS keeps one copy of each prompt; the triggers are what keep the index honest.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS history (
	id INTEGER PRIMARY KEY,
	prompt TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	cwd TEXT
);
CREATE INDEX IF NOT EXISTS history_created_at ON history(created_at);
CREATE VIRTUAL TABLE IF NOT EXISTS history_fts USING fts5(
	prompt,
	content='history',
	content_rowid='id',
	tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS history_ai AFTER INSERT ON history BEGIN
	INSERT INTO history_fts(rowid, prompt) VALUES (new.id, new.prompt);
END;
CREATE TRIGGER IF NOT EXISTS history_ad AFTER DELETE ON history BEGIN
	INSERT INTO history_fts(history_fts, rowid, prompt) VALUES ('delete', old.id, old.prompt);
END;
CREATE TRIGGER IF NOT EXISTS history_au AFTER UPDATE ON history BEGIN
	INSERT INTO history_fts(history_fts, rowid, prompt) VALUES ('delete', old.id, old.prompt);
	INSERT INTO history_fts(rowid, prompt) VALUES (new.id, new.prompt);
END;
`;

// Identical prompts score identically, so within a prompt the window keeps the newest and the
// outer ordering is unaffected by which duplicate survived.
const SEARCH_SQL = `
WITH matches AS (
	SELECT rowid AS id, bm25(history_fts) AS score FROM history_fts WHERE history_fts MATCH ?
), ranked AS (
	SELECT h.id, h.prompt, h.created_at, h.cwd, m.score,
		ROW_NUMBER() OVER (PARTITION BY h.prompt ORDER BY h.created_at DESC, h.id DESC) AS rn
	FROM matches m JOIN history h ON h.id = m.id
)
SELECT id, prompt, created_at, cwd FROM ranked WHERE rn = 1
ORDER BY score, created_at DESC, id DESC
LIMIT ?
`;

/**
 * Turns free text into an FTS5 query that cannot be a syntax error: every token is quoted (so
 * operators like AND / NEAR( / * are plain words) and prefix-matched. Tokens with no letter or
 * digit are dropped because the tokenizer would reduce them to an empty phrase.
 */
export function toFtsQuery(query: string): string | undefined {
	const terms = query
		.split(/\s+/)
		.filter((token) => /[\p{L}\p{N}]/u.test(token))
		.map((token) => `"${token.replaceAll('"', '""')}"*`);
	return terms.length > 0 ? terms.join(" AND ") : undefined;
}

function toEntry(row: HistoryRow): HistoryEntry {
	return { id: row.id, prompt: row.prompt, createdAt: row.created_at, cwd: row.cwd ?? undefined };
}

function normaliseLimit(limit: number): number {
	return Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
}

/** Prompt history for recall and search; separate from session files, which are for replay. */
export class HistoryStorage {
	readonly dbPath: string;
	private readonly db: Database.Database;
	private readonly insertStmt: Database.Statement<[string, number, string | null]>;
	private readonly recentStmt: Database.Statement<[number], HistoryRow>;
	private readonly searchStmt: Database.Statement<[string, number], HistoryRow>;
	/** What the next prompt is compared against; includes pending inserts so rapid repeats dedupe too. */
	private lastPrompt: string | undefined;
	private pending: PendingInsert[] = [];
	private scheduled: Promise<void> | undefined;
	private closed = false;

	/** Opens (creating if needed) the history database; throws if the file cannot be opened. */
	constructor(dbPath: string = getHistoryDbPath()) {
		this.dbPath = dbPath;
		ensurePrivateDirSync(dirname(dbPath));
		// Every prompt ever typed: SQLite gives its -wal and -shm files the database file's mode.
		precreatePrivateFile(dbPath);
		this.db = new Database(dbPath);
		// WAL lets a second xcsh instance read history while this one writes.
		this.db.pragma("journal_mode = WAL");
		this.db.pragma("synchronous = NORMAL");
		this.db.exec(SCHEMA);
		this.insertStmt = this.db.prepare("INSERT INTO history (prompt, created_at, cwd) VALUES (?, ?, ?)");
		this.recentStmt = this.db.prepare<[number], HistoryRow>(
			"SELECT id, prompt, created_at, cwd FROM history ORDER BY created_at DESC, id DESC LIMIT ?",
		);
		this.searchStmt = this.db.prepare<[string, number], HistoryRow>(SEARCH_SQL);
		const newest = this.db.prepare<[], { prompt: string }>("SELECT prompt FROM history ORDER BY id DESC LIMIT 1").get();
		this.lastPrompt = newest?.prompt;
	}

	/** Same as the constructor; reads better at call sites. */
	static open(dbPath?: string): HistoryStorage {
		return new HistoryStorage(dbPath);
	}

	/** Records a prompt without blocking the turn; the write happens on a later tick. */
	add(prompt: string, cwd?: string): void {
		if (this.closed || prompt.trim().length === 0 || prompt === this.lastPrompt) return;
		this.lastPrompt = prompt;
		this.pending.push({ prompt, createdAt: Date.now(), cwd: cwd ?? null });
		this.scheduled ??= new Promise<void>((resolve) => {
			setImmediate(() => {
				this.scheduled = undefined;
				this.drain();
				resolve();
			});
		});
	}

	/** Resolves once every prompt passed to `add` so far has been written (or its failure logged). */
	flush(): Promise<void> {
		return this.scheduled ?? Promise.resolve();
	}

	/** Newest first. */
	getRecent(limit: number): HistoryEntry[] {
		const n = normaliseLimit(limit);
		if (n === 0 || !this.db.open) return [];
		return this.recentStmt.all(n).map(toEntry);
	}

	/** Prefix match on every word, best bm25 first then newest; never throws on odd input. */
	search(query: string, limit: number): HistoryEntry[] {
		const n = normaliseLimit(limit);
		const fts = toFtsQuery(query);
		if (n === 0 || fts === undefined || !this.db.open) return [];
		try {
			return this.searchStmt.all(fts, n).map(toEntry);
		} catch (error) {
			// Search is typed live by the user; a query SQLite rejects just means "no matches yet".
			log.warn(`history search failed for ${JSON.stringify(query)}: ${describe(error)}`);
			return [];
		}
	}

	/** Writes pending prompts and closes the database; later `add` calls are ignored. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.flush();
		this.db.close();
	}

	private drain(): void {
		const batch = this.pending;
		this.pending = [];
		for (const row of batch) {
			try {
				this.insertStmt.run(row.prompt, row.createdAt, row.cwd);
			} catch (error) {
				log.error(`history insert failed: ${describe(error)}`);
				// Otherwise the user could never record this prompt again until they typed something else.
				if (this.lastPrompt === row.prompt) this.lastPrompt = undefined;
			}
		}
	}
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
