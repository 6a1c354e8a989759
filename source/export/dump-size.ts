import { isLazy } from "../session/lazy-entry.js";
import type { SessionManager } from "../session/session-manager.js";
import { pathIds } from "./export-source.js";

/** Above this much session text, /dump refuses: a clipboard of that size helps nobody. */
export const DUMP_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Whether the active path's entries exceed `limit` bytes of JSON: skeletons count their line
 * length without reading the body, entries in memory their serialised size; stops at the limit.
 */
export function activePathExceeds(manager: SessionManager, limit: number = DUMP_LIMIT_BYTES): boolean {
	const shapes = [...manager.getSkeleton()];
	const byId = new Map(shapes.map((shape) => [shape.id, shape]));
	let bytes = 0;
	for (const id of pathIds(shapes, manager.getLeafId())) {
		const shape = byId.get(id);
		if (shape === undefined) continue;
		bytes += isLazy(shape) ? shape.length : Buffer.byteLength(JSON.stringify(manager.getEntry(id)) ?? "");
		if (bytes > limit) return true;
	}
	return false;
}

/** The one-line refusal of /dump for a session over the limit. */
export function dumpTooBig(limit: number = DUMP_LIMIT_BYTES): string {
	return `This session is too big for the clipboard (over ${Math.round(limit / (1024 * 1024))} MB of text): use /export to write it to a file`;
}
