import { open } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { type ResourceLimits, Worker } from "node:worker_threads";
import { log } from "../logger.js";
import { workerEntry } from "../worker-entry.js";
import { TWO_PARTS_BELOW_BYTES } from "./read-thresholds.js";
import type { ReadProgress } from "./session-loader.js";
import type { SkeletonThreadMessage } from "./skeleton-build.js";
import { decodeSkeleton, resumeOf, type Skeleton, type SkeletonResume } from "./skeleton-cache.js";
import { joinParts, type SkeletonPart, splitAtLines } from "./skeleton-parts.js";
import type { SkeletonWork } from "./skeleton-worker.js";

/**
 * A thread's heap. Bounded, V8 collects the garbage of big lines as it goes instead of letting the
 * heap grow over it. Measured on a 5 GB session: at most 48 MB of heap in use (the columns are outside
 * it), and a young generation of 4 MB took 30 MB off the peak for ~5% more time.
 */
const RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 4 };

/** What reads apart did in this process (tests check which way a read went). */
export const apartStats = { started: 0, parts: 0, used: 0 };

/** A skeleton read apart. */
export interface SkeletonApart {
	resume: SkeletonResume;
	/** Its cache bytes as the thread made them (read in one part): cached as they are. */
	bytes?: Buffer;
}

/** Reads one part on a thread: its cache bytes, or undefined when it failed or the file is no v3 session. */
function readPart(
	entry: string | URL,
	work: SkeletonWork,
	signal: AbortSignal,
	onRead: (bytes: number) => void,
): Promise<Buffer | undefined> {
	if (signal.aborted) return Promise.reject(signal.reason);
	return new Promise((resolve, reject) => {
		const worker = new Worker(entry, {
			eval: typeof entry === "string",
			workerData: work,
			resourceLimits: RESOURCE_LIMITS,
		});
		let result: Buffer | undefined;
		const stop = (): void => {
			reject(signal.reason);
			void worker.terminate();
		};
		signal.addEventListener("abort", stop, { once: true });
		worker.on("message", (message: SkeletonThreadMessage) => {
			switch (message.kind) {
				case "progress":
					onRead(message.read);
					return;
				case "built": {
					const { bytes } = message;
					result = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
					break;
				}
				case "not-skeleton":
					break;
			}
			void worker.terminate();
		});
		worker.on("error", (error) => {
			log.warn(`Reading ${work.file} on its own thread failed (${error.message}); reading it here instead`);
		});
		// Settled once the thread is gone: its memory is given back before the caller goes on to use more.
		worker.on("exit", () => {
			signal.removeEventListener("abort", stop);
			resolve(result);
		});
	});
}

/** The file's parts: two where that pays (see `TWO_PARTS_BELOW_BYTES`), else one. */
async function partsOf(file: string, size: number): Promise<SkeletonPart[]> {
	if (size >= TWO_PARTS_BELOW_BYTES || availableParallelism() < 2) return [{ from: 0 }];
	const handle = await open(file, "r");
	try {
		return await splitAtLines(size, 2, async (position, length) => {
			const buffer = Buffer.alloc(length);
			const { bytesRead } = await handle.read(buffer, 0, length, position);
			return buffer.subarray(0, bytesRead);
		});
	} finally {
		await handle.close();
	}
}

/**
 * Reads a big session's skeleton on threads of their own, so the caller's thread is free (the UI
 * loads meanwhile) and the read's garbage is bounded. Undefined when the file is no v3 session or a
 * thread failed (the caller then reads it itself); rejects with the signal's reason when stopped.
 */
export async function readSkeletonApart(
	file: string,
	size: number,
	progress: ReadProgress = {},
): Promise<SkeletonApart | undefined> {
	const entry = workerEntry(import.meta.url, "skeleton-worker");
	const { signal, onProgress } = progress;
	if (signal?.aborted) throw signal.reason;
	if (!entry) return undefined;
	apartStats.started++;
	const parts = await partsOf(file, size);
	if (signal?.aborted) throw signal.reason;
	apartStats.parts += parts.length;
	// One part failing stops the others: the caller reads the file itself.
	const failed = new AbortController();
	const stopped = signal ? AbortSignal.any([signal, failed.signal]) : failed.signal;
	const read = parts.map(() => 0);
	const reading = parts.map(async (part, k) => {
		const bytes = await readPart(entry, { file, part }, stopped, (bytes) => {
			read[k] = bytes;
			onProgress?.(
				read.reduce((sum, n) => sum + n, 0),
				size,
			);
		});
		if (!bytes) failed.abort();
		return bytes;
	});
	const results = await Promise.allSettled(reading);
	if (signal?.aborted) throw signal.reason;
	const skeletons: Skeleton[] = [];
	for (const result of results) {
		const skeleton = result.status === "fulfilled" && result.value ? decodeSkeleton(result.value) : undefined;
		if (!skeleton) return undefined;
		skeletons.push(skeleton);
	}
	const only = skeletons.length === 1 ? (results[0] as PromiseFulfilledResult<Buffer>).value : undefined;
	const resume = only ? resumeOf(skeletons[0]!) : joinParts(skeletons, parts);
	if (!resume) return undefined;
	apartStats.used++;
	return only ? { resume, bytes: only } : { resume };
}
