import { splitLines } from "./truncate.js";

/** A one-hunk line diff of a single edit. */
export interface EditDiff {
	/** Unified-diff-style hunk: `@@ -a,b +c,d @@` then ` `, `-` and `+` lines. */
	readonly diff: string;
	/** 1-based line in the new text where the change starts. */
	readonly firstChangedLine: number;
	readonly removedLines: number;
	readonly addedLines: number;
}

/**
 * Diffs two texts that differ in one contiguous region (what a single replacement produces), by trimming
 * the common leading and trailing lines; no general LCS is needed for that shape.
 */
export function diffSingleEdit(before: string, after: string, context = 3): EditDiff {
	const oldLines = splitLines(before);
	const newLines = splitLines(after);
	const shorter = Math.min(oldLines.length, newLines.length);
	let prefix = 0;
	while (prefix < shorter && oldLines[prefix] === newLines[prefix]) prefix++;
	let suffix = 0;
	while (
		suffix < shorter - prefix &&
		oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
	) {
		suffix++;
	}

	const removed = oldLines.slice(prefix, oldLines.length - suffix);
	const added = newLines.slice(prefix, newLines.length - suffix);
	const start = Math.max(0, prefix - context);
	const leading = oldLines.slice(start, prefix);
	const trailing = oldLines.slice(oldLines.length - suffix, oldLines.length - suffix + context);
	const oldCount = leading.length + removed.length + trailing.length;
	const newCount = leading.length + added.length + trailing.length;
	// Unified diff names the line before an empty range, so a zero count starts one line earlier.
	const header = `@@ -${oldCount === 0 ? start : start + 1},${oldCount} +${newCount === 0 ? start : start + 1},${newCount} @@`;
	const body = [
		...leading.map((l) => ` ${l}`),
		...removed.map((l) => `-${l}`),
		...added.map((l) => `+${l}`),
		...trailing.map((l) => ` ${l}`),
	];
	return {
		diff: [header, ...body].join("\n"),
		firstChangedLine: prefix + 1,
		removedLines: removed.length,
		addedLines: added.length,
	};
}
