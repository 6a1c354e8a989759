import { close, closeSync, link, openSync, rename, unlink, utimes, writeFile, writeSync } from "node:fs";
import { open as openAsync } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { ensurePrivateDirSync, PRIVATE_FILE_MODE } from "../private-files.js";
import type { PendingBlob } from "../session/blob-refs.js";
import { BlobStore } from "../session/blob-store.js";
import { getBlobsDir } from "../session/session-paths.js";
import { tempPathFor } from "../session/session-storage.js";
import { recoverInterrupted, removeDeadTemps, removeIfThere, syncTogether, writeJournal } from "./batch-landing.js";
import type { LineSink } from "./entry-lines.js";
import {
	ensureImportsDir,
	type ImportRecord,
	type RecordText,
	recordText,
	writeImportRecordAsync,
} from "./import-record.js";

/** Writes a new file (`wx`: never over one); not fsynced (the batch syncs them together). */
function writeNewFile(path: string, data: string | Uint8Array): Promise<void> {
	return new Promise((resolve, reject) => {
		writeFile(path, data, { flag: "wx", mode: PRIVATE_FILE_MODE }, (error) => (error ? reject(error) : resolve()));
	});
}
const closeAsync = promisify(close);
const linkAsync = promisify(link);
const renameAsync = promisify(rename);
const unlinkAsync = promisify(unlink);
const utimesAsync = promisify(utimes);

/** Lines are written to the temp file in pieces of about this many characters: a huge session is never one string. */
const WRITE_CHUNK_CHARS = 4 << 20;

/** Past this many characters a session's lines go to disk as they are built instead of waiting in memory. */
const HOLD_CHARS = 16 << 20;

/** At most this many finished sessions, and this many of their bytes held in memory, wait to be written at once. */
const MAX_IN_FLIGHT = 32;
const MAX_IN_FLIGHT_HELD = 64 << 20;

/**
 * A session's lines on their way to a hidden temp file. A session of usual size is kept as a few
 * strings and written and closed off the main thread while the next source is parsed; a
 * huge one is written as it is built, a chunk at a time, so it is never all in memory.
 */
class TempFile {
	readonly path: string;
	#lines: string[] = [];
	#chars = 0;
	#chunks: (string | Uint8Array)[] = [];
	#held = 0;
	#fd: number | undefined;

	constructor(path: string) {
		this.path = path;
	}

	push(line: string): void {
		this.#lines.push(line);
		this.#chars += line.length;
		if (this.#chars > WRITE_CHUNK_CHARS) this.#cut();
	}

	/** Takes lines already encoded, newline-terminated (a session a worker thread built). */
	hold(bytes: Uint8Array): void {
		this.#cut();
		this.#chunks.push(bytes);
		this.#held += bytes.length;
	}

	/** Writes lines already encoded, newline-terminated, a piece of a huge session, before it returns (the bytes may be reused). */
	stream(bytes: Uint8Array): void {
		this.#cut();
		this.#chunks.push(bytes);
		this.#writeHeldSync();
	}

	/** What is held in memory to write (characters or bytes). */
	get held(): number {
		return this.#held;
	}

	/** No more lines. */
	end(): void {
		this.#cut();
	}

	#cut(): void {
		if (this.#lines.length === 0) return;
		this.#lines.push("");
		this.#chunks.push(this.#lines.join("\n"));
		this.#held += this.#chars;
		this.#lines = [];
		this.#chars = 0;
		if (this.#held > HOLD_CHARS || this.#fd !== undefined) this.#writeHeldSync();
	}

	#writeHeldSync(): void {
		this.#fd ??= openSync(this.path, "wx", PRIVATE_FILE_MODE);
		for (const chunk of this.#chunks) {
			const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
			// A write may take fewer bytes than given: loop until all are in.
			for (let at = 0; at < bytes.length; ) at += writeSync(this.#fd, bytes, at);
		}
		this.#chunks = [];
		this.#held = 0;
	}

	/** Writes what is held and closes the temp file (the batch makes it durable with the others). */
	async write(): Promise<void> {
		if (this.#fd === undefined && this.#chunks.length <= 1) {
			// One piece (a session built whole): open, write and close in one call, without the
			// promise file handle, whose upkeep was most of what writing cost this thread.
			const data = this.#chunks[0] ?? "";
			this.#chunks = [];
			await writeNewFile(this.path, data);
			return;
		}
		if (this.#fd === undefined) {
			const handle = await openAsync(this.path, "wx", PRIVATE_FILE_MODE);
			try {
				for (const chunk of this.#chunks) await handle.writeFile(chunk);
				this.#chunks = [];
			} finally {
				await handle.close();
			}
			return;
		}
		const fd = this.#fd;
		this.#fd = undefined;
		await closeAsync(fd);
	}

	/** Removes the temp file, if it was made. */
	async discard(): Promise<void> {
		this.#chunks = [];
		if (this.#fd !== undefined) closeSync(this.#fd);
		this.#fd = undefined;
		await unlinkAsync(this.path).catch(() => undefined);
	}
}

/** A new session waiting to become visible and recorded. */
interface Pending {
	readonly temp: string;
	readonly target: string;
	readonly record: RecordText;
	readonly mtimeMs: number;
	readonly done: Promise<void>;
}

/** Why a session written in a batch did not make it (keyed by its session file). */
export type BatchFailures = Map<string, Error>;

async function syncDir(dir: string): Promise<void> {
	const handle = await openAsync(dir, "r");
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/**
 * Puts the temp file in place under its final name, never over an existing file: a hard link
 * fails if the name is taken (rename would replace it); where links are not supported the name
 * was checked free just before (it holds a fresh session id, so nothing else writes it).
 */
async function placeWithoutReplacing(temp: string, target: string): Promise<void> {
	try {
		await linkAsync(temp, target);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "EXDEV") throw error;
		const taken = await openAsync(target, "r").then(
			(handle) => handle.close().then(() => true),
			() => false,
		);
		if (taken) throw Object.assign(new Error(`${target} already exists`), { code: "EEXIST" });
		await renameAsync(temp, target);
		return;
	}
	await unlinkAsync(temp);
}

/**
 * New imported sessions written in bulk: each one's lines go to a hidden temp file beside its
 * final name, written in the background while the next source is parsed. `finish` makes them
 * durable together, links each into place whole (never visible half-written, never replacing a
 * file), fsyncs each folder once, then writes the import records: a record only ever names a
 * session that is on disk (see batch-landing.ts).
 */
export class ImportBatch {
	readonly #pending: Pending[] = [];
	/** tool + source id → the session file it is going to. */
	readonly #sources = new Map<string, string>();
	readonly #failures: BatchFailures = new Map();
	readonly #inFlight = new Set<Promise<void>>();
	#inFlightHeld = 0;
	readonly #dirs = new Set<string>();
	readonly #blobs = new BlobStore(getBlobsDir());

	constructor() {
		// What a killed import left is cleaned up before anything new is written.
		recoverInterrupted();
	}

	/** True when a session of this source is in the batch and its record not yet written. */
	holds(record: Pick<ImportRecord, "tool" | "sourceId">): boolean {
		return this.#sources.has(`${record.tool}\0${record.sourceId}`);
	}

	/** The session file a source in the batch is going to, if it is in it. */
	sessionFileOf(record: Pick<ImportRecord, "tool" | "sourceId">): string | undefined {
		return this.#sources.get(`${record.tool}\0${record.sourceId}`);
	}

	/**
	 * Writes a new session to `target` through `build` (which sends its lines to the sink, or
	 * pieces of them already encoded to `put`, written before it returns, and returns its record
	 * and blobs); the file appears
	 * once it is durable. Throws (leaving nothing behind) when the lines cannot be built or written.
	 */
	async add(
		target: string,
		mtimeMs: number,
		build: (
			sink: LineSink,
			put: (bytes: Uint8Array) => void,
		) => { record: ImportRecord | RecordText; blobs: PendingBlob[] },
		prebuilt?: Uint8Array,
	): Promise<void> {
		while (this.#inFlight.size >= MAX_IN_FLIGHT || this.#inFlightHeld > MAX_IN_FLIGHT_HELD)
			await Promise.race(this.#inFlight);
		const dir = dirname(target);
		if (!this.#dirs.has(dir)) {
			ensurePrivateDirSync(dir);
			removeDeadTemps(dir);
		}
		this.#dirs.add(dir);
		const temp = tempPathFor(target);
		const file = new TempFile(temp);
		let built: { record: ImportRecord | RecordText; blobs: PendingBlob[] };
		try {
			built = build(
				(line) => file.push(line),
				(bytes) => file.stream(bytes),
			);
			if (prebuilt) file.hold(prebuilt);
			file.end();
		} catch (error) {
			await file.discard();
			throw error;
		}
		const done = this.#land(file, built.blobs);
		const held = file.held;
		this.#inFlightHeld += held;
		// Its failure is reported by `finish`; here it only frees a place.
		const free = () => {
			this.#inFlight.delete(tracked);
			this.#inFlightHeld -= held;
		};
		const tracked: Promise<void> = done.then(free, free);
		this.#inFlight.add(tracked);
		const record = "json" in built.record ? built.record : recordText(built.record);
		this.#pending.push({ temp, target, record, mtimeMs, done });
		this.#sources.set(`${built.record.tool}\0${built.record.sourceId}`, target);
	}

	/** Writes a session a worker built (`body`: all its lines, encoded) to `target`, like `add`. */
	async addBuilt(target: string, mtimeMs: number, body: Uint8Array, record: RecordText, blobs: PendingBlob[]) {
		await this.add(target, mtimeMs, () => ({ record, blobs }), body);
	}

	async #land(file: TempFile, blobs: readonly PendingBlob[]): Promise<void> {
		try {
			// The blobs the session refers to exist before the session does.
			for (const blob of blobs) await this.#blobs.put(blob.bytes);
			await file.write();
		} catch (error) {
			await file.discard();
			throw error;
		}
	}

	/**
	 * Waits for every session, makes them durable together, links each into place, fsyncs each
	 * folder once, then writes their import records; returns every session of the batch so far
	 * that failed (nothing of theirs is left).
	 */
	async finish(): Promise<BatchFailures> {
		const pending = this.#pending.splice(0);
		this.#sources.clear();
		const failures = this.#failures;
		const outcomes = await Promise.allSettled(pending.map((p) => p.done));
		let landed = pending.filter((p, i) => {
			const outcome = outcomes[i]!;
			if (outcome.status === "rejected") failures.set(p.target, asError(outcome.reason));
			return outcome.status === "fulfilled";
		});
		if (landed.length === 0) return failures;
		const fail = async (p: Pending, error: unknown) => {
			failures.set(p.target, asError(error));
			await unlinkAsync(p.temp).catch(() => undefined);
		};
		const dirsOf = (list: readonly Pending[]) => [...new Set(list.map((p) => dirname(p.target)))];
		try {
			await syncTogether(
				landed.map((p) => p.temp),
				dirsOf(landed),
			);
		} catch (error) {
			await Promise.all(landed.map((p) => fail(p, error)));
			return failures;
		}
		ensureImportsDir();
		const journal = writeJournal(
			landed.map((p) => ({ temp: p.temp, target: p.target, tool: p.record.tool, sourceId: p.record.sourceId })),
		);
		const linked = await Promise.all(
			landed.map(async (p) => {
				try {
					// The picker lists the session where the source's last activity was.
					if (p.mtimeMs > 0) await utimesAsync(p.temp, new Date(p.mtimeMs), new Date(p.mtimeMs));
					await placeWithoutReplacing(p.temp, p.target);
					return true;
				} catch (error) {
					await fail(p, error);
					return false;
				}
			}),
		);
		landed = landed.filter((_, i) => linked[i]);
		const dirs = dirsOf(landed);
		const synced = await Promise.allSettled(dirs.map(syncDir));
		const badDirs = new Map<string, Error>();
		synced.forEach((outcome, i) => {
			if (outcome.status === "rejected") badDirs.set(dirs[i]!, asError(outcome.reason));
		});
		await Promise.all(
			landed.map(async (p) => {
				try {
					const dirError = badDirs.get(dirname(p.target));
					if (dirError) throw dirError;
					await writeImportRecordAsync(p.record);
				} catch (error) {
					// Without its record a session would be imported again next time: it goes, and says why.
					failures.set(p.target, asError(error));
					await unlinkAsync(p.target).catch(() => undefined);
				}
			}),
		);
		removeIfThere(journal);
		return failures;
	}
}

function asError(reason: unknown): Error {
	return reason instanceof Error ? reason : new Error(String(reason));
}
