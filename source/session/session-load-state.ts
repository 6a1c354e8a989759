import { resolveBlobRefs } from "./blob-refs.js";
import { type EntrySlot, isLazy, residentEntry } from "./lazy-entry.js";
import { migrateSessionEntries } from "./migrations.js";
import { describeMalformedVersion } from "./session-header.js";
import type { SessionFileRead, SessionSkeletonRead } from "./session-loader.js";
import type { SessionStorage } from "./session-storage.js";
import type { JsonlLineError, SessionHeader, StoredEntry } from "./types.js";

/** What loading the current file found, for callers that want to tell the person. */
export interface SessionLoadReport {
	skippedLines: JsonlLineError[];
	tornTail: boolean;
	migratedFrom?: number;
	unresolvedBlobs: string[];
	/** Why the header cannot be trusted (the session then opens read-only until `xcsh doctor --fix`). */
	headerProblem?: string;
	/** Entries whose bodies were left on disk at load (a big session), read when asked for. */
	entriesOnDisk?: number;
	/** A big session's skeleton: read whole and cached, taken from the cache, or taken and extended by what was appended. */
	skeletonCache?: "built" | "reused" | "extended";
}

/** A loaded, migrated session file, ready to adopt. */
export interface LoadedState {
	header: SessionHeader;
	/** In memory, or skeletons whose bodies are on disk (a big v3 file read with `readSessionSkeleton`). */
	entries: EntrySlot[];
	report: SessionLoadReport;
	migrated: boolean;
	/** True when some entries are skeletons. */
	lazy: boolean;
}

function notASessionFile(path: string): Error {
	return new Error(`Not a session file: ${path}`);
}

/** Loads, migrates (in memory) and resolves blobs; throws `Not a session file` for foreign files. */
export async function loadState(
	path: string,
	read: SessionFileRead | SessionSkeletonRead,
	storage: SessionStorage,
): Promise<LoadedState | undefined> {
	if (read.kind === "invalid") throw notASessionFile(path);
	if (read.kind !== "ok") return undefined;
	if ("header" in read) {
		const lazy = read.entries.some(isLazy);
		// Skeletons are only made of v3 files, which need no migration.
		if (!lazy) {
			const all = [read.header, ...(read.entries as StoredEntry[])];
			return loadState(path, { ...read, entries: all }, storage);
		}
		const resident: StoredEntry[] = [];
		for (const slot of read.entries) {
			const entry = residentEntry(slot);
			if (entry) resident.push(entry);
		}
		const unresolvedBlobs = await resolveBlobRefs(resident, storage.blobs);
		const report: SessionLoadReport = {
			skippedLines: read.skipped,
			tornTail: read.missingFinalNewline,
			unresolvedBlobs,
			entriesOnDisk: read.entries.length - resident.length,
		};
		return { header: read.header, entries: read.entries, report, migrated: false, lazy };
	}
	const migratedFrom = migrateSessionEntries(read.entries);
	const unresolvedBlobs = await resolveBlobRefs(read.entries, storage.blobs);
	const report: SessionLoadReport = { skippedLines: read.skipped, tornTail: read.missingFinalNewline, unresolvedBlobs };
	if (migratedFrom !== undefined) report.migratedFrom = migratedFrom;
	if (read.version.kind === "malformed") report.headerProblem = describeMalformedVersion(read.version.value);
	return {
		header: read.entries[0] as SessionHeader,
		entries: read.entries.slice(1) as StoredEntry[],
		report,
		migrated: migratedFrom !== undefined,
		lazy: false,
	};
}
