import { Worker } from "node:worker_threads";
import { log } from "../logger.js";
import { workerEntry } from "../worker-entry.js";
import type { ReadStats } from "./file-lines.js";
import { type FileStat, type SessionRow, type SessionScan, scanSessionFile } from "./session-scan.js";

/** A scan asked of the worker. */
export interface ScanRequest {
	id: number;
	path: string;
	stat: FileStat;
	base: SessionRow | undefined;
}

/** The worker's answer to one `ScanRequest`. */
export type ScanReply =
	| { id: number; scan: SessionScan; stats: ReadStats }
	| { id: number; error: { message: string; code: string | undefined }; stats: ReadStats };

/** One file to scan. */
export interface ScanJob {
	path: string;
	stat: FileStat;
	base: SessionRow | undefined;
}

// Starting a thread costs tens of ms: worth it only when there is this much to read.
const WORKER_MIN_BYTES = 32 << 20;
// File bytes in flight ahead of the writer: enough to keep the worker busy while a batch is
// written, bounded so parsed, unwritten files never hold much memory.
const READ_AHEAD_BYTES = 64 << 20;

interface Pending {
	resolve: (scan: SessionScan) => void;
	reject: (error: Error) => void;
}

function errorFrom(reply: { message: string; code: string | undefined }): NodeJS.ErrnoException {
	const error: NodeJS.ErrnoException = new Error(reply.message);
	if (reply.code !== undefined) error.code = reply.code;
	return error;
}

/** The worker's byte views as Buffers (views too, no copies), which SQLite binds as UTF-8 text. */
function asBuffers(scan: SessionScan): SessionScan {
	if (scan.kind !== "read") return scan;
	for (const text of scan.texts) {
		if (typeof text.text !== "string")
			text.text = Buffer.from(text.text.buffer, text.text.byteOffset, text.text.length);
	}
	return scan;
}

/** The worker died or never started; unlike a file error, its scans can simply be redone here. */
class WorkerFailure extends Error {}

class ScanWorker {
	readonly #worker: Worker;
	readonly #pending = new Map<number, Pending>();
	readonly #stats: ReadStats;
	#nextId = 0;
	#failed: Error | undefined;

	constructor(source: string | URL, stats: ReadStats) {
		this.#stats = stats;
		this.#worker = new Worker(source, { eval: typeof source === "string" });
		this.#worker.on("message", (reply: ScanReply) => this.#settle(reply));
		this.#worker.on("error", (error) => this.#fail(new WorkerFailure(error.message)));
		this.#worker.on("exit", (code) => this.#fail(new WorkerFailure(`index worker exited (${code})`)));
	}

	scan(job: ScanJob): Promise<SessionScan> {
		if (this.#failed) return Promise.reject(this.#failed);
		const id = this.#nextId++;
		return new Promise((resolve, reject) => {
			this.#pending.set(id, { resolve, reject });
			this.#worker.postMessage({ id, ...job } satisfies ScanRequest);
		});
	}

	get failed(): boolean {
		return this.#failed !== undefined;
	}

	async close(): Promise<void> {
		this.#failed ??= new WorkerFailure("index worker closed");
		await this.#worker.terminate();
	}

	#settle(reply: ScanReply): void {
		const pending = this.#pending.get(reply.id);
		if (!pending) return;
		this.#pending.delete(reply.id);
		this.#stats.bytesRead += reply.stats.bytesRead;
		this.#stats.filesRead += reply.stats.filesRead;
		if ("error" in reply) pending.reject(errorFrom(reply.error));
		else pending.resolve(asBuffers(reply.scan));
	}

	#fail(error: WorkerFailure): void {
		if (this.#failed) return;
		log.warn(`index worker failed, scanning on the main thread: ${error.message}`);
		this.#failed = error;
		for (const pending of this.#pending.values()) pending.reject(error);
		this.#pending.clear();
	}
}

/**
 * Scans files in order, reading ahead of the consumer. Big jobs go to a worker thread; a worker
 * that cannot start or dies mid-way only costs speed: its files are scanned here instead.
 */
export async function* scanInOrder(
	jobs: readonly ScanJob[],
	stats: ReadStats,
	workerMinBytes = WORKER_MIN_BYTES,
): AsyncGenerator<{ job: ScanJob; scan: SessionScan | Error }> {
	const size = (job: ScanJob) => job.stat.size - (job.base?.indexed_bytes ?? 0);
	const bytes = jobs.reduce((sum, job) => sum + size(job), 0);
	const source = bytes >= workerMinBytes ? workerEntry(import.meta.url, "scan-worker") : undefined;
	let worker: ScanWorker | undefined;
	if (source) {
		try {
			worker = new ScanWorker(source, stats);
		} catch (error) {
			log.warn(`index worker unavailable: ${String(error)}`);
		}
	}
	const local = (job: ScanJob) => scanSessionFile(job.path, job.stat, job.base, stats);
	const start = (job: ScanJob): Promise<SessionScan | Error> => {
		const scan =
			worker && !worker.failed ? worker.scan(job).catch((error: Error) => retryLocally(job, error)) : local(job);
		return scan.catch((error: Error) => error);
	};
	const retryLocally = (job: ScanJob, error: Error): Promise<SessionScan> =>
		error instanceof WorkerFailure ? local(job) : Promise.reject(error);
	const inFlight: Promise<SessionScan | Error>[] = [];
	let inFlightBytes = 0;
	try {
		let next = 0;
		while (next < jobs.length || inFlight.length > 0) {
			while (next < jobs.length && (inFlight.length === 0 || inFlightBytes < READ_AHEAD_BYTES)) {
				inFlightBytes += size(jobs[next]!);
				inFlight.push(start(jobs[next++]!));
			}
			const job = jobs[next - inFlight.length]!;
			const scan = await inFlight.shift()!;
			inFlightBytes -= size(job);
			yield { job, scan };
		}
	} finally {
		await worker?.close();
	}
}
