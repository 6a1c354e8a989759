import { resolve } from "node:path";
import { log } from "../logger.js";
import { type IndexedSessionInfo, type RefreshResult, SessionIndex } from "./session-index.js";

/** Which sessions a listing covers: one session directory, or every project. */
export type ListingScope = { dir: string } | "all";

function listScope(index: SessionIndex, scope: ListingScope): IndexedSessionInfo[] {
	return scope === "all" ? index.list() : index.listDir(scope.dir);
}

function refreshScope(index: SessionIndex, scope: ListingScope): Promise<RefreshResult> {
	return index.refresh(scope === "all" ? {} : { dirs: [resolve(scope.dir)] });
}

/**
 * Runs `task` on the session index and closes it. The index is only a cache: when it cannot be
 * opened or used (read-only disk, broken SQLite), this logs why and returns undefined so the caller
 * reads the session files instead.
 */
export async function withSessionIndex<T>(task: (index: SessionIndex) => Promise<T> | T): Promise<T | undefined> {
	let index: SessionIndex | undefined;
	try {
		index = SessionIndex.open();
		return await task(index);
	} catch (error) {
		log.warn(`session index unavailable, reading session files: ${error instanceof Error ? error.message : error}`);
		return undefined;
	} finally {
		index?.close();
	}
}

/** Sessions of `scope`, newest first, brought up to date first; undefined when the index is unusable. */
export function listIndexedSessions(scope: ListingScope): Promise<IndexedSessionInfo[] | undefined> {
	return withSessionIndex(async (index) => {
		await refreshScope(index, scope);
		return listScope(index, scope);
	});
}

/** The two steps of an instant listing: what the index holds now, then what a refresh changed. */
export interface StagedListing {
	cached: IndexedSessionInfo[];
	refreshed: () => Promise<{ sessions: IndexedSessionInfo[]; changes: RefreshResult }>;
}

/**
 * Opens the index for a listing that paints before it refreshes: `cached` is ready at once,
 * `refreshed()` brings the index up to date, lists again and closes it.
 */
export function stagedListing(scope: ListingScope): StagedListing {
	const index = SessionIndex.open();
	let cached: IndexedSessionInfo[];
	try {
		cached = listScope(index, scope);
	} catch (error) {
		index.close();
		throw error;
	}
	return {
		cached,
		refreshed: async () => {
			try {
				const changes = await refreshScope(index, scope);
				return { sessions: listScope(index, scope), changes };
			} finally {
				index.close();
			}
		},
	};
}

/** "3 new, 1 updated, 2 removed" for what a refresh changed, or undefined when nothing did. */
export function describeChanges(changes: RefreshResult): string | undefined {
	const parts: string[] = [];
	if (changes.added > 0) parts.push(`${changes.added} new`);
	if (changes.updated > 0) parts.push(`${changes.updated} updated`);
	if (changes.removed > 0) parts.push(`${changes.removed} removed`);
	return parts.length > 0 ? parts.join(", ") : undefined;
}
