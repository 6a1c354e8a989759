import { basename, join } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import { userMessageText } from "../session/messages.js";
import { CHECKPOINT_CUSTOM_TYPE, type CheckpointData, type FileChange, type RestoreMode } from "./checkpoint-data.js";
import {
	allCheckpoints,
	type CheckpointRecord,
	type CheckpointTree,
	checkpointAt,
	lastKnownCheckpoint,
} from "./checkpoint-timeline.js";
import { moveFilesToTrash, writeFiles } from "./file-writer.js";
import type { ShadowRepo } from "./shadow-repo.js";
import { fileChanges, type RawChange, rawChanges } from "./tree-diff.js";

/** The session a restore moves (SessionManager fits). */
export interface RestoreSession extends CheckpointTree {
	getSessionId(): string;
	getLeafId(): string | null;
	branch(entryId: string): void;
	resetLeaf(): void;
	appendCustomEntry<T = unknown>(customType: string, data?: T): string;
}

/** What to restore: an entry (code and/or conversation), or the undo of the last restore. */
export type RestoreRequest = { kind: "entry"; entryId: string; mode: RestoreMode } | { kind: "undo" };

/** Why a restore cannot be planned. */
export class RestoreError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "RestoreError";
	}
}

/** What a restore would do, worked out without touching anything. */
export interface RestorePlan {
	readonly mode: RestoreMode;
	/** The entry asked for (null: the root). */
	readonly targetId: string | null;
	/** Where the leaf goes; undefined when the conversation stays where it is. */
	readonly leafId: string | null | undefined;
	readonly fromLeafId: string | null;
	/** The snapshot the files go back to; undefined when the files stay as they are. */
	readonly commit: string | undefined;
	/** Files written back (added or changed since) and files moved to the trash (created since). */
	readonly writes: readonly string[];
	readonly trash: readonly string[];
	/** Files changed outside xcsh since its last checkpoint: overwritten only with consent. */
	readonly outside: readonly FileChange[];
	readonly undoOf?: string;
}

/** What a restore did. */
export interface RestoreOutcome {
	readonly plan: RestorePlan;
	readonly guard: string;
	readonly written: readonly string[];
	readonly trashed: readonly string[];
	readonly trashDir: string | undefined;
	readonly markerId: string;
}

/** The leaf a move to `entryId` lands on: a user message's parent (its prompt is asked again), else the entry. */
function leafFor(tree: CheckpointTree, entryId: string): string | null {
	const entry = tree.getEntry(entryId) as { type?: string; parentId?: string | null; message?: unknown } | undefined;
	if (!entry) throw new RestoreError(`No entry ${entryId} in this session`);
	if (entry.type === "message" && userMessageText(entry.message as { role?: unknown }) !== undefined)
		return entry.parentId ?? null;
	return entryId;
}

/** The snapshot of the files that belong to an entry (what a code restore to it brings back). */
export function codeStateOf(tree: CheckpointTree, entryId: string): string {
	const checkpoint = checkpointAt(tree, leafFor(tree, entryId));
	if (!checkpoint) throw new RestoreError(`No checkpoint on the path to ${entryId}: its files were never recorded`);
	return checkpoint.data.commit;
}

/** Files a plan would overwrite or trash that changed outside xcsh since its last checkpoint. */
export function filesAtRisk(plan: RestorePlan): string[] {
	const touched = new Set([...plan.writes, ...plan.trash]);
	return plan.outside.filter((file) => touched.has(file.path)).map((file) => file.path);
}

function lastRestore(tree: CheckpointTree): CheckpointRecord | undefined {
	return allCheckpoints(tree)
		.reverse()
		.find((record) => record.data.kind === "restore");
}

interface Target {
	readonly mode: RestoreMode;
	readonly targetId: string | null;
	readonly leafId: string | null | undefined;
	readonly commit: string | undefined;
	readonly undoOf?: string;
}

function targetOf(tree: CheckpointTree, request: RestoreRequest): Target {
	if (request.kind === "undo") {
		const last = lastRestore(tree);
		if (last?.data.kind !== "restore") throw new RestoreError("Nothing to undo: this session has no restore");
		const { data } = last;
		return {
			mode: data.mode,
			targetId: data.fromLeafId,
			leafId: data.mode === "code" ? undefined : data.fromLeafId,
			commit: data.mode === "conversation" ? undefined : data.guard,
			undoOf: last.entryId,
		};
	}
	return {
		mode: request.mode,
		targetId: request.entryId,
		leafId: request.mode === "code" ? undefined : leafFor(tree, request.entryId),
		commit: request.mode === "conversation" ? undefined : codeStateOf(tree, request.entryId),
	};
}

/** Works out a restore against the files as they are now (nothing is written). */
export async function planRestore(
	tree: RestoreSession,
	repo: ShadowRepo,
	request: RestoreRequest,
): Promise<RestorePlan> {
	const target = targetOf(tree, request);
	const base = {
		mode: target.mode,
		targetId: target.targetId,
		leafId: target.leafId,
		fromLeafId: tree.getLeafId(),
		commit: target.commit,
		...(target.undoOf ? { undoOf: target.undoOf } : {}),
	};
	if (target.commit === undefined) return { ...base, writes: [], trash: [], outside: [] };
	const now = await repo.scratchTree(tree.getSessionId());
	const known = lastKnownCheckpoint(tree);
	const outside = known ? await fileChanges(repo, await repo.treeOf(known.data.commit), now.tree) : [];
	const changes = await rawChanges(repo, now.tree, await repo.treeOf(target.commit));
	return { ...base, ...splitChanges(changes), outside };
}

function splitChanges(changes: readonly RawChange[]): { writes: string[]; trash: string[] } {
	return {
		writes: changes.filter((c) => c.status !== "deleted").map((c) => c.path),
		trash: changes.filter((c) => c.status === "deleted").map((c) => c.path),
	};
}

/** `<agentDir>/trash/<ISO time>_files-<project>`: a trash item `xcsh sessions purge` knows. */
function projectTrashDir(workTree: string, at: Date): string {
	return join(getAgentDir(), "trash", `${at.toISOString().replace(/[:.]/g, "-")}_files-${basename(workTree)}`);
}

/**
 * Carries out a plan: a guard snapshot first (what `--undo` brings back), then files written and
 * files created since moved to the trash, then the leaf moved; a `checkpoint` entry of kind
 * `restore` records it all (and, being appended under the new leaf, persists the leaf move).
 */
export async function applyRestore(tree: RestoreSession, repo: ShadowRepo, plan: RestorePlan): Promise<RestoreOutcome> {
	const guard = await repo.snapshot(tree.getSessionId(), "xcsh: guard before a restore");
	let written: string[] = [];
	let trashed: string[] = [];
	let trashDir: string | undefined;
	if (plan.commit !== undefined) {
		// Against the guard, not the plan: the files may have moved on since the plan was made.
		const changes = await rawChanges(repo, guard.tree, await repo.treeOf(plan.commit));
		const deletions = changes.filter((c) => c.status === "deleted").map((c) => c.path);
		if (deletions.length > 0) {
			trashDir = projectTrashDir(repo.workTree, new Date());
			trashed = await moveFilesToTrash(repo.workTree, deletions, trashDir);
		}
		written = await writeFiles(repo, changes);
	}
	if (plan.leafId !== undefined) {
		if (plan.leafId === null) tree.resetLeaf();
		else tree.branch(plan.leafId);
	}
	const data: CheckpointData = {
		v: 1,
		kind: "restore",
		commit: plan.commit ?? guard.commit,
		guard: guard.commit,
		mode: plan.mode,
		targetId: plan.targetId,
		fromLeafId: plan.fromLeafId,
		...(plan.undoOf ? { undoOf: plan.undoOf } : {}),
	};
	const markerId = tree.appendCustomEntry(CHECKPOINT_CUSTOM_TYPE, data);
	return { plan, guard: guard.commit, written, trashed, trashDir, markerId };
}
