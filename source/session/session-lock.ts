import { unlinkSync } from "node:fs";
import { hostname } from "node:os";
import {
	createLinked,
	type FileIdentity,
	type JudgedFile,
	LOCK_GRACE_MS,
	readIfPresent,
	removeIfSame,
	sameFile,
	statFile,
} from "./lock-file.js";
import { processStartOf } from "./process-start.js";

/** Who holds a session open for writing. */
export interface LockInfo {
	pid: number;
	host: string;
	startedAt: string;
	/** The holder's process start (see processStartOf); absent in locks of older versions. */
	procStart?: string;
}

/** The outcome of trying to lock a session file. */
export type LockResult =
	| { kind: "acquired"; release: () => void; stillHeld: () => boolean }
	| { kind: "held"; holder: LockInfo };

/** A session another xcsh has open for writing (pid 0: a lock nobody could read yet). */
export class SessionLockedError extends Error {
	readonly holder: LockInfo;
	readonly sessionFile: string;

	constructor(sessionFile: string, holder: LockInfo) {
		super(
			holder.pid === 0
				? `Session is being opened by another xcsh (its lock ${lockPathFor(sessionFile)} is not written yet); try again`
				: `Session is open in another xcsh (pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`})`,
		);
		this.name = "SessionLockedError";
		this.holder = holder;
		this.sessionFile = sessionFile;
	}
}

/** The lock file could not be written (a full disk, a read-only folder): nothing was left behind. */
class LockWriteError extends Error {
	readonly code: string | undefined;

	constructor(sessionFile: string, cause: unknown) {
		super(`Could not lock ${sessionFile}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
		this.name = "LockWriteError";
		this.code = (cause as NodeJS.ErrnoException | undefined)?.code;
	}
}

/** `<session file>.lock` */
export function lockPathFor(sessionFile: string): string {
	return `${sessionFile}.lock`;
}

/** The lock a takeover of a stale lock holds while it removes it, so two never remove each other's. */
function takeoverPathFor(lockPath: string): string {
	return `${lockPath}.takeover`;
}

function parseLock(text: string | undefined): LockInfo | undefined {
	if (text === undefined) return undefined;
	try {
		const value = JSON.parse(text) as Partial<LockInfo>;
		if (typeof value.pid !== "number" || typeof value.host !== "string") return undefined;
		const info: LockInfo = {
			pid: value.pid,
			host: value.host,
			startedAt: typeof value.startedAt === "string" ? value.startedAt : "",
		};
		if (typeof value.procStart === "string") info.procStart = value.procStart;
		return info;
	} catch {
		return undefined;
	}
}

/** The lock's content, or undefined when there is no readable lock. */
export function readLock(lockPath: string): LockInfo | undefined {
	return parseLock(readIfPresent(lockPath));
}

/** True when a process with this pid exists on this machine. */
export function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists but belongs to someone else.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** A lock left by a process of this host that is gone (a crash); locks of other hosts are never judged stale. */
export function isLockStale(holder: LockInfo): boolean {
	return holder.host === hostname() && !isProcessAlive(holder.pid);
}

/** This process's locks: how many managers hold each (a file may be opened twice) and which file it is. */
const held = new Map<string, { count: number; identity: FileIdentity; content: string }>();
let exitHookInstalled = false;

/** True while the file at `lockPath` is the very lock this process created. */
function ownsLock(lockPath: string): boolean {
	const mine = held.get(lockPath);
	if (!mine) return false;
	const now = statFile(lockPath);
	// Inode numbers are reused, so the content (pid, start time) is compared too.
	return now !== undefined && sameFile(now, mine.identity) && readIfPresent(lockPath) === mine.content;
}

function removeOwn(lockPath: string): void {
	try {
		if (ownsLock(lockPath)) unlinkSync(lockPath);
	} catch {
		// already gone
	}
}

function releaseAllSync(): void {
	for (const lockPath of held.keys()) removeOwn(lockPath);
	held.clear();
}

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on("exit", releaseAllSync);
	for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
		process.once(signal, () => {
			releaseAllSync();
			// Re-raise so the process still dies of the signal once every handler ran.
			process.kill(process.pid, signal);
		});
	}
}

function acquired(lockPath: string): LockResult {
	let released = false;
	const release = () => {
		if (released) return;
		released = true;
		const mine = held.get(lockPath);
		if (mine && mine.count > 1) {
			mine.count--;
			return;
		}
		removeOwn(lockPath);
		held.delete(lockPath);
	};
	return { kind: "acquired", release, stillHeld: () => !released && ownsLock(lockPath) };
}

function ownContent(): string {
	const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
	const procStart = processStartOf(process.pid);
	if (procStart !== undefined) info.procStart = procStart;
	return `${JSON.stringify(info)}\n`;
}

/** What is at a lock path, judged. */
type Judged =
	| { kind: "gone" }
	| { kind: "held"; holder: LockInfo }
	| { kind: "stale"; file: JudgedFile; holder: LockInfo | undefined };

function judge(path: string, now = Date.now()): Judged {
	const stat = statFile(path);
	if (!stat) return { kind: "gone" };
	const text = readIfPresent(path);
	const file: JudgedFile = { dev: stat.dev, ino: stat.ino, text };
	const holder = parseLock(text);
	if (holder) return isLockStale(holder) ? { kind: "stale", file, holder } : { kind: "held", holder };
	// Unreadable: never removed while it may still be being written.
	if (now - stat.mtimeMs < LOCK_GRACE_MS) return { kind: "held", holder: { pid: 0, host: hostname(), startedAt: "" } };
	return { kind: "stale", file, holder: undefined };
}

/**
 * Removes the stale lock judged, under the takeover lock: only one process at a time may remove a
 * lock, and it removes it only if it is still the file it judged. "busy": another is at it.
 */
function removeStale(lockPath: string, judged: JudgedFile, content: string): "done" | "busy" {
	const guardPath = takeoverPathFor(lockPath);
	const guard = createLinked(guardPath, content);
	if (!guard) {
		// A takeover lock lives for microseconds; one of a dead process, or an old one, is removed.
		const stat = statFile(guardPath);
		const stuck = judge(guardPath);
		if (stuck.kind === "stale") removeIfSame(guardPath, stuck.file);
		else if (stat && stat.mtimeMs < Date.now() - LOCK_GRACE_MS)
			removeIfSame(guardPath, { ...stat, text: readIfPresent(guardPath) });
		return "busy";
	}
	try {
		removeIfSame(lockPath, judged);
	} finally {
		removeIfSame(guardPath, { ...guard, text: content });
	}
	return "done";
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** How long acquisition keeps trying while another process is taking over the same stale lock. */
const ACQUIRE_PATIENCE_MS = 2000;

/**
 * Locks a session file for writing. The lock file appears atomically with its content (pid, host,
 * start time); a stale lock (a dead process of this host, or unreadable and older than the grace
 * period) is removed under a takeover lock, only if it is still the file judged stale. Released on
 * `release()`, on exit and on signals. Throws `LockWriteError` when the lock cannot be written
 * (ENOSPC), leaving nothing behind.
 */
export function acquireLock(sessionFile: string): LockResult {
	const lockPath = lockPathFor(sessionFile);
	const mine = held.get(lockPath);
	if (mine && ownsLock(lockPath)) {
		mine.count++;
		return acquired(lockPath);
	}
	const content = ownContent();
	const deadline = Date.now() + ACQUIRE_PATIENCE_MS;
	for (;;) {
		let identity: FileIdentity | undefined;
		try {
			identity = createLinked(lockPath, content);
		} catch (error) {
			throw new LockWriteError(sessionFile, error);
		}
		if (identity) {
			held.set(lockPath, { count: 1, identity, content });
			installExitHook();
			return acquired(lockPath);
		}
		const found = judge(lockPath);
		if (found.kind === "held") return found;
		if (found.kind === "stale" && removeStale(lockPath, found.file, content) === "busy") {
			if (Date.now() > deadline)
				return { kind: "held", holder: found.holder ?? { pid: 0, host: hostname(), startedAt: "" } };
			Atomics.wait(pause, 0, 0, 1);
		}
	}
}

/** Who holds a session file if it is another live process (this process's own locks and stale ones don't count). */
export function lockHolderOther(sessionFile: string): LockInfo | undefined {
	const holder = readLock(lockPathFor(sessionFile));
	if (!holder || holder.pid === process.pid || isLockStale(holder)) return undefined;
	return holder;
}
