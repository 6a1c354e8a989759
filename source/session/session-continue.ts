import { dirname, resolve } from "node:path";
import { getRecentSessions } from "./session-discovery.js";
import type { LockInfo } from "./session-lock.js";
import type { SessionStorage } from "./session-storage.js";
import { readTerminalBreadcrumb } from "./terminal-breadcrumb.js";

/** What `--continue` will open, and the sessions it passed over because another xcsh has them. */
export interface ContinueTarget {
	path: string | undefined;
	skipped: { path: string; holder: LockInfo }[];
}

/** Session files of a directory, newest first. */
export type NewestFirst = (sessionDir: string, storage: SessionStorage) => Promise<string[]>;

const SCAN_LIMIT = 200;

/** Session files of a directory, newest first, from their 4 KB prefixes. */
export const newestFirstByPrefix: NewestFirst = async (sessionDir, storage) =>
	(await getRecentSessions(sessionDir, SCAN_LIMIT, storage)).map((recent) => recent.path);

/**
 * The file `--continue` opens: this terminal's breadcrumb when it points into `sessionDir`, else the
 * newest session there — skipping sessions another live xcsh has open.
 */
export async function resolveContinueTarget(
	cwd: string,
	sessionDir: string,
	storage: SessionStorage,
	newestFirst: NewestFirst = newestFirstByPrefix,
): Promise<ContinueTarget> {
	const skipped: ContinueTarget["skipped"] = [];
	const usable = (path: string): boolean => {
		const holder = storage.lockHolder(path);
		if (holder) skipped.push({ path, holder });
		return holder === undefined;
	};
	const crumb = await readTerminalBreadcrumb(storage, cwd);
	if (crumb && dirname(resolve(crumb)) === resolve(sessionDir) && usable(crumb)) return { path: crumb, skipped };
	for (const path of await newestFirst(sessionDir, storage)) {
		if (path === crumb) continue;
		if (usable(path)) return { path, skipped };
	}
	return { path: undefined, skipped };
}
