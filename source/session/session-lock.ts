import { closeSync, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

/** Who holds a session open for writing. */
export interface LockInfo {
	pid: number;
	host: string;
	startedAt: string;
}

/** The outcome of trying to lock a session file. */
export type LockResult = { kind: "acquired"; release: () => void } | { kind: "held"; holder: LockInfo };

/** A session another xcsh has open for writing. */
export class SessionLockedError extends Error {
	readonly holder: LockInfo;
	readonly sessionFile: string;

	constructor(sessionFile: string, holder: LockInfo) {
		super(
			`Session is open in another xcsh (pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`})`,
		);
		this.name = "SessionLockedError";
		this.holder = holder;
		this.sessionFile = sessionFile;
	}
}

/** `<session file>.lock` */
export function lockPathFor(sessionFile: string): string {
	return `${sessionFile}.lock`;
}

/** The lock's content, or undefined when there is no readable lock. */
export function readLock(lockPath: string): LockInfo | undefined {
	try {
		const value = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockInfo>;
		if (typeof value.pid !== "number" || typeof value.host !== "string") return undefined;
		return { pid: value.pid, host: value.host, startedAt: typeof value.startedAt === "string" ? value.startedAt : "" };
	} catch {
		return undefined;
	}
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

/** Lock path → how many managers of this process hold it (a file may be opened twice in one process). */
const held = new Map<string, number>();
let exitHookInstalled = false;

function releaseAllSync(): void {
	for (const lockPath of held.keys()) {
		try {
			if (readLock(lockPath)?.pid === process.pid) unlinkSync(lockPath);
		} catch {
			// already gone
		}
	}
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

function tryCreate(lockPath: string): boolean {
	let fd: number;
	try {
		fd = openSync(lockPath, "wx");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	}
	try {
		const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
		writeSync(fd, `${JSON.stringify(info)}\n`);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	return true;
}

function releaser(lockPath: string): () => void {
	let released = false;
	return () => {
		if (released) return;
		released = true;
		const count = (held.get(lockPath) ?? 1) - 1;
		if (count > 0) {
			held.set(lockPath, count);
			return;
		}
		held.delete(lockPath);
		try {
			if (readLock(lockPath)?.pid === process.pid) unlinkSync(lockPath);
		} catch {
			// already gone
		}
	};
}

/**
 * Locks a session file for writing: the lock file is created atomically (O_EXCL) with pid, host and
 * start time; a stale lock of a dead process on this host is taken over. Released on `release()`,
 * on exit and on signals.
 */
export function acquireLock(sessionFile: string): LockResult {
	const lockPath = lockPathFor(sessionFile);
	for (let attempt = 0; attempt < 2; attempt++) {
		const count = held.get(lockPath);
		if (count !== undefined && readLock(lockPath)?.pid === process.pid) {
			held.set(lockPath, count + 1);
			return { kind: "acquired", release: releaser(lockPath) };
		}
		if (tryCreate(lockPath)) {
			held.set(lockPath, 1);
			installExitHook();
			return { kind: "acquired", release: releaser(lockPath) };
		}
		const holder = readLock(lockPath);
		if (holder && !isLockStale(holder)) return { kind: "held", holder };
		// Stale (or unreadable, e.g. torn by a crash mid-write): take it over.
		try {
			unlinkSync(lockPath);
		} catch {
			// another process took it over first; the next attempt sees its lock
		}
	}
	const holder = readLock(lockPath);
	return holder ? { kind: "held", holder } : { kind: "held", holder: { pid: 0, host: hostname(), startedAt: "" } };
}

/** Who holds a session file if it is another live process (this process's own locks and stale ones don't count). */
export function lockHolderOther(sessionFile: string): LockInfo | undefined {
	const holder = readLock(lockPathFor(sessionFile));
	if (!holder || holder.pid === process.pid || isLockStale(holder)) return undefined;
	return holder;
}
