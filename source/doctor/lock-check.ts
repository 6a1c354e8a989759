import { existsSync } from "node:fs";
import { isLockStale, lockPathFor, readLock } from "../session/session-lock.js";
import type { Finding } from "./findings.js";

/** What the lock next to a session file says, read-only. */
export type LockState =
	| { kind: "none" }
	| { kind: "stale"; lockPath: string; pid: number | null }
	| { kind: "live"; lockPath: string; pid: number; host: string };

/** Reads `<file>.lock` without touching it. Judged with the lock module's own rule (same host, pid gone). */
export function inspectLock(sessionFile: string): LockState {
	const lockPath = lockPathFor(sessionFile);
	const holder = readLock(lockPath);
	if (!holder) {
		// An unreadable lock (torn by a crash mid-write) is one the lock module takes over as stale.
		return existsSync(lockPath) ? { kind: "stale", lockPath, pid: null } : { kind: "none" };
	}
	if (isLockStale(holder)) return { kind: "stale", lockPath, pid: holder.pid };
	return { kind: "live", lockPath, pid: holder.pid, host: holder.host };
}

/** The lock as a finding, if there is one. */
export function lockFinding(state: LockState): Finding | undefined {
	switch (state.kind) {
		case "none":
			return undefined;
		case "stale":
			return { kind: "stale-lock", lockPath: state.lockPath, pid: state.pid };
		case "live":
			return { kind: "live-lock", pid: state.pid, host: state.host };
	}
}
