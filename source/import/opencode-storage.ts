import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { SkipError } from "./import-plan.js";
import { isRecord } from "./source-lines.js";

/*
 * opencode before 1.2 kept each session as a tree of small JSON files under
 * `~/.local/share/opencode/storage/`: `session/<projectID>/<sessionID>.json` (the session's info),
 * `message/<sessionID>/<messageID>.json` (a message's info) and `part/<messageID>/<partID>.json`
 * (its parts). Ids sort in creation order. opencode 1.2 moved all of it into one SQLite database,
 * `opencode.db` beside `storage/`; `opencode export <sessionID>` writes any session, old or new, as
 * one JSON file (`{info, messages: [{info, parts}]}`).
 */

/** Said of an SQLite file that reached a text parser (a database is read by its path, never as text). */
export const OPENCODE_DB_AS_TEXT = "an SQLite database, not an opencode export or session file";

type Json = Record<string, unknown>;

/** One opencode session with its messages, whichever way it was stored. */
export interface OpencodeSession {
	readonly info: Json;
	readonly messages: { info: Json; parts: Json[] }[];
	/** Whatever else an export holds beside them (todos). */
	readonly extra: Json;
	/** Storage files that could not be read as JSON objects. */
	readonly unreadable: string[];
}

/** The first bytes of every SQLite database file. */
export const SQLITE_HEADER = "SQLite format 3\u0000";

/** True for opencode's SQLite database, by name (`opencode.db`, `opencode-<channel>.db`) or by its first bytes. */
export function isOpencodeDatabase(path: string, text?: string): boolean {
	return /^opencode(?:-[\w.-]+)?\.db$/.test(basename(path)) || (text?.startsWith(SQLITE_HEADER) ?? false);
}

function isDir(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** True when `dir` is an opencode storage root (it has `session/` and `message/`). */
export function isStorageRoot(dir: string): boolean {
	return isDir(join(dir, "session")) && isDir(join(dir, "message"));
}

/** True for a session file in the storage tree (`ses_….json`). */
export function isStorageSessionFile(name: string): boolean {
	return /^ses_[^/\\]*\.json$/.test(name);
}

function jsonFiles(dir: string): string[] {
	try {
		return readdirSync(dir)
			.filter((name) => name.endsWith(".json"))
			.sort();
	} catch {
		return [];
	}
}

function readJson(path: string, unreadable: string[]): Json | undefined {
	try {
		const value: unknown = JSON.parse(readFileSync(path, { encoding: "utf8", flag: "r" }));
		if (isRecord(value)) return value;
	} catch {
		// listed below
	}
	unreadable.push(path);
	return undefined;
}

function createdAt(path: string): number {
	try {
		const info: unknown = JSON.parse(readFileSync(path, "utf8"));
		const time = isRecord(info) && isRecord(info.time) ? info.time.created : undefined;
		return typeof time === "number" ? time : 0;
	} catch {
		return 0;
	}
}

/** Every session file of a storage root, oldest first: a parent session before the subagent sessions it started. */
export function storageSessionFiles(root: string): string[] {
	const sessions = join(root, "session");
	const files: string[] = [];
	for (const project of readdirSync(sessions).sort()) {
		const dir = join(sessions, project);
		if (!isDir(dir)) continue;
		for (const name of jsonFiles(dir)) if (isStorageSessionFile(name)) files.push(join(dir, name));
	}
	const times = new Map(files.map((file) => [file, createdAt(file)] as const));
	return files.sort((a, b) => times.get(a)! - times.get(b)! || a.localeCompare(b));
}

/** Reads a session of the storage tree from its session file (`<root>/session/<project>/<id>.json`). */
export function readStorageSession(sessionFile: string, info: Json): OpencodeSession {
	const root = dirname(dirname(dirname(sessionFile)));
	if (typeof info.id !== "string") throw new SkipError("an opencode session file without an id");
	const messagesDir = join(root, "message", info.id);
	if (!existsSync(messagesDir)) {
		const db = join(root, "..", "opencode.db");
		if (existsSync(db))
			throw new SkipError(
				`no messages of this opencode session in its storage tree: opencode 1.2 moved them into ${db}, import that`,
			);
		throw new SkipError(`no messages of this opencode session under ${join(root, "message")}`);
	}
	const unreadable: string[] = [];
	const messages: { info: Json; parts: Json[] }[] = [];
	for (const name of jsonFiles(messagesDir)) {
		const message = readJson(join(messagesDir, name), unreadable);
		if (!message) continue;
		const id = typeof message.id === "string" ? message.id : name.slice(0, -".json".length);
		const partsDir = join(root, "part", id);
		const parts: Json[] = [];
		for (const partName of jsonFiles(partsDir)) {
			const part = readJson(join(partsDir, partName), unreadable);
			if (part) parts.push(part);
		}
		messages.push({ info: message, parts });
	}
	return { info, messages, extra: {}, unreadable };
}
