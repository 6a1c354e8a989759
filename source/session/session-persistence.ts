import { dirname } from "node:path";
import { log } from "../logger.js";
import type { PendingBlob } from "./blob-refs.js";
import { serializeEntry } from "./jsonl.js";
import { isLazy, type LazyEntry } from "./lazy-entry.js";
import { prepareForPersistence } from "./persist-transform.js";
import { type SessionStorage, type SessionStorageWriter, tempPathFor } from "./session-storage.js";
import type { FileEntry } from "./types.js";

/** Bytes compared at each end of the file before recovery appends to it instead of rewriting it. */
const PREFIX_CHECK_BYTES = 64 * 1024;

/** A rewrite lets at most this much wait in memory for the disk. */
const REWRITE_FLUSH_BYTES = 8 << 20;

/** Automatic retries after a write failure are at most this frequent. */
const RETRY_INTERVAL_MS = 2000;

/** A write to a session file failed; the message names the file and the cause. */
export class PersistenceError extends Error {
	readonly file: string;
	/** The system error code of the cause (ENOSPC, EACCES, EIO, …). */
	readonly code: string | undefined;

	constructor(file: string, cause: unknown) {
		const reason = cause instanceof Error ? cause.message : String(cause);
		super(`Could not save ${file}: ${reason}`, { cause });
		this.name = "PersistenceError";
		this.file = file;
		this.code = (cause as NodeJS.ErrnoException | undefined)?.code;
	}
}

/** A rewrite was refused: another process took the session's lock, and may have written to the file since. */
class LockLostError extends Error {
	constructor() {
		super("this xcsh no longer holds the session's lock, so the file was not replaced (the session is kept in memory)");
		this.name = "LockLostError";
	}
}

/** What a session file is written from: entries in memory, or skeletons whose lines are copied from the old file. */
export type PersistedSlot = FileEntry | LazyEntry;

/** How skeletons are written: their lines as they are, and where they landed after a rewrite. */
export interface SkeletonLines {
	/** The skeleton's line, byte for byte. */
	rawLine(entry: LazyEntry): string;
	/** Called right after a rewrite replaced the file: each slot's new byte offset, in order. */
	rewritten(file: string, slots: readonly PersistedSlot[], offsets: readonly number[]): void;
}

/** How a file is attached: whether it already holds the session, and whether its tail is torn. */
export interface AttachState {
	onDisk: boolean;
	missingFinalNewline: boolean;
}

/**
 * Writes one session file: a serialised chain of tasks (full rewrites and appends), a latched
 * first error, and atomic rewrites (temp file, fsync, rename, fsync of the directory).
 */
export class SessionPersistence {
	readonly #storage: SessionStorage;
	#file: string | undefined;
	#onDisk = false;
	#needsNewline = false;
	#writer: SessionStorageWriter | undefined;
	#chain: Promise<void> = Promise.resolve();
	#error: Error | undefined;
	#failureLogged = false;
	#permanent = false;
	#retrying: Promise<boolean> | undefined;
	#lastRetryAt = 0;
	#lockCheck: (() => boolean) | undefined;
	#skeletons: SkeletonLines | undefined;

	constructor(storage: SessionStorage) {
		this.#storage = storage;
	}

	/** The file writes go to. */
	get file(): string | undefined {
		return this.#file;
	}

	/** True once the file holds the session (loaded, or first written). */
	get onDisk(): boolean {
		return this.#onDisk;
	}

	/** The first persistence error, if one happened. */
	get error(): Error | undefined {
		return this.#error;
	}

	/** Rewrites first ask this whether the session's lock is still ours (undefined: no lock to check). */
	setLockCheck(check: (() => boolean) | undefined): void {
		this.#lockCheck = check;
	}

	/** How skeletons are written (a big session opened with its bodies on disk). */
	setSkeletonLines(lines: SkeletonLines | undefined): void {
		this.#skeletons = lines;
	}

	/** Points writes at a file. Call `detach()` on the previous one first. */
	attach(file: string, state: AttachState): void {
		this.#file = file;
		this.#onDisk = state.onDisk;
		this.#needsNewline = state.missingFinalNewline;
		this.#writer = undefined;
		this.#error = undefined;
		this.#failureLogged = false;
		this.#permanent = false;
		this.#chain = Promise.resolve();
	}

	/** Finishes every queued write on the current file, fsyncs and closes it; rethrows the latched error. */
	async detach(): Promise<void> {
		try {
			await this.flush();
		} finally {
			const writer = this.#writer;
			this.#writer = undefined;
			await writer?.close().catch(() => undefined);
		}
	}

	/**
	 * Latches an error found outside the write chain (a failed migration backup): later writes stop
	 * and are never retried, since a retry would rewrite the original without its backup.
	 */
	fail(error: unknown): void {
		this.#latch(error);
		this.#permanent = true;
	}

	/** Throws the latched error, if any. */
	throwIfFailed(): void {
		if (this.#error) throw this.#error;
	}

	/** Writes the whole session for the first time (the deferred-persistence dump). */
	writeInitial(entries: readonly PersistedSlot[]): void {
		if (this.#onDisk) return;
		this.#onDisk = true;
		const snapshot = entries.slice();
		this.#enqueue(() => this.#rewrite(snapshot));
	}

	/** Appends one entry to a file that already holds the session. */
	append(entry: FileEntry): void {
		if (!this.#onDisk) return;
		this.#enqueue(() => this.#append(entry));
	}

	/** Atomically replaces the file with these entries (migration, rename, fork). */
	rewrite(entries: readonly PersistedSlot[]): Promise<void> {
		this.#onDisk = true;
		const snapshot = entries.slice();
		return this.#enqueue(() => this.#rewrite(snapshot));
	}

	/** Waits for queued writes, flushes and fsyncs; rethrows the first error. */
	async flush(): Promise<void> {
		// A retry in flight decides what flush reports.
		if (this.#retrying) await this.#retrying;
		await this.#flushChain();
	}

	async #flushChain(): Promise<void> {
		await this.#chain;
		if (this.#writer && !this.#error) {
			try {
				await this.#writer.fsync();
			} catch (error) {
				this.#latch(error);
			}
		}
		this.throwIfFailed();
	}

	#enqueue(task: () => Promise<void>): Promise<void> {
		const run = this.#chain.then(async () => {
			if (this.#error) return;
			try {
				await task();
			} catch (error) {
				this.#latch(error);
				// Retrying would replace the file from memory all the same: never.
				if (error instanceof LockLostError) this.#permanent = true;
			}
		});
		this.#chain = run;
		return run;
	}

	#latch(error: unknown): void {
		if (this.#error) return;
		this.#error = new PersistenceError(this.#file ?? "(no file)", error);
		// Logged once per failure: retries that fail again stay quiet until one succeeds.
		if (!this.#failureLogged) log.error(this.#error.message);
		this.#failureLogged = true;
	}

	/**
	 * Writes everything again from memory after a failure (full atomic rewrite), once the disk is
	 * fine. Resolves true when the file holds the whole session again.
	 */
	retry(entries: () => readonly PersistedSlot[]): Promise<boolean> {
		if (!this.#error)
			return this.flush().then(
				() => true,
				() => false,
			);
		this.#retrying ??= (async () => {
			await this.#chain;
			const writer = this.#writer;
			this.#writer = undefined;
			await writer?.close().catch(() => undefined);
			// Snapshot and un-latch in one synchronous step: every entry appended from here on is
			// queued behind the rewrite, every earlier one is in the snapshot.
			const previous = this.#error;
			this.#error = undefined;
			const snapshot = entries().slice();
			try {
				await this.#enqueue(() => this.#recover(snapshot));
				await this.#flushChain();
				this.#onDisk = true;
				this.#failureLogged = false;
				log.info(`Saved ${this.#file} again after: ${previous?.message}`);
				return true;
			} catch {
				return false;
			} finally {
				this.#lastRetryAt = Date.now();
				this.#retrying = undefined;
			}
		})();
		return this.#retrying;
	}

	/** Starts a retry in the background unless one ran moments ago (each append after a failure asks). */
	retrySoon(entries: () => readonly PersistedSlot[]): void {
		if (this.#permanent || !this.#error || this.#retrying || Date.now() - this.#lastRetryAt < RETRY_INTERVAL_MS) return;
		void this.retry(entries);
	}

	async #serialize(entry: PersistedSlot): Promise<string> {
		if (isLazy(entry)) {
			if (!this.#skeletons) throw new Error(`no file to copy entry ${entry.id} from`);
			return this.#skeletons.rawLine(entry);
		}
		const blobs: PendingBlob[] = [];
		const prepared = prepareForPersistence(entry, blobs);
		for (const blob of blobs) await this.#storage.blobs.put(blob.bytes);
		return serializeEntry(prepared);
	}

	async #append(entry: FileEntry): Promise<void> {
		const file = this.#file!;
		const line = await this.#serialize(entry);
		if (!this.#writer) this.#writer = this.#storage.openWriter(file, "append");
		if (this.#needsNewline) {
			// The file ends in a torn line: terminate it so the new entry never glues onto it.
			this.#writer.writeLine("");
			this.#needsNewline = false;
		}
		this.#writer.writeLine(line);
		const error = this.#writer.getError();
		if (error) throw error;
	}

	/**
	 * Brings the file back to what memory holds after a failure. When the file is an intact prefix
	 * of it (size, and the bytes at both ends, match), only the missing bytes are appended: a full
	 * rewrite would need free space equal to the whole file on a disk that just ran out.
	 */
	async #recover(entries: readonly PersistedSlot[]): Promise<void> {
		// A big session is never held as one buffer: it is rewritten line by line instead.
		if (entries.some(isLazy)) return this.#rewrite(entries);
		const file = this.#file!;
		const lines: string[] = [];
		for (const entry of entries) lines.push(`${await this.#serialize(entry)}\n`);
		const expected = Buffer.from(lines.join(""));
		const size = this.#storage.statSync(file)?.size ?? 0;
		if (size > 0 && size <= expected.length && !this.#needsNewline && (await this.#holdsPrefix(file, expected, size))) {
			if (size < expected.length) await this.#storage.appendBytes(file, expected.subarray(size));
			return;
		}
		await this.#rewrite(entries);
	}

	async #holdsPrefix(file: string, expected: Buffer, size: number): Promise<boolean> {
		const headLength = Math.min(size, PREFIX_CHECK_BYTES);
		const tailStart = Math.max(0, size - PREFIX_CHECK_BYTES);
		const [head, tail] = await Promise.all([
			this.#storage.readBytes(file, 0, headLength),
			this.#storage.readBytes(file, tailStart, size - tailStart),
		]);
		return head.equals(expected.subarray(0, headLength)) && tail.equals(expected.subarray(tailStart, size));
	}

	async #rewrite(entries: readonly PersistedSlot[]): Promise<void> {
		const file = this.#file!;
		const dir = dirname(file);
		this.#storage.ensureDirSync(dir);
		const temp = tempPathFor(file);
		const writer = this.#storage.openWriter(temp, "truncate");
		const offsets: number[] = [];
		let offset = 0;
		let flushedAt = 0;
		try {
			for (const entry of entries) {
				const line = await this.#serialize(entry);
				offsets.push(offset);
				offset += Buffer.byteLength(line) + 1;
				writer.writeLine(line);
				// The writer queues without limit: a session of gigabytes waits for the disk every few MB.
				if (offset - flushedAt > REWRITE_FLUSH_BYTES) {
					await writer.flush();
					flushedAt = offset;
				}
			}
			await writer.fsync();
			await writer.close();
			await this.#writer?.close();
			this.#writer = undefined;
			// The file may hold another holder's entries that memory lacks: replacing it would drop them.
			if (this.#lockCheck && !this.#lockCheck()) throw new LockLostError();
			await this.#storage.rename(temp, file);
			// Before anything else runs: skeletons' offsets now point into the new file.
			this.#skeletons?.rewritten(file, entries, offsets);
			await this.#storage.fsyncDir(dir);
		} catch (error) {
			await writer.close().catch(() => undefined);
			await this.#storage.unlink(temp).catch(() => undefined);
			throw error;
		}
		this.#needsNewline = false;
	}
}
