import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { workerEntry } from "../worker-entry.js";
import type { CwdOrigin, SourceTool } from "./import-plan.js";
import type { RecordText } from "./import-record.js";

/** A source file for a worker to build into a new session. */
export interface BuildRequest {
	id: number;
	path: string;
	options: { from: SourceTool | "auto"; cwd: string; cwdGiven: boolean };
}

interface SourceSummary {
	tool: SourceTool;
	sourceId: string;
	cwd: string;
	cwdFrom: CwdOrigin;
}

/** A worker's answer: a session built (its lines after the header, as bytes), or what else to do. */
export type BuildReply =
	| ({
			id: number;
			kind: "built";
			file: string;
			mtimeMs: number;
			entries: number;
			badLines: number[];
			/** Every line of the session, newline-terminated. */
			body: Uint8Array;
			/** The import record, as JSON made here (a structured clone of its entries cost the main thread more). */
			record: RecordText;
			blobs: { hash: string; bytes: Uint8Array }[];
	  } & SourceSummary)
	| ({ id: number; kind: "unchanged"; sessionFile: string; badLines: number[] } & SourceSummary)
	| { id: number; kind: "skipped"; reason: string }
	/** Appends, re-imports, linked or huge sources: the main thread imports this one itself. */
	| { id: number; kind: "main" };

/** Sessions built away from the writing in this process, by workers or by the main thread between writes (tests check this path did the work). */
export const poolStats = { built: 0 };

/**
 * Worker threads an import uses by default: one per core but the one the main thread builds on
 * while it waits for them, at least one, at most 4 (past that the disk is the limit).
 */
export function defaultThreads(): number {
	return Math.min(4, Math.max(1, availableParallelism() - 1));
}

class BuildWorker {
	readonly #worker: Worker;
	readonly #pending = new Map<number, { resolve: (reply: BuildReply) => void; reject: (error: Error) => void }>();
	#failed: Error | undefined;

	constructor(source: string | URL) {
		this.#worker = new Worker(source, { eval: typeof source === "string" });
		this.#worker.on("message", (reply: BuildReply) => {
			this.#pending.get(reply.id)?.resolve(reply);
			this.#pending.delete(reply.id);
		});
		this.#worker.on("error", (error) => this.#fail(error));
		this.#worker.on("exit", (code) => this.#fail(new Error(`import worker exited (${code})`)));
	}

	get load(): number {
		return this.#failed ? Number.POSITIVE_INFINITY : this.#pending.size;
	}

	build(request: BuildRequest): Promise<BuildReply> {
		if (this.#failed) return Promise.reject(this.#failed);
		return new Promise((resolve, reject) => {
			this.#pending.set(request.id, { resolve, reject });
			this.#worker.postMessage(request);
		});
	}

	#fail(error: Error): void {
		this.#failed ??= error;
		for (const pending of this.#pending.values()) pending.reject(error);
		this.#pending.clear();
	}

	async close(): Promise<void> {
		this.#failed ??= new Error("import worker closed");
		await this.#worker.terminate();
	}
}

/**
 * Worker threads that parse sources and build their new sessions (the main thread only writes
 * them). A request a worker cannot answer (it died, or never started) rejects: the caller then
 * imports that source itself.
 */
export class BuildPool {
	readonly #workers: BuildWorker[];
	#nextId = 0;

	private constructor(workers: BuildWorker[]) {
		this.#workers = workers;
	}

	/** A pool of `count` workers (default: one per core, at most 4), or undefined when threads cannot start here. */
	static start(count = defaultThreads()): BuildPool | undefined {
		const source = workerEntry(import.meta.url, "import-worker");
		if (!source || count < 1) return undefined;
		try {
			return new BuildPool(Array.from({ length: count }, () => new BuildWorker(source)));
		} catch {
			return undefined;
		}
	}

	/** Requests sent and not yet answered. */
	get pending(): number {
		let pending = 0;
		for (const worker of this.#workers) pending += Number.isFinite(worker.load) ? worker.load : 0;
		return pending;
	}

	/** How many workers there are. */
	get size(): number {
		return this.#workers.length;
	}

	/** Builds one source on the least busy worker. */
	build(path: string, options: BuildRequest["options"]): Promise<BuildReply> {
		const worker = this.#workers.reduce((best, next) => (next.load < best.load ? next : best));
		return worker.build({ id: this.#nextId++, path, options });
	}

	/** Stops every worker. */
	async close(): Promise<void> {
		await Promise.all(this.#workers.map((worker) => worker.close()));
	}
}
