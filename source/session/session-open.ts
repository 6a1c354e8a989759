import { log } from "../logger.js";
import { EntryBodies } from "./entry-bodies.js";
import { apartThreshold, lazyThreshold } from "./read-thresholds.js";
import { type LoadedState, loadState } from "./session-load-state.js";
import {
	type ReadProgress,
	readSessionFile,
	readSessionSkeleton,
	type SessionFileRead,
	type SessionSkeletonRead,
	type SkeletonResume,
} from "./session-loader.js";
import type { SessionStorage, StorageStat } from "./session-storage.js";
import { coverHashes, decodeSkeleton, resumeOf, type SkeletonToCache, skeletonBytes } from "./skeleton-cache.js";
import { SkeletonColumns } from "./skeleton-columns.js";
import { takePrefetched } from "./skeleton-prefetch.js";
import { readSkeletonApart } from "./skeleton-thread.js";

/** A session file read for adoption: missing, foreign, or loaded (with the reader of its bodies when big). */
export type OpenedSessionFile =
	| { kind: "missing" }
	| { kind: "empty" }
	| { kind: "invalid"; reason: string }
	| { kind: "loaded"; loaded: LoadedState; bodies?: EntryBodies; cacheWrite?: Promise<void> };

/** How `openSessionFile` reads. */
export interface OpenSessionFileOptions extends ReadProgress {
	/** Files bigger than this leave big bodies on disk (see `lazyThreshold`). */
	lazyAboveBytes?: number;
}

/** A cached skeleton of this very file (same inode, same bytes at both ends of what it covers), if any. */
async function cachedSkeleton(
	file: string,
	storage: SessionStorage,
	stat: StorageStat,
): Promise<SkeletonResume | undefined> {
	const bytes = storage.skeletons?.read(file);
	const skeleton = bytes && decodeSkeleton(bytes);
	if (!skeleton || skeleton.file.ino !== stat.ino || stat.size < skeleton.file.bytes) return undefined;
	const hashes = await coverHashes(
		(position, length) => storage.readBytes(file, position, length),
		skeleton.file.bytes,
	);
	if (hashes.headHash !== skeleton.file.headHash || hashes.tailHash !== skeleton.file.tailHash) return undefined;
	return resumeOf(skeleton);
}

/** Writes a skeleton for the next open of `file` (a failure only costs that open time). */
export async function cacheSkeleton(file: string, storage: SessionStorage, skeleton: SkeletonToCache): Promise<void> {
	if (!storage.skeletons) return;
	const bytes = await skeletonBytes(file, storage, skeleton);
	if (bytes) await storage.skeletons.write(file, bytes);
}

async function saveSkeleton(file: string, storage: SessionStorage, read: SessionSkeletonRead): Promise<void> {
	if (read.kind !== "ok" || !read.covered || !(read.entries instanceof SkeletonColumns)) return;
	const skeleton = { header: read.header, columns: read.entries, skipped: read.skipped, covered: read.covered };
	await cacheSkeleton(file, storage, skeleton);
}

/**
 * Reads a session file to adopt it: streamed line by line; a file over the threshold keeps its big
 * entries as skeletons read on demand, and its skeleton is cached so the next open reads only what
 * was appended since.
 */
export async function openSessionFile(
	file: string,
	storage: SessionStorage,
	options: OpenSessionFileOptions = {},
): Promise<OpenedSessionFile> {
	const stat = storage.statSync(file);
	const lazy = stat !== undefined && stat.size > lazyThreshold(options.lazyAboveBytes);
	let read: SessionSkeletonRead | SessionFileRead;
	let skeletonRead: SessionSkeletonRead | undefined;
	let cache: "built" | "reused" | "extended" | undefined;
	// Bytes of a skeleton built on its own thread, to be cached as they are.
	let built: Buffer | undefined;
	if (lazy) {
		let resume = await cachedSkeleton(file, storage, stat);
		let apart = false;
		if (!resume && storage.sharedFiles && stat.size >= apartThreshold()) {
			const reading = takePrefetched(file, stat, options) ?? readSkeletonApart(file, stat.size, options);
			options.onReadApart?.(stat.size);
			const fromThreads = await reading;
			resume = fromThreads?.resume;
			built = fromThreads?.bytes;
			apart = fromThreads !== undefined;
		}
		skeletonRead = await readSessionSkeleton(file, storage, options, resume);
		read = skeletonRead;
		const grew = read.kind === "ok" && read.covered && resume && read.covered.bytes > resume.covered.bytes;
		cache = !resume || apart ? "built" : grew ? "extended" : "reused";
		// Lines appended while it was read: the cache is made again to cover them.
		if (grew) built = undefined;
	} else {
		read = await readSessionFile(file, storage, options);
	}
	if (read.kind === "missing") return read;
	if (read.kind === "invalid") return { kind: "invalid", reason: read.reason };
	const loaded = await loadState(file, read, storage);
	if (!loaded) return { kind: "empty" };
	if (!loaded.lazy) return { kind: "loaded", loaded };
	loaded.report.skeletonCache = cache;
	const bodies = new EntryBodies(file, (path) => storage.openBodyFile(path), storage.blobs);
	// Written after the open returns: the first frame does not wait for it.
	const toCache = cache === "reused" ? undefined : skeletonRead;
	const save = (): Promise<void> =>
		built && storage.skeletons ? storage.skeletons.write(file, built) : saveSkeleton(file, storage, toCache!);
	const cacheWrite =
		toCache === undefined
			? undefined
			: new Promise<void>((resolve) => setImmediate(resolve))
					.then(save)
					.catch((error: unknown) => log.warn(`Could not cache the skeleton of ${file}: ${String(error)}`));
	return { kind: "loaded", loaded, bodies, ...(cacheWrite ? { cacheWrite } : {}) };
}
