import { EntryBodies } from "./entry-bodies.js";
import { type LoadedState, loadState } from "./session-load-state.js";
import { type ReadProgress, readSessionFile, readSessionSkeleton } from "./session-loader.js";
import type { SessionStorage } from "./session-storage.js";

/**
 * Sessions bigger than this keep only their skeleton and the active context in memory. Measured:
 * under it, parsing every body costs less than a second and the memory of a few small sessions.
 */
export const DEFAULT_LAZY_ABOVE_BYTES = 64 * 1024 * 1024;

/** The size above which a session is opened with its bodies on disk: the option, `XCSH_LAZY_ABOVE_BYTES`, or 64 MiB. */
export function lazyThreshold(option: number | undefined): number {
	if (option !== undefined) return option;
	const fromEnv = Number(process.env.XCSH_LAZY_ABOVE_BYTES);
	return Number.isFinite(fromEnv) && fromEnv >= 0 && process.env.XCSH_LAZY_ABOVE_BYTES !== ""
		? fromEnv
		: DEFAULT_LAZY_ABOVE_BYTES;
}

/** A session file read for adoption: missing, or loaded (with the reader of its bodies when big). */
export type OpenedSessionFile =
	| { kind: "missing" }
	| { kind: "empty" }
	| { kind: "invalid"; reason: string }
	| { kind: "loaded"; loaded: LoadedState; bodies?: EntryBodies };

/** How `openSessionFile` reads. */
export interface OpenSessionFileOptions extends ReadProgress {
	/** Files bigger than this leave big bodies on disk (see `lazyThreshold`). */
	lazyAboveBytes?: number;
}

/**
 * Reads a session file to adopt it: streamed line by line; a file over the threshold keeps its big
 * entries as skeletons read on demand.
 */
export async function openSessionFile(
	file: string,
	storage: SessionStorage,
	options: OpenSessionFileOptions = {},
): Promise<OpenedSessionFile> {
	const size = storage.statSync(file)?.size;
	const lazy = size !== undefined && size > lazyThreshold(options.lazyAboveBytes);
	const read = lazy ? await readSessionSkeleton(file, storage, options) : await readSessionFile(file, storage, options);
	if (read.kind === "missing") return read;
	if (read.kind === "invalid") return { kind: "invalid", reason: read.reason };
	const loaded = await loadState(file, read, storage);
	if (!loaded) return { kind: "empty" };
	if (!loaded.lazy) return { kind: "loaded", loaded };
	const bodies = new EntryBodies(file, (path) => storage.openBodyFile(path), storage.blobs);
	return { kind: "loaded", loaded, bodies };
}
