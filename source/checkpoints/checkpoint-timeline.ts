import { userMessageText } from "../session/messages.js";
import type { EntryShape, EntryShapes } from "../session/session-entries.js";
import type { StoredEntry } from "../session/types.js";
import { CHECKPOINT_CUSTOM_TYPE, type CheckpointData, parseCheckpointData } from "./checkpoint-data.js";

/** What checkpoints are read from: a session's tree (a SessionManager or a read-only snapshot). */
export interface CheckpointTree {
	getSkeleton(): EntryShapes;
	/** `getSkeleton()` of one type of entry (a session's checkpoints are found without a look at every entry). */
	getSkeletonOfType?(type: string): readonly EntryShape[];
	getEntry(id: string): StoredEntry | undefined;
	/** The entry of a shape of `getSkeleton()` without looking its id up (a big session then builds no index of every id). */
	entryOf?(shape: EntryShape): StoredEntry;
	getBranchSkeleton(fromId?: string): EntryShapes;
}

/** A checkpoint entry of the session and what it records. */
export interface CheckpointRecord {
	readonly entryId: string;
	readonly parentId: string | null;
	readonly timestamp: string;
	readonly data: CheckpointData;
}

/** The checkpoint record of an entry, if it is one. */
export function checkpointOf(tree: CheckpointTree, shape: EntryShape): CheckpointRecord | undefined {
	if (shape.type !== "custom") return undefined;
	const entry = (tree.entryOf ? tree.entryOf(shape) : tree.getEntry(shape.id)) as
		| { customType?: unknown; data?: unknown }
		| undefined;
	if (entry?.customType !== CHECKPOINT_CUSTOM_TYPE) return undefined;
	const data = parseCheckpointData(entry.data);
	return data && { entryId: shape.id, parentId: shape.parentId, timestamp: shape.timestamp, data };
}

/** Every checkpoint entry of the session, in file order (only custom entries' bodies are read). */
export function allCheckpoints(tree: CheckpointTree): CheckpointRecord[] {
	const records: CheckpointRecord[] = [];
	for (const shape of tree.getSkeletonOfType?.("custom") ?? tree.getSkeleton()) {
		const record = checkpointOf(tree, shape);
		if (record) records.push(record);
	}
	return records;
}

/**
 * The files' state at an entry (null: the root, before anything): the nearest checkpoint on the
 * path root → entry, where a turn's checkpoint counts from the turn's last entry on (it is
 * appended just after that entry, so it is that entry's child, not on its path).
 */
export function checkpointAt(tree: CheckpointTree, entryId: string | null): CheckpointRecord | undefined {
	const all = allCheckpoints(tree);
	if (entryId === null) return all.find((record) => record.data.kind === "baseline");
	const afterTurn = new Map<string, CheckpointRecord>();
	for (const record of all)
		if (record.data.kind === "turn" && record.data.entryId) afterTurn.set(record.data.entryId, record);
	const byId = new Map(all.map((record) => [record.entryId, record]));
	const path = tree.getBranchSkeleton(entryId);
	for (let i = path.length - 1; i >= 0; i--) {
		const id = path.at(i)!.id;
		const record = byId.get(id) ?? afterTurn.get(id);
		if (record) return record;
	}
	return undefined;
}

/** The last state xcsh knows the files were in: the newest checkpoint entry of any kind, in file order. */
export function lastKnownCheckpoint(tree: CheckpointTree): CheckpointRecord | undefined {
	const skeleton = tree.getSkeleton();
	for (let i = skeleton.length - 1; i >= 0; i--) {
		const record = checkpointOf(tree, skeleton.at(i)!);
		if (record) return record;
	}
	return undefined;
}

/** The text of the user prompt a turn answered: the nearest user message on the path to `entryId`. */
export function promptOf(tree: CheckpointTree, entryId: string | null): string | undefined {
	if (entryId === null) return undefined;
	const path = tree.getBranchSkeleton(entryId);
	for (let i = path.length - 1; i >= 0; i--) {
		const shape = path.at(i)!;
		if (shape.type !== "message") continue;
		const entry = tree.getEntry(shape.id) as { message?: { role?: unknown; content?: unknown } } | undefined;
		const text = userMessageText(entry?.message);
		if (text !== undefined) return text;
	}
	return undefined;
}
