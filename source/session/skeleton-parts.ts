import { RowIds } from "./row-ids.js";
import type { Skeleton, SkeletonResume } from "./skeleton-cache.js";
import type { SkeletonColumns } from "./skeleton-columns.js";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "./types.js";

/**
 * Where a thread starts reading and where it stops. The first part reads the header; a later one
 * starts at a line boundary and reads its lines as if they followed a v3 header (the first part
 * checks the real one: when it is not v3, every part is dropped).
 */
export interface SkeletonPart {
	from: number;
	/** End of the part (exclusive); undefined: the end of the file. */
	until?: number;
}

/** The header a later part's lines are read after; the joined skeleton keeps the first part's. */
export const CONTINUATION_HEADER: SessionHeader = {
	type: "session",
	version: CURRENT_SESSION_VERSION,
	id: "",
	timestamp: "",
	cwd: "",
};

/** How far past the middle a line boundary is looked for: a file without one there is read in one part. */
const BOUNDARY_SEARCH_BYTES = 1 << 20;

/**
 * The file cut in `count` parts at line boundaries near equal sizes (fewer parts where no newline
 * is found within `BOUNDARY_SEARCH_BYTES` of a cut).
 */
export async function splitAtLines(
	size: number,
	count: number,
	readAt: (position: number, length: number) => Promise<Buffer>,
): Promise<SkeletonPart[]> {
	const starts = [0];
	for (let k = 1; k < count; k++) {
		const cut = Math.floor((size * k) / count);
		if (cut <= starts[starts.length - 1]!) continue;
		const bytes = await readAt(cut, Math.min(BOUNDARY_SEARCH_BYTES, size - cut));
		const newline = bytes.indexOf(0x0a);
		if (newline >= 0 && cut + newline + 1 < size) starts.push(cut + newline + 1);
	}
	return starts.map((from, k) => (k + 1 < starts.length ? { from, until: starts[k + 1]! } : { from }));
}

/**
 * Appends `from`'s rows (pinned bodies included) after `into`'s. False, with `into` unchanged,
 * when one of `from`'s ids is already in `into`: which line is the duplicate is only known to a
 * read in one part.
 */
export function appendColumns(into: SkeletonColumns, from: SkeletonColumns): boolean {
	const ids = new RowIds(into);
	for (let r = 0; r < from.size; r++) if (ids.has(from.id(r))) return false;
	into.append(from);
	return true;
}

/**
 * The skeletons of a file's parts, read apart, as the one skeleton a read in one part makes: rows
 * in order, skipped lines numbered in the whole file. Undefined when they do not join (a part did
 * not end where the next began, or an id is in two parts): the file is then read in one part.
 */
export function joinParts(parts: readonly Skeleton[], boundaries: readonly SkeletonPart[]): SkeletonResume | undefined {
	const [first, ...rest] = parts;
	if (!first || parts.length !== boundaries.length) return undefined;
	const skipped = [...first.skipped];
	let covered = { bytes: first.file.bytes, nextLineNumber: first.nextLineNumber };
	for (let k = 0; k < rest.length; k++) {
		const part = rest[k]!;
		if (covered.bytes !== boundaries[k + 1]!.from) return undefined;
		if (!appendColumns(first.columns, part.columns)) return undefined;
		const shift = covered.nextLineNumber - 1;
		for (const line of part.skipped) skipped.push({ ...line, line: line.line + shift });
		covered = { bytes: part.file.bytes, nextLineNumber: part.nextLineNumber + shift };
	}
	return { header: first.header, columns: first.columns, skipped, covered };
}
