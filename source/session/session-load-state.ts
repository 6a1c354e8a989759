import { resolveBlobRefs } from "./blob-refs.js";
import { migrateSessionEntries } from "./migrations.js";
import { describeMalformedVersion } from "./session-header.js";
import type { SessionFileRead, SessionSkeletonRead } from "./session-loader.js";
import type { SessionStorage } from "./session-storage.js";
import { SkeletonColumns } from "./skeleton-columns.js";
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
	/** In memory, or the rows of a big v3 file read with `readSessionSkeleton` (bodies on disk). */
	entries: StoredEntry[] | SkeletonColumns;
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
		const rows = read.entries;
		// Skeletons are only made of v3 files, which need no migration.
		if (!(rows instanceof SkeletonColumns)) {
			// As a plain read's result: header first (with the header left in, this call came back here for ever).
			const { skipped, missingFinalNewline, version } = read;
			return loadState(
				path,
				{ kind: "ok", entries: [read.header, ...rows], skipped, missingFinalNewline, version },
				storage,
			);
		}
		const resident: StoredEntry[] = [];
		for (const [, entry] of rows.pins()) resident.push(entry);
		const unresolvedBlobs = await resolveBlobRefs(resident, storage.blobs);
		const report: SessionLoadReport = {
			skippedLines: read.skipped,
			tornTail: read.missingFinalNewline,
			unresolvedBlobs,
			entriesOnDisk: rows.size - resident.length,
		};
		return { header: read.header, entries: rows, report, migrated: false, lazy: true };
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
