import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { log } from "../logger.js";
import { apartThreshold, lazyThreshold } from "./read-thresholds.js";
import type { ReadProgress } from "./session-loader.js";
import { getSkeletonsDir, looksLikePath } from "./session-paths.js";
import type { StorageStat } from "./session-storage.js";
import { SkeletonFiles } from "./skeleton-files.js";
import { readSkeletonApart, type SkeletonApart } from "./skeleton-thread.js";

/** A first read started before anyone asked for it, waiting for the opener. */
interface Prefetch {
	file: string;
	ino: number;
	size: number;
	reading: Promise<SkeletonApart | undefined>;
	/** Where its progress goes once the opener takes it. */
	relay: ReadProgress;
	stop: AbortController;
}

let pending: Prefetch | undefined;

/** The value of `--resume` / `-r` in a command line, if any. */
function resumeValue(argv: readonly string[]): string | undefined {
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === "--") return undefined;
		if (arg.startsWith("--resume=")) return arg.slice("--resume=".length);
		if (arg === "--resume" || arg === "-r") return argv[i + 1];
	}
	return undefined;
}

/**
 * Starts the first read of a big session named by path on `--resume` while the CLI is still loading
 * (its modules take a tenth of a second or more, which the read's threads use). Only for a file the
 * opener would read apart, with no skeleton cache at all: with one, the opener may need to read nothing.
 */
export function prefetchFirstRead(argv: readonly string[], cwd: string): void {
	const value = resumeValue(argv);
	if (!value || !looksLikePath(value)) return;
	const file = resolve(cwd, value);
	const stat = statSync(file, { throwIfNoEntry: false });
	if (!stat?.isFile() || stat.size <= lazyThreshold(undefined) || stat.size < apartThreshold()) return;
	if (existsSync(new SkeletonFiles(getSkeletonsDir()).pathFor(file))) return;
	const stop = new AbortController();
	const relay: ReadProgress = {};
	const reading = readSkeletonApart(file, stat.size, {
		signal: stop.signal,
		onProgress: (read, total) => relay.onProgress?.(read, total),
	});
	reading.catch((error: unknown) => {
		if (!stop.signal.aborted) log.warn(`Reading ${file} ahead failed: ${String(error)}`);
	});
	pending = { file, ino: stat.ino, size: stat.size, reading, relay, stop };
}

/**
 * The read `prefetchFirstRead` started, when it is of this very file (same path, inode and size):
 * its progress and stop are `progress`'s from now on. Any other prefetch is stopped.
 */
export function takePrefetched(
	file: string,
	stat: StorageStat,
	progress: ReadProgress,
): Promise<SkeletonApart | undefined> | undefined {
	const prefetch = pending;
	pending = undefined;
	if (!prefetch) return undefined;
	if (prefetch.file !== resolve(file) || prefetch.ino !== stat.ino || prefetch.size !== stat.size) {
		prefetch.stop.abort();
		return undefined;
	}
	prefetch.relay.onProgress = progress.onProgress;
	const { signal } = progress;
	if (signal?.aborted) prefetch.stop.abort(signal.reason);
	else signal?.addEventListener("abort", () => prefetch.stop.abort(signal.reason), { once: true });
	return prefetch.reading;
}
