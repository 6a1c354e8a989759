import { fileCountsByEntry } from "../source/checkpoints/session-rewind.js";
import type { SessionManager } from "../source/session/session-manager.js";
import type { SummaryTreeNode } from "../source/session/summary-tree.js";

/**
 * What screens may read of the open session. Nothing here writes, and nothing leads back to the
 * `SessionManager`: labels, moves and names go through the app controller.
 */
export interface SessionView {
	/** The open session's file (undefined for a session kept in memory). */
	getSessionFile(): string | undefined;
	/** The session's working directory. */
	getCwd(): string;
	/** The entry tree (for `/tree`), read afresh on every call. */
	getTree(): readonly SummaryTreeNode[];
	/** The current leaf (null before the first entry). */
	getLeafId(): string | null;
	/** Per entry, how many files the turn that ended there changed (read afresh on every call). */
	getFileCounts(): ReadonlyMap<string, number>;
}

/** A read-only view of whichever manager `manager()` returns now (a switch may replace it). */
export function viewOf(manager: () => SessionManager): SessionView {
	return {
		getSessionFile: () => manager().getSessionFile(),
		getCwd: () => manager().getCwd(),
		getTree: () => manager().getSummaryTree(),
		getLeafId: () => manager().getLeafId(),
		getFileCounts: () => fileCountsByEntry(manager()),
	};
}
