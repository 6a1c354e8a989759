import { type ReadProgress, readSessionSkeleton } from "./session-loader.js";
import { FileSessionStorage } from "./session-storage.js";
import { skeletonBytes } from "./skeleton-cache.js";
import { SkeletonColumns } from "./skeleton-columns.js";
import { CONTINUATION_HEADER, type SkeletonPart } from "./skeleton-parts.js";

/** What a skeleton thread sends back: progress while it reads, then one result. */
export type SkeletonThreadMessage =
	/** Bytes of its part read so far. */
	| { kind: "progress"; read: number }
	/** The skeleton cache of its part as it was read. */
	| { kind: "built"; bytes: Uint8Array }
	/** Missing, empty, foreign or not v3: the opener reads it itself and says what it is. */
	| { kind: "not-skeleton" };

/**
 * Reads one part of a big session file into skeleton cache bytes, as the opener would: what a
 * skeleton thread runs, so the opener's thread only decodes (and joins) the results.
 */
export async function buildSkeletonBytes(
	file: string,
	part: SkeletonPart = { from: 0 },
	progress: ReadProgress = {},
): Promise<SkeletonThreadMessage> {
	const storage = new FileSessionStorage();
	const after =
		part.from === 0
			? undefined
			: {
					header: CONTINUATION_HEADER,
					columns: new SkeletonColumns(),
					skipped: [],
					covered: { bytes: part.from, nextLineNumber: 1 },
				};
	const read = await readSessionSkeleton(file, storage, progress, after, { forCache: true, until: part.until });
	if (read.kind !== "ok" || !read.covered || !(read.entries instanceof SkeletonColumns))
		return { kind: "not-skeleton" };
	const { header, entries: columns, skipped, covered } = read;
	const bytes = await skeletonBytes(file, storage, { header, columns, skipped, covered });
	return bytes ? { kind: "built", bytes } : { kind: "not-skeleton" };
}
