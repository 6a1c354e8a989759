import { type FileHandle, open } from "node:fs/promises";
import { PRIVATE_FILE_MODE } from "../private-files.js";

/** Appends lines to one file; `SessionManager` serialises its calls. */
export interface SessionStorageWriter {
	/** Queues one line (a newline is added). Never throws: failures surface through flush/getError. */
	writeLine(line: string): void;
	/** Resolves when every queued line reached the OS; rejects with the first write error. */
	flush(): Promise<void>;
	/** flush() and then fsync the file. */
	fsync(): Promise<void>;
	/** flush(), close the file, and reject with the first error if there was one. */
	close(): Promise<void>;
	/** The first error this writer hit, if any. */
	getError(): Error | undefined;
}

export type WriterMode = "append" | "truncate";

const CHUNK_BYTES = 1 << 20;

/**
 * NDJSON writer over a file handle. Lines are coalesced into one `write` per drain so a burst of
 * appends costs one syscall; the file is opened lazily so a writer that never writes creates nothing.
 */
export class NdjsonFileWriter implements SessionStorageWriter {
	readonly #path: string;
	readonly #mode: WriterMode;
	#handle: Promise<FileHandle> | undefined;
	#pending: string[] = [];
	#pendingChars = 0;
	#drain: Promise<void> = Promise.resolve();
	#error: Error | undefined;
	#closed = false;
	#drainQueued = false;

	constructor(path: string, mode: WriterMode) {
		this.#path = path;
		this.#mode = mode;
	}

	writeLine(line: string): void {
		if (this.#closed) {
			this.#error ??= new Error(`write after close: ${this.#path}`);
			return;
		}
		this.#pending.push(line, "\n");
		this.#pendingChars += line.length + 1;
		if (this.#pendingChars >= CHUNK_BYTES) this.#scheduleDrain();
		else if (!this.#drainQueued) {
			// Lines written in the same tick share one write; nothing waits for an explicit flush().
			this.#drainQueued = true;
			queueMicrotask(() => {
				this.#drainQueued = false;
				this.#scheduleDrain();
			});
		}
	}

	async flush(): Promise<void> {
		this.#scheduleDrain();
		await this.#drain;
		if (this.#error) throw this.#error;
	}

	async fsync(): Promise<void> {
		await this.flush();
		if (!this.#handle) return;
		try {
			await (await this.#handle).sync();
		} catch (error) {
			this.#error ??= error as Error;
			throw this.#error;
		}
	}

	async close(): Promise<void> {
		if (this.#closed) {
			if (this.#error) throw this.#error;
			return;
		}
		try {
			await this.flush();
		} finally {
			this.#closed = true;
			if (this.#handle) {
				const handle = await this.#handle.catch(() => undefined);
				await handle?.close().catch((error: Error) => {
					this.#error ??= error;
				});
			}
		}
		if (this.#error) throw this.#error;
	}

	getError(): Error | undefined {
		return this.#error;
	}

	#scheduleDrain(): void {
		if (this.#pending.length === 0) return;
		const text = this.#pending.join("");
		this.#pending = [];
		this.#pendingChars = 0;
		this.#drain = this.#drain.then(() => this.#write(text));
	}

	async #write(text: string): Promise<void> {
		// After the first failure nothing more is written: a later line must never land after a gap.
		if (this.#error) return;
		try {
			this.#handle ??= open(this.#path, this.#mode === "append" ? "a" : "w", PRIVATE_FILE_MODE);
			const handle = await this.#handle;
			await handle.writeFile(text);
		} catch (error) {
			this.#error = error as Error;
		}
	}
}
