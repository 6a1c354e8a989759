import { pathToEntry } from "../session/session-context.js";
import type { EntryShape } from "../session/session-entries.js";
import type { LabelEntry } from "../session/types.js";
import type { ExportScope } from "./export-scope.js";
import type { ExportSource } from "./export-source.js";

/** Entries that put something in the conversation: a path that ends past its last one adds nothing. */
export const CONVERSATION_TYPES: ReadonlySet<string> = new Set([
	"message",
	"custom_message",
	"branch_summary",
	"compaction",
	"session_init",
]);

/**
 * The leaves whose paths are distinct conversations, in file order: a leaf is dropped when its
 * path's last conversation entry is also on another path that goes further (a `/tree` jump that
 * only added a model change or a label), or when another leaf ends on the same conversation entry
 * (the later one is kept). One pass over the shapes, no bodies read.
 */
export function conversationLeaves(shapes: readonly EntryShape[]): string[] {
	// For each entry: the nearest conversation entry at or above it.
	const nearest = new Map<string, string | undefined>();
	const extended = new Set<string>();
	const hasChild = new Set<string>();
	for (const shape of shapes) {
		const above = shape.parentId === null ? undefined : nearest.get(shape.parentId);
		if (shape.parentId !== null) hasChild.add(shape.parentId);
		if (CONVERSATION_TYPES.has(shape.type)) {
			if (above !== undefined) extended.add(above);
			nearest.set(shape.id, shape.id);
		} else nearest.set(shape.id, above);
	}
	const byEnd = new Map<string, string>();
	for (const shape of shapes) {
		if (hasChild.has(shape.id)) continue;
		const end = nearest.get(shape.id);
		if (end === undefined || extended.has(end)) continue;
		// Map order is first insertion: delete first so the later leaf takes the later place.
		byEnd.delete(end);
		byEnd.set(end, shape.id);
	}
	return [...byEnd.values()];
}

/** Reads paths root → leaf of one source; the id index is built once for all of them. */
export class PathReader {
	readonly #byId: ReadonlyMap<string, EntryShape>;

	constructor(readonly source: ExportSource) {
		this.#byId = new Map(source.shapes.map((shape) => [shape.id, shape]));
	}

	/** True when the id names an entry of the session. */
	has(id: string): boolean {
		return this.#byId.has(id);
	}

	/** The type of an entry, from its shape. */
	typeOf(id: string): string | undefined {
		return this.#byId.get(id)?.type;
	}

	/** The ids root → `leafId` (a parent cycle in a damaged file stops the walk). */
	ids(leafId: string | null): string[] {
		const leaf = leafId === null ? undefined : this.#byId.get(leafId);
		return leaf ? pathToEntry(leaf, this.#byId).map((shape) => shape.id) : [];
	}
}

/**
 * The leaves a trajectory format writes one record for: every distinct conversation (`tree`), the
 * leaf the session shows (`branch`), or one entry (`entry`, which must exist).
 */
export function scopeLeaves(reader: PathReader, scope: ExportScope): string[] {
	switch (scope.kind) {
		case "tree":
			return conversationLeaves(reader.source.shapes);
		case "branch":
			return reader.source.leafId === null ? [] : [reader.source.leafId];
		case "entry":
			if (!reader.has(scope.entryId)) throw new Error(`Entry ${scope.entryId} not found`);
			return [scope.entryId];
		default: {
			const exhaustive: never = scope;
			return exhaustive;
		}
	}
}

/** Every label of the session: target id → label; a later label entry replaces an earlier one, an empty one clears. */
export function labelsOf(source: ExportSource): Map<string, string> {
	const labels = new Map<string, string>();
	for (const shape of source.shapes) {
		if (shape.type !== "label") continue;
		const entry = source.entry(shape.id) as LabelEntry | undefined;
		if (!entry || typeof entry.targetId !== "string") continue;
		if (typeof entry.label === "string" && entry.label.length > 0) labels.set(entry.targetId, entry.label);
		else labels.delete(entry.targetId);
	}
	return labels;
}
