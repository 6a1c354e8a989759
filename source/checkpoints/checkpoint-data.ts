/** The `customType` of the session entries that record checkpoints (readers that do not know it skip it). */
export const CHECKPOINT_CUSTOM_TYPE = "checkpoint";

/** How a file changed between two snapshots. */
export type FileStatus = "added" | "modified" | "deleted" | "type-changed";

/** One file a turn changed, with its line counts (`binary`: no line counts). */
export interface FileChange {
	readonly path: string;
	readonly status: FileStatus;
	readonly added: number;
	readonly removed: number;
	readonly binary: boolean;
}

/** What a restore brought back: files and conversation, files only, or the conversation only. */
export type RestoreMode = "both" | "code" | "conversation";

/**
 * The `data` of a checkpoint entry. `commit` is always the state of the project's files at that
 * point of the tree, so the code belonging to any entry is the nearest checkpoint on its path.
 */
export type CheckpointData =
	/** The files before the session's first checkpointed turn. */
	| { readonly v: 1; readonly kind: "baseline"; readonly commit: string }
	/** A turn changed files: `before` → `commit`; `entryId` is the turn's last entry. */
	| {
			readonly v: 1;
			readonly kind: "turn";
			readonly commit: string;
			readonly before: string;
			readonly entryId: string | null;
			readonly files: readonly FileChange[];
	  }
	/** A restore (or its undo): `guard` holds the files as they were just before it. */
	| {
			readonly v: 1;
			readonly kind: "restore";
			readonly commit: string;
			readonly guard: string;
			readonly mode: RestoreMode;
			readonly targetId: string | null;
			readonly fromLeafId: string | null;
			readonly undoOf?: string;
	  };

const STATUSES: readonly FileStatus[] = ["added", "modified", "deleted", "type-changed"];
const MODES: readonly RestoreMode[] = ["both", "code", "conversation"];

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isCommit = (value: unknown): value is string => typeof value === "string" && /^[0-9a-f]{40,64}$/.test(value);
const isIdOrNull = (value: unknown): value is string | null => value === null || typeof value === "string";

function parseFileChange(value: unknown): FileChange | undefined {
	if (!isRecord(value) || typeof value.path !== "string") return undefined;
	if (!STATUSES.includes(value.status as FileStatus)) return undefined;
	if (typeof value.added !== "number" || typeof value.removed !== "number") return undefined;
	return {
		path: value.path,
		status: value.status as FileStatus,
		added: value.added,
		removed: value.removed,
		binary: value.binary === true,
	};
}

/** Reads a checkpoint entry's `data`; undefined for anything malformed (a hand-edited file loses only that row). */
export function parseCheckpointData(data: unknown): CheckpointData | undefined {
	if (!isRecord(data) || data.v !== 1 || !isCommit(data.commit)) return undefined;
	switch (data.kind) {
		case "baseline":
			return { v: 1, kind: "baseline", commit: data.commit };
		case "turn": {
			if (!isCommit(data.before) || !isIdOrNull(data.entryId) || !Array.isArray(data.files)) return undefined;
			const files = data.files.map(parseFileChange);
			if (files.some((file) => file === undefined)) return undefined;
			return {
				v: 1,
				kind: "turn",
				commit: data.commit,
				before: data.before,
				entryId: data.entryId,
				files: files as FileChange[],
			};
		}
		case "restore": {
			if (!isCommit(data.guard) || !MODES.includes(data.mode as RestoreMode)) return undefined;
			if (!isIdOrNull(data.targetId) || !isIdOrNull(data.fromLeafId)) return undefined;
			return {
				v: 1,
				kind: "restore",
				commit: data.commit,
				guard: data.guard,
				mode: data.mode as RestoreMode,
				targetId: data.targetId,
				fromLeafId: data.fromLeafId,
				...(typeof data.undoOf === "string" ? { undoOf: data.undoOf } : {}),
			};
		}
		default:
			return undefined;
	}
}

/** `+12 -3` totals of a list of file changes. */
export function lineTotals(files: readonly FileChange[]): { added: number; removed: number } {
	let added = 0;
	let removed = 0;
	for (const file of files) {
		added += file.added;
		removed += file.removed;
	}
	return { added, removed };
}
