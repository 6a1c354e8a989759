import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { removeIfSame, statFile } from "../session/lock-file.js";
import { processStartOf } from "../session/process-start.js";
import { isProcessAlive, type LockInfo, lockPathFor, readLock } from "../session/session-lock.js";

/** Who holds a lock, as `xcsh doctor --unlock` judges it. */
export type LockHolderState =
	| { kind: "none" }
	| { kind: "unreadable"; bytes: number; modifiedAt: string }
	| { kind: "dead"; holder: LockInfo }
	| { kind: "other-host"; holder: LockInfo }
	/** The pid is alive on this host but is another program than the process that took the lock. */
	| { kind: "other-process"; holder: LockInfo }
	| { kind: "live-xcsh"; holder: LockInfo };

/** What `unlockSession` did. */
export type UnlockOutcome =
	| { kind: "not-locked"; lockPath: string }
	| { kind: "removed"; lockPath: string; state: Exclude<LockHolderState, { kind: "none" | "live-xcsh" }> }
	| { kind: "refused"; lockPath: string; holder: LockInfo }
	| { kind: "changed"; lockPath: string };

/** True when the live pid is the very process that wrote the lock (or it cannot be told otherwise). */
function isSameProcess(holder: LockInfo): boolean {
	if (holder.procStart !== undefined) {
		const now = processStartOf(holder.pid);
		return now === undefined || now === holder.procStart;
	}
	// Locks of older versions carry no start time: judge by the command line.
	try {
		return readFileSync(`/proc/${holder.pid}/cmdline`, "utf8").includes("xcsh");
	} catch {
		return true;
	}
}

/** Judges the lock of a session file without touching it. */
export function judgeLockHolder(lockPath: string): LockHolderState {
	const stat = statFile(lockPath);
	if (!stat) return { kind: "none" };
	const holder = readLock(lockPath);
	if (!holder) return { kind: "unreadable", bytes: stat.size, modifiedAt: new Date(stat.mtimeMs).toISOString() };
	if (holder.host !== hostname()) return { kind: "other-host", holder };
	if (!isProcessAlive(holder.pid)) return { kind: "dead", holder };
	return isSameProcess(holder) ? { kind: "live-xcsh", holder } : { kind: "other-process", holder };
}

/** The session file a path names (the session file itself, or its `.lock`). */
export function sessionFileOf(path: string): string {
	return path.endsWith(".lock") ? path.slice(0, -".lock".length) : path;
}

/**
 * Breaks a session's lock (`xcsh doctor --unlock`): a lock of another host, of a dead process, of
 * a pid now running another program, or an unreadable one. A running xcsh on this host is refused:
 * closing (or killing) it is what releases its lock. Removes the lock only if it is still the file
 * judged.
 */
export function unlockSession(sessionFile: string): UnlockOutcome {
	const lockPath = lockPathFor(sessionFile);
	const stat = statFile(lockPath);
	let text: string | undefined;
	try {
		text = readFileSync(lockPath, "utf8");
	} catch {
		text = undefined;
	}
	const state = judgeLockHolder(lockPath);
	switch (state.kind) {
		case "none":
			return { kind: "not-locked", lockPath };
		case "live-xcsh":
			return { kind: "refused", lockPath, holder: state.holder };
		case "unreadable":
		case "dead":
		case "other-host":
		case "other-process": {
			if (!stat) return { kind: "changed", lockPath };
			const removed = removeIfSame(lockPath, { dev: stat.dev, ino: stat.ino, text });
			return removed === "changed" ? { kind: "changed", lockPath } : { kind: "removed", lockPath, state };
		}
	}
}
