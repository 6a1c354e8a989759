import { dirname, resolve } from "node:path";
import { findMostRecentSession } from "./session-discovery.js";
import type { SessionStorage } from "./session-storage.js";
import { readTerminalBreadcrumb } from "./terminal-breadcrumb.js";

/** The file `--continue` opens: this terminal's breadcrumb when it points into `sessionDir`, else the newest session there. */
export async function resolveContinueTarget(
	cwd: string,
	sessionDir: string,
	storage: SessionStorage,
): Promise<string | undefined> {
	const crumb = await readTerminalBreadcrumb(storage, cwd);
	if (crumb && dirname(resolve(crumb)) === resolve(sessionDir)) return crumb;
	return findMostRecentSession(sessionDir, storage);
}
