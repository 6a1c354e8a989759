import { resolve } from "node:path";
import { userMessageText } from "../session/messages.js";
import type { SessionManager } from "../session/session-manager.js";
import type { NavigateTreeOptions, NavigateTreeResult } from "../session/tree-navigation.js";
import type { RestoreMode } from "./checkpoint-data.js";
import { allCheckpoints, type CheckpointTree } from "./checkpoint-timeline.js";
import { GIT_MISSING_NOTICE, gitAvailable } from "./git-process.js";
import { sessionStore } from "./project-store.js";
import {
	applyRestore,
	codeStateOf,
	filesAtRisk,
	planRestore,
	RestoreError,
	type RestoreOutcome,
	type RestorePlan,
	type RestoreRequest,
} from "./restore.js";
import type { ShadowRepo } from "./shadow-repo.js";
import { rawChanges, unifiedDiff } from "./tree-diff.js";

/** The running session a rewind moves (AgentSession fits): its store, and how the conversation moves. */
export interface RewindSession {
	readonly sessionManager: SessionManager;
	readonly isStreaming: boolean;
	navigateTree(entryId: string, options: NavigateTreeOptions): Promise<NavigateTreeResult>;
	branch(entryId: string): Promise<void>;
	/** Stops a branch summary in flight (Escape). */
	abort(): Promise<void>;
}

/** Said when a restore is asked for while the agent works. */
export const RESTORE_WHILE_STREAMING = "Wait for the agent to finish (or press Escape) before restoring files";
/** Said when a read-only session is asked to restore files. */
export const RESTORE_READ_ONLY = "This session is open read-only: /fork to restore its files in a copy";

/** Whether the files at an entry differ from the working tree, and in how many files. */
export type CodeCheck = { readonly kind: "same" } | { readonly kind: "differs"; readonly files: number };

/** A restore worked out, with the files it would overwrite that changed outside xcsh. */
export interface RewindPlan {
	readonly plan: RestorePlan;
	readonly risky: readonly string[];
}

/** What carrying out a rewind did. */
export type RewindOutcome =
	| { readonly kind: "restored"; readonly outcome: RestoreOutcome; readonly editorText?: string }
	| { readonly kind: "cancelled" };

/** The project's store for a session, or a RestoreError saying why files cannot be restored here. */
export async function rewindStore(session: RewindSession): Promise<ShadowRepo> {
	const manager = session.sessionManager;
	if (session.isStreaming) throw new RestoreError(RESTORE_WHILE_STREAMING);
	if (manager.isReadOnly()) throw new RestoreError(RESTORE_READ_ONLY);
	if (!(await gitAvailable())) throw new RestoreError(GIT_MISSING_NOTICE);
	return sessionStore(resolve(manager.getCwd()), manager);
}

/** Compares the files that belong to an entry with the working tree ("same" when none were recorded). */
export async function checkCode(session: RewindSession, entryId: string): Promise<CodeCheck> {
	const manager = session.sessionManager;
	let commit: string;
	try {
		commit = codeStateOf(manager, entryId);
	} catch (error) {
		if (error instanceof RestoreError) return { kind: "same" };
		throw error;
	}
	if (!(await gitAvailable())) return { kind: "same" };
	const repo = await sessionStore(resolve(manager.getCwd()), manager);
	const now = await repo.scratchTree(manager.getSessionId());
	const then = await repo.treeOf(commit);
	if (then === now.tree) return { kind: "same" };
	return { kind: "differs", files: (await rawChanges(repo, now.tree, then)).length };
}

/** Works out a restore (nothing is written). */
export async function planRewind(session: RewindSession, request: RestoreRequest): Promise<RewindPlan> {
	const repo = await rewindStore(session);
	const plan = await planRestore(session.sessionManager, repo, request);
	return { plan, risky: filesAtRisk(plan) };
}

/**
 * Carries out a planned rewind. The conversation moves through the session (a summary of the
 * branch left, the prompt back in the editor, the agent's context rebuilt) before any file is
 * touched, so a cancelled summary changes nothing; the files follow with a guard snapshot first.
 */
export async function carryOutRewind(
	session: RewindSession,
	rewind: RewindPlan,
	navigation: NavigateTreeOptions = {},
): Promise<RewindOutcome> {
	const repo = await rewindStore(session);
	const manager = session.sessionManager;
	const { plan } = rewind;
	// An undo, a code-only restore, or a move to the root: the restore moves the leaf itself.
	if (plan.undoOf !== undefined || plan.leafId === undefined || plan.targetId === null) {
		const outcome = await applyRestore(manager, repo, plan);
		// The leaf moved under the agent: rebuild its context from the path through the marker.
		if (plan.leafId !== undefined) await session.branch(outcome.markerId);
		return { kind: "restored", outcome };
	}
	const moved = await session.navigateTree(plan.targetId, navigation);
	if (moved.cancelled) return { kind: "cancelled" };
	// The leaf is where the navigation put it (after a branch summary, if one was made).
	const outcome = await applyRestore(manager, repo, { ...plan, leafId: undefined });
	return { kind: "restored", outcome, ...(moved.editorText !== undefined ? { editorText: moved.editorText } : {}) };
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** One line for the chat: what a restore did to the files, and how to take it back. */
export function describeRewind(outcome: RestoreOutcome): string {
	const { plan } = outcome;
	const what = plan.undoOf
		? "Undid the last restore"
		: plan.mode === "code"
			? "Restored the files"
			: "Restored the code and the conversation";
	if (plan.commit === undefined) return `${what}.`;
	const files = `${plural(outcome.written.length, "file")} written, ${plural(outcome.trashed.length, "file")} moved to the trash`;
	return plan.undoOf ? `${what}: ${files}` : `${what}: ${files} · /rewind undo puts them back`;
}

/** The confirm dialog's title when files changed outside xcsh would be overwritten. */
export function outsideChangesTitle(risky: readonly string[]): string {
	return `${plural(risky.length, "file")} changed outside xcsh since its last checkpoint will be overwritten: ${risky.join(", ")}`;
}

/** The diff from the files at an entry to the working tree ("" when they are the same). */
export async function diffToWorkingTree(session: RewindSession, entryId: string): Promise<string> {
	const manager = session.sessionManager;
	const commit = codeStateOf(manager, entryId);
	if (!(await gitAvailable())) throw new RestoreError(GIT_MISSING_NOTICE);
	const repo = await sessionStore(resolve(manager.getCwd()), manager);
	const now = await repo.scratchTree(manager.getSessionId());
	return unifiedDiff(repo, await repo.treeOf(commit), now.tree);
}

/** Per entry, how many files the turn that ended there changed (for `±N files` on tree rows). */
export function fileCountsByEntry(tree: CheckpointTree): ReadonlyMap<string, number> {
	const counts = new Map<string, number>();
	for (const record of allCheckpoints(tree)) {
		if (record.data.kind !== "turn") continue;
		const id = record.data.entryId ?? record.parentId;
		if (id !== null) counts.set(id, (counts.get(id) ?? 0) + record.data.files.length);
	}
	return counts;
}

/** A prompt of the current path, as `/rewind` lists it. */
export interface PathPrompt {
	readonly entryId: string;
	readonly text: string;
	readonly timestamp: string;
}

/** The user prompts on the path root → leaf, newest first. */
export function pathPrompts(tree: CheckpointTree): PathPrompt[] {
	const prompts: PathPrompt[] = [];
	for (const shape of tree.getBranchSkeleton()) {
		if (shape.type !== "message") continue;
		const entry = tree.getEntry(shape.id) as { message?: { role?: unknown; content?: unknown } } | undefined;
		const text = userMessageText(entry?.message);
		if (text !== undefined) prompts.push({ entryId: shape.id, text, timestamp: shape.timestamp });
	}
	return prompts.reverse();
}

export type { RestoreMode };
