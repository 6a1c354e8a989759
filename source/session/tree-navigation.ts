import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { collectFileOperations } from "../agent/compaction/file-operations.js";
import { summarize } from "../agent/compaction/summarizer.js";
import { userMessageText } from "./messages.js";
import { messageOfEntry } from "./session-context.js";
import type { SessionManager } from "./session-manager.js";
import type { SummaryRequests } from "./summary-requests.js";

/** Options of `navigateTree`. */
export interface NavigateTreeOptions {
	/** Summarise the branch being left into a `branch_summary` entry. */
	summarize?: boolean;
	customInstructions?: string;
}

/** What `navigateTree` did. */
export interface NavigateTreeResult {
	/** The summary was cancelled (Escape): nothing changed. */
	cancelled: boolean;
	/** Text of the user message navigated to, for the editor (that message is not re-sent). */
	editorText?: string;
	oldLeafId: string | null;
	newLeafId: string | null;
	summaryEntryId?: string;
}

/** What tree navigation works on. */
export interface TreeNavigationDeps {
	sessionManager: SessionManager;
	requests: SummaryRequests;
	/** Rebuilds the agent from the session's new path. */
	rebuild: () => void;
}

/** The messages of the branch being left: from the old leaf back to (not including) the common ancestor. */
function abandonedBranchMessages(
	sessionManager: SessionManager,
	oldLeafId: string | null,
	newLeafId: string | null,
): AgentMessage[] {
	// Paths are compared by their skeletons: only the abandoned entries' bodies are read.
	const oldPath = oldLeafId === null ? [] : sessionManager.getBranchSkeleton(oldLeafId);
	const onNewPath = new Set(newLeafId === null ? [] : sessionManager.getBranchSkeleton(newLeafId).map((e) => e.id));
	const abandoned: AgentMessage[] = [];
	for (const shape of oldPath) {
		if (onNewPath.has(shape.id)) continue;
		const entry = sessionManager.getEntry(shape.id);
		const message = entry && messageOfEntry(entry);
		if (message) abandoned.push(message);
	}
	return abandoned;
}

/**
 * Moves the leaf: to a user message's parent (its text goes back to the editor), otherwise to
 * the target itself; with `summarize`, the branch left behind is summarised first.
 */
export async function navigateTree(
	deps: TreeNavigationDeps,
	targetId: string,
	options: NavigateTreeOptions,
): Promise<NavigateTreeResult> {
	const { sessionManager, requests } = deps;
	const target = sessionManager.getEntry(targetId);
	if (!target) throw new Error(`Entry ${targetId} not found`);
	const oldLeafId = sessionManager.getLeafId();
	let newLeafId: string | null = target.id;
	let editorText: string | undefined;
	if (target.type === "message") {
		const text = userMessageText((target as { message?: { role?: unknown; content?: unknown } }).message);
		if (text !== undefined) {
			newLeafId = target.parentId;
			editorText = text;
		}
	}
	const base = editorText !== undefined ? { editorText } : {};
	if (newLeafId === oldLeafId) return { cancelled: false, oldLeafId, newLeafId, ...base };

	let summaryEntryId: string | undefined;
	const abandoned = options.summarize ? abandonedBranchMessages(sessionManager, oldLeafId, newLeafId) : [];
	if (abandoned.length > 0) {
		let summary: string;
		try {
			summary = await summarize({
				...(await requests.next()),
				kind: "branch",
				messages: abandoned,
				...(options.customInstructions ? { instructions: options.customInstructions } : {}),
			});
		} catch (error) {
			if (requests.aborted) return { cancelled: true, oldLeafId, newLeafId: oldLeafId };
			throw error;
		}
		summaryEntryId = sessionManager.branchWithSummary(newLeafId, summary, collectFileOperations(abandoned));
	} else if (newLeafId === null) {
		sessionManager.resetLeaf();
	} else {
		sessionManager.branch(newLeafId);
	}
	deps.rebuild();
	return {
		cancelled: false,
		oldLeafId,
		newLeafId: summaryEntryId ?? newLeafId,
		...base,
		...(summaryEntryId ? { summaryEntryId } : {}),
	};
}
