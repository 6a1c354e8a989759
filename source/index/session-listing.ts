import { resolve } from "node:path";
import { type NewestFirst, newestFirstByPrefix } from "../session/session-continue.js";
import { SessionManager } from "../session/session-manager.js";
import { getDefaultSessionDir } from "../session/session-paths.js";
import type { SessionInfo } from "../session/types.js";
import { listIndexedSessions } from "./indexed-sessions.js";

/** Sessions of one project, newest first (from the session index; the files when it is unusable). */
export async function listProjectSessions(cwd: string, sessionDir?: string): Promise<SessionInfo[]> {
	const dir = resolve(sessionDir ?? getDefaultSessionDir(cwd));
	return (await listIndexedSessions({ dir })) ?? SessionManager.list(cwd, dir);
}

/** Sessions of every project under the agent dir, newest first (from the session index when usable). */
export async function listAllSessions(): Promise<SessionInfo[]> {
	return (await listIndexedSessions("all")) ?? SessionManager.listAll();
}

/**
 * Session files of a directory, newest first, for `SessionManager.continueRecent`'s `newestFirst`:
 * from the session index, or from the files' prefixes when it is unusable.
 */
export const newestSessionPaths: NewestFirst = async (sessionDir, storage) => {
	const indexed = await listIndexedSessions({ dir: sessionDir });
	if (indexed) return indexed.map((session) => session.path);
	return newestFirstByPrefix(sessionDir, storage);
};
