import { resolve } from "node:path";
import { listIndexedSessions } from "../index/indexed-sessions.js";
import { allSessionDirs, listSessionsIn } from "./session-discovery.js";
import { getDefaultSessionDir } from "./session-paths.js";
import { FileSessionStorage, type SessionStorage } from "./session-storage.js";
import type { SessionInfo } from "./types.js";

// The index only knows files on disk: sessions in other storage are read directly.
const isOtherStorage = (storage: SessionStorage | undefined): storage is SessionStorage =>
	storage !== undefined && !(storage instanceof FileSessionStorage);

/** Sessions of one project, newest first (from the session index; the files when it is unusable). */
export async function listProjectSessions(
	cwd: string,
	sessionDir?: string,
	storage?: SessionStorage,
): Promise<SessionInfo[]> {
	const dir = resolve(sessionDir ?? getDefaultSessionDir(cwd));
	if (isOtherStorage(storage)) return listSessionsIn([dir], storage);
	return (await listIndexedSessions({ dir })) ?? listSessionsIn([dir], new FileSessionStorage());
}

/** Sessions of every project under the agent dir, newest first (from the session index when usable). */
export async function listAllSessions(storage?: SessionStorage): Promise<SessionInfo[]> {
	if (isOtherStorage(storage)) return listSessionsIn(allSessionDirs(storage), storage);
	const store = new FileSessionStorage();
	return (await listIndexedSessions("all")) ?? listSessionsIn(allSessionDirs(store), store);
}
