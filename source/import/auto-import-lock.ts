import { hostname } from "node:os";
import { join } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import { ensurePrivateDirSync } from "../private-files.js";
import {
	createLinked,
	type FileIdentity,
	LOCK_GRACE_MS,
	readIfPresent,
	removeIfSame,
	statFile,
} from "../session/lock-file.js";
import { processStartOf } from "../session/process-start.js";
import { isProcessAlive, type LockInfo } from "../session/session-lock.js";

/** Where the one background import at a time says who runs it: `<agent dir>/imports/auto-import.lock`. */
export function autoImportLockPath(agentDir: string = getAgentDir()): string {
	return join(agentDir, "imports", "auto-import.lock");
}

/** What trying to take the auto-import lock gave. */
export type AutoLock = { kind: "acquired"; release: () => void } | { kind: "held"; holder: LockInfo };

function parse(text: string | undefined): LockInfo | undefined {
	if (text === undefined) return undefined;
	try {
		const value = JSON.parse(text) as Partial<LockInfo>;
		if (typeof value.pid !== "number" || typeof value.host !== "string") return undefined;
		return {
			pid: value.pid,
			host: value.host,
			startedAt: typeof value.startedAt === "string" ? value.startedAt : "",
			...(typeof value.procStart === "string" ? { procStart: value.procStart } : {}),
		};
	} catch {
		return undefined;
	}
}

/**
 * Whether the holder is gone: a dead pid of this host, or a pid now held by another process (its
 * start time differs: pids are reused, in containers right after a restart). Another host's lock
 * is never judged (its pids mean nothing here).
 */
function isGone(holder: LockInfo): boolean {
	if (holder.host !== hostname()) return false;
	if (!isProcessAlive(holder.pid)) return true;
	if (holder.procStart === undefined) return false;
	const now = processStartOf(holder.pid);
	return now !== undefined && now !== holder.procStart;
}

type Judged =
	| { kind: "gone" }
	| { kind: "held"; holder: LockInfo }
	| { kind: "stale"; identity: FileIdentity; text: string | undefined };

function judge(path: string): Judged {
	const stat = statFile(path);
	if (!stat) return { kind: "gone" };
	const text = readIfPresent(path);
	const holder = parse(text);
	if (holder) return isGone(holder) ? { kind: "stale", identity: stat, text } : { kind: "held", holder };
	// Unreadable: a lock is written whole (createLinked), so only a damaged one lasts past the grace.
	if (Date.now() - stat.mtimeMs < LOCK_GRACE_MS)
		return { kind: "held", holder: { pid: 0, host: hostname(), startedAt: "" } };
	return { kind: "stale", identity: stat, text };
}

/** The live holder of the lock at `path`, if any (a stale lock has none). */
export function autoImportHolder(path: string = autoImportLockPath()): LockInfo | undefined {
	const found = judge(path);
	return found.kind === "held" ? found.holder : undefined;
}

/**
 * Takes the lock for one background import. The lock appears whole (pid, host, start time); a
 * stale one (its process gone) is removed first, only if it is still the file judged, so two
 * processes breaking it at once never remove each other's new lock. Released by `release()` and
 * on exit; a kill -9 leaves a stale lock the next import removes.
 */
export function acquireAutoImportLock(path: string = autoImportLockPath()): AutoLock {
	const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
	const procStart = processStartOf(process.pid);
	if (procStart !== undefined) info.procStart = procStart;
	const content = `${JSON.stringify(info)}\n`;
	ensurePrivateDirSync(join(path, ".."));
	// Two rounds: a stale lock removed in the first leaves the name free for the second.
	for (let round = 0; round < 2; round++) {
		const identity = createLinked(path, content);
		if (identity) {
			const release = () => {
				process.off("exit", release);
				removeIfSame(path, { ...identity, text: content });
			};
			process.on("exit", release);
			return { kind: "acquired", release };
		}
		const found = judge(path);
		if (found.kind === "held") return found;
		if (found.kind === "stale") removeIfSame(path, { ...found.identity, text: found.text });
	}
	return { kind: "held", holder: autoImportHolder(path) ?? { pid: 0, host: hostname(), startedAt: "" } };
}
