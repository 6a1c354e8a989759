import { closeSync, copyFileSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SkipError } from "./import-plan.js";
import { isOpencodeDatabase, type OpencodeSession, SQLITE_HEADER } from "./opencode-storage.js";
import { isRecord } from "./source-lines.js";

/*
 * opencode 1.2 and later keep every session in one SQLite database, `opencode.db` (a channel build
 * names it `opencode-<channel>.db`) in its data folder. The schema read here is opencode's own
 * Drizzle schema as published in its repository (github.com/sst/opencode, now anomalyco/opencode):
 * `packages/opencode/src/session/session.sql.ts` and the first migration of 1.2.0,
 * `packages/opencode/migration/20260127222353_familiar_lady_ursula/migration.sql`, read in
 * their 2026 versions. Three tables hold a session:
 *   session(id, project_id, workspace_id, parent_id, slug, directory, title, version, share_url,
 *           summary_additions, summary_deletions, summary_files, summary_diffs (JSON), revert (JSON),
 *           permission (JSON), time_created, time_updated, time_compacting, time_archived, …)
 *   message(id, session_id, time_created, time_updated, data) — `data`: the message info as JSON,
 *           without its id and sessionID (opencode adds them back from the columns when it reads)
 *   part(id, message_id, session_id, time_created, time_updated, data) — `data`: the part as
 *           JSON, without id, sessionID and messageID
 * Times are epoch milliseconds. opencode orders a session's messages by (time_created, id) and a
 * message's parts by id. Later versions added session columns (workspace_id, cost, tokens_*,
 * agent, model…); they are kept in the provenance entry as they are. The newest sources also
 * define a `session_message` table (id, session_id, type, time_*, data) for a new message format;
 * what it holds is not read here (its format is not settled), but a session whose messages are
 * only there is skipped saying so rather than as empty.
 */

/** The columns xcsh needs, per table: a database without any of them is of a schema xcsh does not know. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
	session: ["id", "directory", "title", "time_created"],
	message: ["id", "session_id", "time_created", "data"],
	part: ["id", "message_id", "data"],
};

/** Session columns mapped into opencode's session info shape (the others are kept under `columns`). */
const MAPPED = new Set([
	"id",
	"slug",
	"version",
	"project_id",
	"workspace_id",
	"directory",
	"parent_id",
	"title",
	"share_url",
	"summary_additions",
	"summary_deletions",
	"summary_files",
	"summary_diffs",
	"revert",
	"permission",
	"time_created",
	"time_updated",
	"time_compacting",
	"time_archived",
]);

/** Copies of the database this many times at most while it keeps changing under the copy. */
const COPY_ATTEMPTS = 3;

type Json = Record<string, unknown>;
type Row = Record<string, unknown>;

/**
 * True for a file to read as an opencode database: by its name, or an SQLite file by its first
 * bytes (JSON and JSON-lines files by their name are not opened to look).
 */
export function isDatabaseSource(path: string): boolean {
	if (isOpencodeDatabase(path)) return true;
	if (path.endsWith(".jsonl") || path.endsWith(".json")) return false;
	let fd: number | undefined;
	try {
		fd = openSync(path, "r");
		const head = Buffer.alloc(SQLITE_HEADER.length);
		const read = readSync(fd, head, 0, head.length, 0);
		return read === head.length && head.toString("latin1") === SQLITE_HEADER;
	} catch {
		return false;
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

function fingerprint(path: string): string {
	try {
		const stat = statSync(path);
		return `${stat.size}:${stat.mtimeMs}`;
	} catch {
		return "none";
	}
}

/**
 * Copies the database and its write-ahead log into a private temp folder. Opening the user's file
 * even read-only would create `-wal` and `-shm` files beside it (SQLite needs them for a WAL
 * database), and the log holds what opencode wrote last; a copy of both reads it all and touches
 * nothing. While opencode writes, the copy is taken again until both files stood still.
 */
function copyDatabase(source: string): { dir: string; copy: string } {
	const dir = mkdtempSync(join(tmpdir(), "xcsh-opencode-"));
	const copy = join(dir, "opencode.db");
	try {
		for (let attempt = 1; ; attempt++) {
			const before = [fingerprint(source), fingerprint(`${source}-wal`)].join("|");
			rmSync(`${copy}-wal`, { force: true });
			copyFileSync(source, copy);
			try {
				copyFileSync(`${source}-wal`, `${copy}-wal`);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			}
			const after = [fingerprint(source), fingerprint(`${source}-wal`)].join("|");
			if (before === after || attempt >= COPY_ATTEMPTS) return { dir, copy };
		}
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
}

function parseJson(text: unknown): unknown {
	if (typeof text !== "string") return text ?? undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** An opencode database opened for reading (a private copy of it). */
export class OpencodeDatabase {
	readonly path: string;
	readonly #db: Database.Database;
	readonly #dir: string;
	readonly #sessionColumns: Set<string>;
	readonly #newerMessages: Database.Statement | undefined;

	private constructor(path: string, db: Database.Database, dir: string, sessionColumns: Set<string>) {
		this.path = path;
		this.#db = db;
		this.#dir = dir;
		this.#sessionColumns = sessionColumns;
		const newer = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_message'").get();
		this.#newerMessages = newer
			? db.prepare("SELECT count(*) FROM session_message WHERE session_id = ?").pluck()
			: undefined;
	}

	/** Opens a copy of the database at `path`; SkipError when it is not an opencode database xcsh can read. */
	static open(path: string): OpencodeDatabase {
		const { dir, copy } = copyDatabase(path);
		let db: Database.Database | undefined;
		try {
			db = new Database(copy, { readonly: true, fileMustExist: true });
			const columns = (table: string) =>
				new Set((db!.pragma(`table_info(${table})`) as { name: unknown }[]).map((row) => String(row.name)));
			let sessionColumns = new Set<string>();
			for (const [table, required] of Object.entries(REQUIRED)) {
				const have = columns(table);
				if (have.size === 0) throw new SkipError(unknownSchema(`no table ${table}`));
				const missing = required.find((column) => !have.has(column));
				if (missing) throw new SkipError(unknownSchema(`no column ${table}.${missing}`));
				if (table === "session") sessionColumns = have;
			}
			return new OpencodeDatabase(path, db, dir, sessionColumns);
		} catch (error) {
			db?.close();
			rmSync(dir, { recursive: true, force: true });
			if (error instanceof SkipError) throw error;
			const message = error instanceof Error ? error.message : String(error);
			throw new SkipError(`not a readable SQLite database (${message})`);
		}
	}

	/** Every session id, oldest first: a parent session before the subagent sessions it started. */
	sessionIds(): string[] {
		return this.#db
			.prepare("SELECT id FROM session ORDER BY time_created, id")
			.pluck()
			.all()
			.map((id) => String(id));
	}

	/**
	 * What tells a session changed, per session id: its row's `time_updated` (opencode bumps it
	 * as the session goes on) and its messages' count and latest `time_updated` (a message row's
	 * time is bumped on every update of it), so a session is read again when either moved. Parts
	 * are not looked at (that would read most of the database): a part that changes while neither
	 * its message nor its session row does is read once one of them moves.
	 */
	sessionMarks(): Map<string, string> {
		// Columns xcsh does not require may be missing from a database of another version.
		const messageColumns = (this.#db.pragma("table_info(message)") as { name: unknown }[]).map((c) => c.name);
		const updated = this.#sessionColumns.has("time_updated") ? "s.time_updated" : "NULL";
		const latest = messageColumns.includes("time_updated") ? "max(m.time_updated)" : "NULL";
		const rows = this.#db
			.prepare(
				`SELECT s.id AS id, ${updated} AS updated, count(m.id) AS messages, ${latest} AS latest FROM session s LEFT JOIN message m ON m.session_id = s.id GROUP BY s.id`,
			)
			.all() as Row[];
		const marks = new Map(
			rows.map((row) => [String(row.id), `${String(row.updated)}:${String(row.messages)}:${String(row.latest)}`]),
		);
		// A newer opencode's messages (not read, but a session with some there is said to have them).
		if (this.#newerMessages)
			for (const row of this.#db
				.prepare("SELECT session_id AS id, count(*) AS n FROM session_message GROUP BY session_id")
				.all() as Row[]) {
				const id = String(row.id);
				if (marks.has(id)) marks.set(id, `${marks.get(id)}:${String(row.n)}`);
			}
		return marks;
	}

	/** Reads one session with its messages and parts, in opencode's order. */
	readSession(id: string): OpencodeSession {
		const row = this.#db.prepare("SELECT * FROM session WHERE id = ?").get(id) as Row | undefined;
		if (!row) throw new SkipError(`no session ${id} in the database`);
		const unreadable: string[] = [];
		const parts = new Map<string, Json[]>();
		// Parts through their messages: a part whose message is gone is no part of the session.
		const partRows = this.#db
			.prepare(
				"SELECT p.id, p.message_id, p.data FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id = ? ORDER BY p.message_id, p.id",
			)
			.all(id) as Row[];
		for (const partRow of partRows) {
			const data = parseJson(partRow.data);
			const messageId = String(partRow.message_id);
			if (!isRecord(data)) {
				unreadable.push(`part ${String(partRow.id)}`);
				continue;
			}
			// Ids first, as opencode's own files and exports have them.
			const part = { id: String(partRow.id), sessionID: id, messageID: messageId, ...data };
			const list = parts.get(messageId);
			if (list) list.push(part);
			else parts.set(messageId, [part]);
		}
		const messages: { info: Json; parts: Json[] }[] = [];
		const messageRows = this.#db
			.prepare("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id")
			.all(id) as Row[];
		for (const messageRow of messageRows) {
			const data = parseJson(messageRow.data);
			const messageId = String(messageRow.id);
			if (!isRecord(data)) {
				unreadable.push(`message ${messageId}`);
				continue;
			}
			messages.push({ info: { id: messageId, sessionID: id, ...data }, parts: parts.get(messageId) ?? [] });
		}
		const newer = messageRows.length === 0 ? Number(this.#newerMessages?.get(id) ?? 0) : 0;
		if (newer > 0)
			throw new SkipError(
				`its ${newer} message(s) are in the session_message table of a newer opencode, which xcsh does not read yet`,
			);
		const columns: Json = {};
		for (const name of this.#sessionColumns)
			if (!MAPPED.has(name) && row[name] !== null && row[name] !== undefined) columns[name] = row[name];
		return {
			info: sessionInfo(row),
			messages,
			extra: Object.keys(columns).length > 0 ? { columns } : {},
			unreadable: unreadable.map((what) => `${this.path}: ${what}`),
		};
	}

	/** Closes the copy and removes it. */
	close(): void {
		this.#db.close();
		rmSync(this.#dir, { recursive: true, force: true });
	}
}

function unknownSchema(what: string): string {
	return `an opencode database of a schema xcsh does not know (${what}); xcsh reads the session, message and part tables of opencode 1.2 and later`;
}

/** A session row in the shape of opencode's session info (what its export and older storage files hold). */
function sessionInfo(row: Row): Json {
	const value = (name: string) => (row[name] === null ? undefined : row[name]);
	const summary =
		value("summary_additions") !== undefined ||
		value("summary_deletions") !== undefined ||
		value("summary_files") !== undefined
			? {
					additions: value("summary_additions") ?? 0,
					deletions: value("summary_deletions") ?? 0,
					files: value("summary_files") ?? 0,
					...(Array.isArray(parseJson(value("summary_diffs"))) ? { diffs: parseJson(value("summary_diffs")) } : {}),
				}
			: undefined;
	const info: Json = {
		id: String(row.id),
		slug: value("slug"),
		version: value("version"),
		projectID: value("project_id"),
		workspaceID: value("workspace_id"),
		directory: value("directory"),
		parentID: value("parent_id"),
		title: value("title"),
		time: {
			created: value("time_created"),
			updated: value("time_updated"),
			compacting: value("time_compacting"),
			archived: value("time_archived"),
		},
		summary,
		share: typeof value("share_url") === "string" ? { url: value("share_url") } : undefined,
		revert: parseJson(value("revert")),
		permission: parseJson(value("permission")),
	};
	// JSON leaves undefined fields out; so does the info opencode writes.
	return JSON.parse(JSON.stringify(info)) as Json;
}
