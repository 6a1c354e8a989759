import type { Stats } from "node:fs";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type Database from "better-sqlite3";
import { allSessionDirs } from "../session/session-discovery.js";
import { FileSessionStorage } from "../session/session-storage.js";
import type { SessionInfo } from "../session/types.js";
import type { ReadStats } from "./file-lines.js";
import { deleteIndexDb, getIndexDbPath, isCorruptionError, openIndexDb } from "./index-db.js";
import { IndexWriter, type PendingStore } from "./index-writer.js";
import { type ScanJob, scanInOrder } from "./scan-pipeline.js";
import { type SearchHit, type SearchOptions, searchEntries } from "./search-entries.js";
import { type FileStat, isUnchanged, type SessionRow, type SessionScan } from "./session-scan.js";

export type { IndexedRole } from "./entry-text.js";
export type { SearchHit, SearchOptions } from "./search-entries.js";

/** What one `refresh()` did, in files. */
export interface RefreshResult {
	added: number;
	updated: number;
	removed: number;
	unchanged: number;
}

/** How far a refresh has got, in files that needed reading. */
export interface RefreshProgress {
	done: number;
	total: number;
	bytesDone: number;
	bytesTotal: number;
}

/** Options of `refresh()`. */
export interface RefreshOptions {
	/** The session directories to look at; every project's by default. */
	dirs?: readonly string[] | undefined;
	/** Called after each file that had to be read (a first build reads them all). */
	onProgress?: ((progress: RefreshProgress) => void) | undefined;
}

/** A listed session: `SessionInfo` plus the time of its newest entry. */
export interface IndexedSessionInfo extends SessionInfo {
	lastActivity?: Date;
}

type ListedRow = Omit<SessionRow, "header_line" | "inode" | "indexed_bytes" | "dir">;
type RowStamp = Pick<SessionRow, "path" | "dir" | "size" | "modified" | "inode">;

const STAMP_COLUMNS = "path, dir, size, modified, inode";

const LIST_COLUMNS =
	"path, id, cwd, title, created, modified, size, message_count, first_prompt, last_activity, parent_session";
const STAT_SLICE = 1000;
// Below this many orphaned FTS rows a rebuild is never worth it (see index-db.ts).
const ORPHAN_REBUILD_MIN = 10_000;
// Pending text flushed in one transaction: big enough to amortise commits, small enough for memory.
const BATCH_TEXT_CHARS = 4 << 20;

function toInfo(row: ListedRow): IndexedSessionInfo {
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

function filesIn(dir: string): string[] {
	try {
		return readdirSync(dir)
			.filter((name) => name.endsWith(".jsonl"))
			.map((name) => join(dir, name));
	} catch {
		// the directory went away while walking: its sessions are removed below
		return [];
	}
}

function statFile(path: string): Stats | undefined {
	try {
		const found = statSync(path);
		return found.isFile() ? found : undefined;
	} catch {
		return undefined;
	}
}

function fileStat(found: Stats): FileStat {
	return { size: found.size, mtimeMs: found.mtimeMs, ino: found.ino, birthtimeMs: found.birthtimeMs };
}

const yieldToEventLoop = () => new Promise<void>((done) => setImmediate(done));

/**
 * Every session file of `dirs` with its stat, oldest first so row ids follow time. Sync stats are
 * several times faster than async ones here; slicing them keeps a running UI responsive.
 */
async function statSessionFiles(dirs: readonly string[]): Promise<{ path: string; stat: FileStat }[]> {
	const paths = dirs.flatMap(filesIn);
	const found: { path: string; stat: FileStat }[] = [];
	for (let i = 0; i < paths.length; i += STAT_SLICE) {
		if (i > 0) await yieldToEventLoop();
		for (const path of paths.slice(i, i + STAT_SLICE)) {
			const stat = statFile(path);
			if (stat) found.push({ path, stat: fileStat(stat) });
		}
	}
	return found.sort((a, b) => a.stat.mtimeMs - b.stat.mtimeMs);
}

/** Whether dead FTS rows (see index-db.ts) are worth a full rebuild: at least 10,000, and over a quarter of the live ones. */
export function needsRebuild(orphans: number, live: number): boolean {
	return orphans >= ORPHAN_REBUILD_MIN && orphans * 4 > live;
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
	#writer: IndexWriter;

	/** Opens (creating or rebuilding if needed) the index database. */
	constructor(dbPath: string = getIndexDbPath()) {
		this.dbPath = dbPath;
		this.#db = openIndexDb(dbPath);
		this.#writer = new IndexWriter(this.#db);
	}

	/** Same as the constructor; reads better at call sites. */
	static open(dbPath?: string): SessionIndex {
		return new SessionIndex(dbPath);
	}

	/** Brings the index up to date with the session files, reading only what was appended since. */
	async refresh(options: RefreshOptions = {}): Promise<RefreshResult> {
		try {
			const result = await this.#refresh(options);
			if (!this.#tooManyOrphans()) return result;
			// Rewritten and deleted sessions left too many dead rows behind: start afresh, everything.
			this.#rebuild();
			return await this.#refresh({ onProgress: options.onProgress });
		} catch (error) {
			if (!isCorruptionError(error)) throw error;
			this.#rebuild();
			return this.#refresh(options);
		}
	}

	/** FTS rows whose session was rewritten or deleted since the last build. */
	orphanedRows(): number {
		return this.#db.prepare<[], { value: number }>("SELECT value FROM meta WHERE key = 'orphans'").get()?.value ?? 0;
	}

	#tooManyOrphans(): boolean {
		const orphans = this.orphanedRows();
		if (orphans < ORPHAN_REBUILD_MIN) return false;
		return needsRebuild(
			orphans,
			this.#db.prepare<[], { n: number }>("SELECT count(*) AS n FROM entries").get()?.n ?? 0,
		);
	}

	/** Indexed sessions newest first, optionally of one project (header cwd) only. */
	list(cwd?: string): IndexedSessionInfo[] {
		const rows =
			cwd === undefined
				? this.#db.prepare<[], ListedRow>(`SELECT ${LIST_COLUMNS} FROM sessions ORDER BY modified DESC`).all()
				: this.#db
						.prepare<[string], ListedRow>(`SELECT ${LIST_COLUMNS} FROM sessions WHERE cwd = ? ORDER BY modified DESC`)
						.all(cwd);
		return rows.map(toInfo);
	}

	/** Indexed sessions stored in one session directory, newest first. */
	listDir(dir: string): IndexedSessionInfo[] {
		return this.#db
			.prepare<[string], ListedRow>(`SELECT ${LIST_COLUMNS} FROM sessions WHERE dir = ? ORDER BY modified DESC`)
			.all(resolve(dir))
			.map(toInfo);
	}

	/** Entries matching every word of `query` (the last as a prefix): prompts, answers, tool output, newest first. */
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
		this.#writer = new IndexWriter(this.#db);
	}

	/** What each indexed file looked like when it was read: enough to tell which files changed. */
	#knownStamps(dirs: readonly string[] | undefined): Map<string, RowStamp> {
		const rows =
			dirs === undefined
				? this.#db.prepare<[], RowStamp>(`SELECT ${STAMP_COLUMNS} FROM sessions`).all()
				: dirs.flatMap((dir) =>
						this.#db.prepare<[string], RowStamp>(`SELECT ${STAMP_COLUMNS} FROM sessions WHERE dir = ?`).all(dir),
					);
		return new Map(rows.map((row) => [row.path, row]));
	}

	async #refresh(options: RefreshOptions): Promise<RefreshResult> {
		const result: RefreshResult = { added: 0, updated: 0, removed: 0, unchanged: 0 };
		const scoped = options.dirs?.map((dir) => resolve(dir));
		const known = this.#knownStamps(scoped);
		// Sessions kept outside the agent dir (--session-dir) stay indexed for as long as their directory exists.
		const dirs = scoped ?? [
			...new Set([...allSessionDirs(new FileSessionStorage()), ...[...known.values()].map((r) => r.dir)]),
		];
		const jobs: ScanJob[] = [];
		const fullRow = this.#db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE path = ?");
		for (const { path, stat: found } of await statSessionFiles(dirs)) {
			const stamp = known.get(path);
			known.delete(path);
			if (isUnchanged(found, stamp)) result.unchanged++;
			else jobs.push({ path, stat: found, base: stamp && fullRow.get(path) });
		}
		let pending: PendingStore[] = [];
		let pendingChars = 0;
		const bytesOf = (job: ScanJob) => job.stat.size - (job.base?.indexed_bytes ?? 0);
		const progress: RefreshProgress = {
			done: 0,
			total: jobs.length,
			bytesDone: 0,
			bytesTotal: jobs.reduce((sum, job) => sum + bytesOf(job), 0),
		};
		for await (const { job, scan } of scanInOrder(jobs, this.stats)) {
			progress.done++;
			progress.bytesDone += bytesOf(job);
			options.onProgress?.({ ...progress });
			const outcome = this.#outcome(job, scan);
			if (outcome === "unchanged" || outcome === "removed") {
				if (outcome === "removed") this.#writer.forgetAll([job.path]);
				result[outcome]++;
				continue;
			}
			pending.push(outcome);
			result[job.base ? "updated" : "added"]++;
			for (const text of outcome.texts) pendingChars += text.text.length;
			if (pendingChars >= BATCH_TEXT_CHARS) {
				this.#writer.storeAll(pending);
				pending = [];
				pendingChars = 0;
			}
		}
		this.#writer.storeAll(pending);
		this.#writer.forgetAll([...known.keys()]);
		result.removed += known.size;
		return result;
	}

	#outcome({ base }: ScanJob, scan: SessionScan | Error): PendingStore | "unchanged" | "removed" {
		if (scan instanceof Error) {
			// Deleted between the stat and the read: it is no longer a session.
			if ((scan as NodeJS.ErrnoException).code !== "ENOENT") throw scan;
			return base ? "removed" : "unchanged";
		}
		if (scan.kind === "unchanged") return "unchanged";
		if (scan.kind === "notSession") return base ? "removed" : "unchanged";
		return { row: scan.row, texts: scan.texts, full: scan.full, compacted: scan.compacted, base };
	}
}
