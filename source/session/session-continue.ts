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

const SCAN_LIMIT = 200;

/**
 * The file `--continue` opens: this terminal's breadcrumb when it points into `sessionDir`, else the
 * newest session there — skipping sessions another live xcsh has open.
 */
export async function resolveContinueTarget(
	cwd: string,
	sessionDir: string,
	storage: SessionStorage,
): Promise<ContinueTarget> {
	const skipped: ContinueTarget["skipped"] = [];
	const usable = (path: string): boolean => {
		const holder = storage.lockHolder(path);
		if (holder) skipped.push({ path, holder });
		return holder === undefined;
	};
	const crumb = await readTerminalBreadcrumb(storage, cwd);
	if (crumb && dirname(resolve(crumb)) === resolve(sessionDir) && usable(crumb)) return { path: crumb, skipped };
	for (const recent of await getRecentSessions(sessionDir, SCAN_LIMIT, storage)) {
		if (recent.path === crumb) continue;
		if (usable(recent.path)) return { path: recent.path, skipped };
	}
	return { path: undefined, skipped };
}
