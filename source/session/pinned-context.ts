import { isLazy } from "./lazy-entry.js";
import { type BodyOf, contextRange } from "./session-context.js";
import type { SlotPath } from "./slot-path.js";

/** Bytes of the active context's lines kept in memory at load (the rest is read when needed). */
const PINNED_CONTEXT_BYTES = 8 * 1024 * 1024;

/**
 * Pins the bodies of a path's context, newest first back to its compaction, up to a budget: what
 * the model is sent next is read once, at load, instead of on every turn (an uncompacted path of
 * gigabytes would otherwise be all of memory; what is past the budget is read when it is needed).
 */
export function pinContext(path: SlotPath, body: BodyOf): void {
	const { from } = contextRange(path, body);
	let budget = PINNED_CONTEXT_BYTES;
	for (let i = path.length - 1; i >= from && budget > 0; i--) {
		const slot = path.at(i)!;
		if (!isLazy(slot) || slot.pinned) continue;
		budget -= slot.length;
		slot.pinned = body(slot);
	}
}
