import { resolveBlobRefs } from "./blob-refs.js";
import { migrateSessionEntries } from "./migrations.js";
import { describeMalformedVersion } from "./session-header.js";
import type { SessionFileRead } from "./session-loader.js";
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
}

/** A loaded, migrated session file, ready to adopt. */
export interface LoadedState {
	header: SessionHeader;
	entries: StoredEntry[];
	report: SessionLoadReport;
	migrated: boolean;
}

function notASessionFile(path: string): Error {
	return new Error(`Not a session file: ${path}`);
}

/** Loads, migrates (in memory) and resolves blobs; throws `Not a session file` for foreign files. */
export async function loadState(
	path: string,
	read: SessionFileRead,
	storage: SessionStorage,
): Promise<LoadedState | undefined> {
	if (read.kind === "invalid") throw notASessionFile(path);
	if (read.kind !== "ok") return undefined;
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
	};
}
