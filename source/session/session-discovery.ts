import { join, resolve } from "node:path";
import { getSessionsRoot } from "../agent-dir.js";
import { scanLines } from "./line-scan.js";
import { type UserLike, userMessageText } from "./messages.js";
import { locateHeaderLine, parseHeaderOf } from "./session-header.js";
import { getDefaultSessionDir } from "./session-paths.js";
import { FileSessionStorage, type SessionStorage, type StorageStat } from "./session-storage.js";
import type { SessionHeader, SessionInfo } from "./types.js";

const PREFIX_BYTES = 4096;
/** A header longer than the prefix (a huge title) is read up to this size instead of being skipped. */
const MAX_HEADER_BYTES = 1 << 20;
const FIRST_MESSAGE_CHARS = 200;

/** Metadata read from a session file's first 4 KB. */
export interface RecentSessionInfo {
	id: string;
	path: string;
	cwd: string;
	title?: string;
	created: Date;
	modified: Date;
	firstMessage: string;
}

function oneLine(text: string): string {
	return text.replace(/\s+/g, " ").trim().slice(0, FIRST_MESSAGE_CHARS);
}

function isMessageLine(line: string): boolean {
	return line.startsWith('{"type":"message"');
}

function firstUserMessage(lines: Iterable<string>): string {
	for (const line of lines) {
		if (!isMessageLine(line) || !line.includes('"role":"user"')) continue;
		try {
			const text = userMessageText((JSON.parse(line) as { message?: UserLike }).message);
			if (text !== undefined) return oneLine(text);
		} catch {
			// a torn line, or the prefix cut it: keep looking
		}
	}
	return "";
}

function createdOf(header: SessionHeader, fallbackMs: number): Date {
	const ms = Date.parse(header.timestamp);
	return new Date(Number.isNaN(ms) ? fallbackMs : ms);
}

interface Candidate {
	path: string;
	mtimeMs: number;
	size: number;
	stat: StorageStat;
}

function candidates(storage: SessionStorage, dir: string): Candidate[] {
	const found: Candidate[] = [];
	for (const name of storage.listFilesSync(dir, ".jsonl")) {
		const path = join(dir, name);
		const stat = storage.statSync(path);
		if (stat?.isFile) found.push({ path, mtimeMs: stat.mtimeMs, size: stat.size, stat });
	}
	return found.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The 4 KB prefix, or more when the header line alone is longer than that. */
async function readPrefixWithHeader(storage: SessionStorage, candidate: Candidate): Promise<string> {
	const prefix = await storage.readTextPrefix(candidate.path, PREFIX_BYTES);
	const header = locateHeaderLine(prefix);
	const headerComplete = header !== undefined && prefix.indexOf("\n", header.start) >= 0;
	if (headerComplete || candidate.size <= PREFIX_BYTES) return prefix;
	return storage.readTextPrefix(candidate.path, Math.min(candidate.size, MAX_HEADER_BYTES));
}

/** The newest `limit` sessions of a directory, reading only a 4 KB prefix of each. */
export async function getRecentSessions(
	sessionDir: string,
	limit: number,
	storage: SessionStorage = new FileSessionStorage(),
): Promise<RecentSessionInfo[]> {
	const result: RecentSessionInfo[] = [];
	for (const candidate of candidates(storage, sessionDir)) {
		if (result.length >= limit) break;
		let prefix: string;
		try {
			prefix = await readPrefixWithHeader(storage, candidate);
		} catch {
			continue;
		}
		const parsed = parseHeaderOf(prefix);
		if (!parsed) continue;
		const { header } = parsed;
		const lines = prefix.slice(parsed.location.next).split("\n");
		const info: RecentSessionInfo = {
			id: header.id,
			path: candidate.path,
			cwd: header.cwd,
			created: createdOf(header, candidate.mtimeMs),
			modified: new Date(candidate.mtimeMs),
			firstMessage: firstUserMessage(lines),
		};
		if (typeof header.title === "string") info.title = header.title;
		result.push(info);
	}
	return result;
}

/** The most recently modified session file of a directory whose first line is a session header. */
export async function findMostRecentSession(
	sessionDir: string,
	storage: SessionStorage = new FileSessionStorage(),
): Promise<string | undefined> {
	const [recent] = await getRecentSessions(sessionDir, 1, storage);
	return recent?.path;
}

const LIST_CONCURRENCY = 16;

/**
 * Full metadata of one session file, read line by line (a session can be gigabytes): message lines
 * are counted by their start, not parsed; the first user message is parsed.
 */
async function readSessionInfo(
	path: string,
	storage: SessionStorage,
	stat: StorageStat | undefined = storage.statSync(path),
): Promise<SessionInfo | undefined> {
	if (!stat?.isFile) return undefined;
	let header: SessionHeader | undefined;
	let refused = false;
	let messageCount = 0;
	let firstMessage: string | undefined;
	try {
		await scanLines(
			(position, length) => (refused ? Promise.resolve(Buffer.alloc(0)) : storage.readBytes(path, position, length)),
			stat.size,
			({ text }) => {
				if (refused || text === null) return;
				if (!header) {
					if (text.trim().length === 0) return;
					const parsed = parseHeaderOf(text);
					if (parsed) header = parsed.header;
					else refused = true;
					return;
				}
				if (!isMessageLine(text)) return;
				messageCount++;
				if (firstMessage === undefined) {
					const found = firstUserMessage([text]);
					if (found !== "") firstMessage = found;
				}
			},
		);
	} catch {
		return undefined;
	}
	if (!header || refused) return undefined;
	const info: SessionInfo = {
		id: header.id,
		path,
		cwd: header.cwd,
		created: createdOf(header, stat.birthtimeMs || stat.mtimeMs),
		modified: new Date(stat.mtimeMs),
		size: stat.size,
		messageCount,
		firstMessage: firstMessage ?? "",
	};
	if (typeof header.title === "string") info.title = header.title;
	if (typeof header.parentSession === "string") info.parentSession = header.parentSession;
	return info;
}

/** Every session in the given directories, newest first (files are read a few at a time, in parallel). */
export async function listSessionsIn(dirs: readonly string[], storage: SessionStorage): Promise<SessionInfo[]> {
	const all = dirs.flatMap((dir) => candidates(storage, dir));
	const infos: SessionInfo[] = [];
	for (let i = 0; i < all.length; i += LIST_CONCURRENCY) {
		const batch = all.slice(i, i + LIST_CONCURRENCY);
		const read = await Promise.all(batch.map((c) => readSessionInfo(c.path, storage, c.stat)));
		for (const info of read) if (info) infos.push(info);
	}
	return infos.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** Every project's session directory under the agent dir. */
export function allSessionDirs(storage: SessionStorage): string[] {
	const root = getSessionsRoot();
	return storage.listDirsSync(root).map((name) => join(root, name));
}

/** Sessions of one project, newest first, read from the files (`listProjectSessions` prefers the index). */
export function listProjectSessionFiles(
	cwd: string,
	sessionDir?: string,
	storage: SessionStorage = new FileSessionStorage(),
): Promise<SessionInfo[]> {
	return listSessionsIn([resolve(sessionDir ?? getDefaultSessionDir(cwd))], storage);
}

/** Sessions of every project under the agent dir, newest first, read from the files. */
export function listAllSessionFiles(storage: SessionStorage = new FileSessionStorage()): Promise<SessionInfo[]> {
	return listSessionsIn(allSessionDirs(storage), storage);
}
