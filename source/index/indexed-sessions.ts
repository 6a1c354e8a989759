import { resolve } from "node:path";
import { log } from "../logger.js";
import {
	type IndexedSessionInfo,
	type RefreshOptions,
	type RefreshProgress,
	type RefreshResult,
	SessionIndex,
} from "./session-index.js";

/** Which sessions a listing covers: one session directory, or every project. */
export type ListingScope = { dir: string } | "all";

function listScope(index: SessionIndex, scope: ListingScope): IndexedSessionInfo[] {
	return scope === "all" ? index.list() : index.listDir(scope.dir);
}

function refreshScope(
	index: SessionIndex,
	scope: ListingScope,
	onProgress?: RefreshOptions["onProgress"],
): Promise<RefreshResult> {
	return index.refresh({ dirs: scope === "all" ? undefined : [resolve(scope.dir)], onProgress });
}

// Below this many files a refresh is quick enough that a counter would only flicker.
const PROGRESS_MIN_FILES = 50;
const PROGRESS_INTERVAL_MS = 100;

/**
 * An `onProgress` for long refreshes that reports "1,234 of 10,000" at most every 100 ms, and
 * nothing for refreshes of a few files.
 */
export function progressReporter(report: (text: string) => void, now: () => number = Date.now) {
	let last = 0;
	return (progress: RefreshProgress): void => {
		if (progress.total < PROGRESS_MIN_FILES) return;
		const at = now();
		if (at - last < PROGRESS_INTERVAL_MS && progress.done < progress.total) return;
		last = at;
		report(`${progress.done.toLocaleString("en-US")} of ${progress.total.toLocaleString("en-US")}`);
	};
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
	refreshed: (
		onProgress?: RefreshOptions["onProgress"],
	) => Promise<{ sessions: IndexedSessionInfo[]; changes: RefreshResult }>;
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
		refreshed: async (onProgress) => {
			try {
				const changes = await refreshScope(index, scope, onProgress);
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
