import { parentPort, workerData } from "node:worker_threads";
import { buildSkeletonBytes, type SkeletonThreadMessage } from "./skeleton-build.js";
import type { SkeletonPart } from "./skeleton-parts.js";

/** What the opener hands the thread. */
export interface SkeletonWork {
	file: string;
	part: SkeletonPart;
}

// Progress at most this often: a 5 GB file is over a thousand 4 MB chunks.
const PROGRESS_EVERY_MS = 50;

const port = parentPort;
if (port) {
	const { file, part } = workerData as SkeletonWork;
	let sentAt = 0;
	const onProgress = (position: number): void => {
		const now = Date.now();
		if (now - sentAt < PROGRESS_EVERY_MS) return;
		sentAt = now;
		port.postMessage({ kind: "progress", read: position - part.from } satisfies SkeletonThreadMessage);
	};
	const result = await buildSkeletonBytes(file, part, { onProgress });
	if (result.kind === "built") {
		const { bytes } = result;
		// Handed over, not copied, unless the bytes share their memory with others.
		const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
		const own = whole ? bytes : new Uint8Array(bytes);
		port.postMessage({ kind: "built", bytes: own } satisfies SkeletonThreadMessage, [own.buffer as ArrayBuffer]);
	} else port.postMessage(result);
}
