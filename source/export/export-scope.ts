import type { SessionManager } from "../session/session-manager.js";
import type { StoredEntry } from "../session/types.js";

/** What part of a session an export carries. */
export type ExportScope = { kind: "tree" } | { kind: "branch" } | { kind: "entry"; entryId: string };

/** The entries an export of `scope` carries, and the leaf it shows. */
export function entriesInScope(
	sessionManager: SessionManager,
	scope: ExportScope,
): { entries: StoredEntry[]; leafId: string | null } {
	if (scope.kind === "tree") return { entries: sessionManager.getEntries(), leafId: sessionManager.getLeafId() };
	const leaf = scope.kind === "branch" ? sessionManager.getLeafId() : scope.entryId;
	if (scope.kind === "entry" && !sessionManager.getEntry(scope.entryId))
		throw new Error(`Entry ${scope.entryId} not found`);
	const entries = leaf === null ? [] : sessionManager.getBranch(leaf);
	return { entries, leafId: entries.at(-1)?.id ?? null };
}

/** "the whole tree", "the active branch", "the path to <id>". */
export function scopeName(scope: ExportScope): string {
	if (scope.kind === "tree") return "the whole tree";
	return scope.kind === "branch" ? "the active branch" : `the path to ${scope.entryId}`;
}

/** The scope name with its size: "the active branch (N entries)". */
export function describeScope(scope: ExportScope, count: number): string {
	return `${scopeName(scope)} (${count} ${count === 1 ? "entry" : "entries"})`;
}
