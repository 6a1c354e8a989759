import { dirname } from "node:path";
import type { PendingBlob } from "../session/blob-refs.js";
import { BlobStore } from "../session/blob-store.js";
import type { ScannedLine } from "../session/line-scan.js";
import { acquireLock } from "../session/session-lock.js";
import { getBlobsDir } from "../session/session-paths.js";
import { analyzeChunkedFile } from "./analyze.js";
import { inspectLock } from "./lock-check.js";
import { fsyncPath, replaceAtomically, type TrackedWriter, writeBackup } from "./repair.js";
import { type ChunkedFile, type ReadLimits, withChunkedFile } from "./session-reader.js";
import { noSlimCount, type SlimCount, slimEntry } from "./slim-blocks.js";

/** What `slimSessionFile` did. */
export type SlimOutcome =
	/** Content moved to the blob store; the original is in `backupPath`. */
	| { kind: "slimmed"; beforeBytes: number; afterBytes: number; moved: SlimCount; backupPath: string }
	/** No tool result text or image big enough: nothing was written. */
	| { kind: "nothing-to-move"; bytes: number }
	/** The first line is not a session header: the file is left exactly as it is. */
	| { kind: "not-a-session"; reason: string }
	/** A v1/v2 file: opening it in xcsh migrates it first (slimming works on v3 only). */
	| { kind: "needs-migration"; version: number }
	/** The header's version is not a number: `doctor --fix` repairs it first. */
	| { kind: "damaged-header" }
	/** A running xcsh (or another host) holds the lock: nothing was touched. */
	| { kind: "locked"; pid: number; host: string };

/** Where blobs go (default `<agentDir>/blobs`), and how to read. */
export interface SlimOptions extends ReadLimits {
	blobsDir?: string;
}

/** No image (1,024 base64 characters) nor tool result text (32 KiB) fits in a shorter line. */
const SHORTEST_SLIMMABLE_LINE = 1024;

type Step =
	| { kind: "copy"; start: number; end: number }
	| { kind: "blobs"; blobs: PendingBlob[] }
	| { kind: "text"; text: string };

/** The slimmed line, or undefined when the line has nothing to move (it is then copied byte for byte). */
function slimLine(line: ScannedLine, blobs: PendingBlob[], moved: SlimCount): string | undefined {
	if (line.text === null || line.length < SHORTEST_SLIMMABLE_LINE) return undefined;
	let entry: unknown;
	try {
		entry = JSON.parse(line.text);
	} catch {
		return undefined;
	}
	if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
	return slimEntry(entry, blobs, moved) ? JSON.stringify(entry) : undefined;
}

/**
 * Streams the file into `out` with big blocks replaced by references: lines with nothing to move are
 * copied byte for byte; the blobs are stored (fsynced) before the queue that names them is written.
 */
async function writeSlimmed(file: ChunkedFile, store: BlobStore, out: TrackedWriter): Promise<SlimCount> {
	const moved = noSlimCount();
	let steps: Step[] = [];
	let copiedTo = 0;
	let blobsWritten = 0;
	const drain = async () => {
		const queued = steps;
		steps = [];
		for (const step of queued) {
			switch (step.kind) {
				case "copy":
					await file.copyRange(step.start, step.end, (bytes) => out.write(bytes));
					break;
				case "blobs":
					for (const blob of step.blobs) await store.put(blob.bytes);
					blobsWritten += step.blobs.length;
					break;
				case "text":
					await out.write(Buffer.from(step.text));
					break;
			}
		}
	};
	await file.scan(
		(line) => {
			const blobs: PendingBlob[] = [];
			const text = slimLine(line, blobs, moved);
			if (text === undefined) return true;
			steps.push({ kind: "copy", start: copiedTo, end: line.offset }, { kind: "blobs", blobs }, { kind: "text", text });
			copiedTo = line.offset + line.length;
			return true;
		},
		{ beforeRead: drain },
	);
	await drain();
	await file.copyRange(copiedTo, file.size, (bytes) => out.write(bytes));
	// The blobs' names must be durable before the session that points at them replaces the original.
	if (blobsWritten > 0) await fsyncPath(store.dir);
	return moved;
}

async function slimUnderLock(path: string, options: SlimOptions): Promise<SlimOutcome> {
	return withChunkedFile(path, options, async (file) => {
		// Blob presence is not the question here: skip the lookups.
		const analysis = await analyzeChunkedFile(file, () => true);
		const { header, slimmable } = analysis;
		if (!header.valid) return { kind: "not-a-session", reason: header.reason ?? "invalid header" };
		if (header.version === undefined) return { kind: "damaged-header" };
		if (header.version < 3) return { kind: "needs-migration", version: header.version };
		if (slimmable.toolResults + slimmable.images === 0) return { kind: "nothing-to-move", bytes: file.size };
		const backupPath = await writeBackup(path);
		await fsyncPath(dirname(path));
		const store = new BlobStore(options.blobsDir ?? getBlobsDir());
		let moved = noSlimCount();
		let afterBytes = 0;
		await replaceAtomically(path, async (out) => {
			moved = await writeSlimmed(file, store, out);
			afterBytes = out.bytesWritten;
		});
		return { kind: "slimmed", beforeBytes: file.size, afterBytes, moved, backupPath };
	});
}

/**
 * `xcsh doctor --slim`: moves tool result texts of 32 KiB or more and inline images of a v3 session
 * into the blob store (never a byte of content lost: the loader resolves them back), rewriting the
 * file atomically with a `.bak` of the original, streamed in bounded memory. Works under the session
 * lock, like `--fix`.
 */
export async function slimSessionFile(path: string, options: SlimOptions = {}): Promise<SlimOutcome> {
	const found = inspectLock(path);
	if (found.kind === "live") return { kind: "locked", pid: found.pid, host: found.host };
	const lock = acquireLock(path);
	if (lock.kind === "held") return { kind: "locked", pid: lock.holder.pid, host: lock.holder.host };
	try {
		return await slimUnderLock(path, options);
	} finally {
		lock.release();
	}
}
