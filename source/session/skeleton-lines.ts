import { log } from "../logger.js";
import type { EntryBodies } from "./entry-bodies.js";
import { isLazy, type LazyEntry } from "./lazy-entry.js";
import { cacheSkeleton } from "./session-open.js";
import type { PersistedSlot, SkeletonLines } from "./session-persistence.js";
import type { SessionStorage } from "./session-storage.js";
import type { SessionHeader } from "./types.js";

/**
 * A rewrite (rename, fork) made a new file: its skeleton is cached at once, up to the last entry
 * read from disk, so the next open does not read gigabytes again.
 */
function cacheRewritten(file: string, slots: readonly PersistedSlot[], storage: SessionStorage): void {
	let count = 0;
	while (count + 1 < slots.length && isLazy(slots[count + 1]!)) count++;
	const last = count > 0 ? (slots[count] as LazyEntry) : undefined;
	// The cache is the load's columns: only when the file starts with every row of them, in order.
	if (!last || last.row !== count - 1 || last.columns.size !== count) return;
	const header = slots[0] as SessionHeader;
	const covered = { bytes: last.offset + last.length + 1, nextLineNumber: count + 2 };
	const skeleton = { header, columns: last.columns, skipped: [], covered };
	void cacheSkeleton(file, storage, skeleton).catch((error: unknown) =>
		log.warn(`Could not cache the skeleton of ${file}: ${String(error)}`),
	);
}

/** How a session with bodies on disk is rewritten: their lines copied as they are, then read from the new file. */
export function skeletonLinesFor(bodies: EntryBodies, storage: SessionStorage): SkeletonLines {
	return {
		rawLine: (entry) => bodies.rawLine(entry),
		rewritten(file, slots, offsets) {
			for (let i = 0; i < slots.length; i++) {
				const slot = slots[i]!;
				if (isLazy(slot)) slot.offset = offsets[i]!;
			}
			bodies.replaceFile(file);
			cacheRewritten(file, slots, storage);
		},
	};
}
