import { readdirSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isProcessAlive } from "./session-lock.js";

/** A temp file a process left next to a session file when it died mid-write. */
export interface StaleTemp {
	path: string;
	pid: number;
	bytes: number;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Temp files of this session whose writer is no longer running on this host: atomic rewrites
 * (`.<file>.<pid>.<hex>.tmp`, a full unredacted copy) and lock helpers (`.<file>.lock….<pid>.<hex>.tmp`).
 * A live pid's temp file is never listed: it may be a rewrite in progress.
 */
export function findStaleTemps(sessionFile: string): StaleTemp[] {
	const pattern = new RegExp(
		`^\\.${escapeRegExp(basename(sessionFile))}(?:\\.lock(?:\\.takeover)?)?\\.(\\d+)\\.[0-9a-f]+\\.tmp$`,
	);
	const dir = dirname(sessionFile);
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}
	const stale: StaleTemp[] = [];
	for (const name of names.sort()) {
		const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN);
		if (!Number.isInteger(pid) || pid === process.pid || isProcessAlive(pid)) continue;
		const path = join(dir, name);
		try {
			const stat = statSync(path);
			if (stat.isFile()) stale.push({ path, pid, bytes: stat.size });
		} catch {
			// gone meanwhile
		}
	}
	return stale;
}

/** Removes the session's stale temp files (see findStaleTemps); returns the ones removed. */
export function removeStaleTemps(sessionFile: string): StaleTemp[] {
	const removed: StaleTemp[] = [];
	for (const temp of findStaleTemps(sessionFile)) {
		try {
			unlinkSync(temp.path);
			removed.push(temp);
		} catch {
			// gone meanwhile, or not ours to remove: left for doctor to report
		}
	}
	return removed;
}
