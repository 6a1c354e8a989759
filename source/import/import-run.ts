import { statSync } from "node:fs";
import { resolve } from "node:path";
import { buildSource } from "./build-source.js";
import { parseSource, sourceFiles } from "./detect.js";
import { ImportBatch } from "./import-batch.js";
import { importDatabase, type StampedImport } from "./import-database.js";
import { type CwdOrigin, SkipError, type SourceTool, skipReason } from "./import-plan.js";
import { BuildPool, type BuildReply, defaultThreads, poolStats } from "./import-pool.js";
import { readImportRecord } from "./import-record.js";
import { isDatabaseSource } from "./opencode-db.js";
import { importPlan } from "./plan-import.js";
import { importedSessionFile } from "./session-writer.js";
import { readSourceText } from "./source-lines.js";
import { type FileStamp, fileStamp, readCounts, StampBook } from "./source-stamp.js";
import { knownFile, stampFile } from "./stamp-results.js";
import {
	buildStreamed,
	buildStreamedFile,
	MAX_STREAM_BYTES,
	type StreamedSession,
	streamTool,
	streamToolOfFile,
} from "./stream-build.js";

/** What happened to one source file. */
export type ImportResult =
	| {
			status: "imported" | "appended" | "unchanged" | "reimported";
			source: string;
			tool: SourceTool;
			sourceId: string;
			sessionFile: string;
			previousSessionFile?: string;
			/** The importer of the earlier import, when another one made it (it mapped the source differently). */
			previousImporter?: string;
			entries: number;
			cwd: string;
			cwdFrom: CwdOrigin;
			/** Lines of the source that could not be read (torn or not JSON), 1-based. */
			unreadableLines: number[];
			/** The session's id inside a source that holds many (an opencode database). */
			sourceSession?: string;
	  }
	| { status: "skipped"; source: string; reason: string; sourceSession?: string };

/** How an import runs. */
export interface ImportOptions {
	from: SourceTool | "auto";
	dryRun: boolean;
	/** The project for sources that keep no cwd (`--cwd`), else the current directory. */
	cwd: string;
	cwdGiven: boolean;
	/** Worker threads that build sessions (0: none, all on this thread); default: one per core, at most 4. */
	threads?: number;
}

/** Imports one source file through `batch` (its new session is on disk once the batch finishes). */
async function importInto(path: string, options: ImportOptions, batch: ImportBatch): Promise<ImportResult> {
	const source = resolve(path);
	try {
		// A database is never read whole as text (importDatabase reads it).
		if (isDatabaseSource(source)) throw new SkipError(DATABASE_ALONE);
		readCounts.files++;
		const parseOptions = { fallbackCwd: options.cwd, cwdGiven: options.cwdGiven };
		const parentOf = (tool: SourceTool) => (id: string) => importedSessionFile(tool, id, batch);
		// A big first import of a Claude Code or Codex source is read from its file and built to disk.
		const big = !options.dryRun && statSync(source).size > MAX_STREAM_BYTES;
		const bigTool = big ? streamToolOfFile(source, options.from) : undefined;
		if (bigTool) {
			const built = buildStreamedFile(source, bigTool, parseOptions, parentOf(bigTool));
			const result = built && (await addStreamed(built, source, batch));
			if (result) return result;
		}
		const text = readSourceText(source);
		const tool = options.dryRun || big ? undefined : streamTool(text, options.from);
		// A first import of a Claude Code or Codex source is written as it is read.
		const built = tool ? buildStreamed(text, source, tool, parseOptions, parentOf(tool)) : undefined;
		if (built) {
			const result = await addStreamed(built, source, batch);
			if (result) return result;
		}
		const plan = parseSource(text, source, options.from, parseOptions);
		return await importPlan(plan, source, options, batch);
	} catch (error) {
		return { status: "skipped", source, reason: skipReason(error) };
	}
}

/** Adds a session built as its source was read; undefined when the source turns out to be in the batch already. */
async function addStreamed(
	built: StreamedSession,
	source: string,
	batch: ImportBatch,
): Promise<ImportResult | undefined> {
	const { head, record, body } = built;
	try {
		// The same source earlier in this run: once its record is written, this one is compared to it.
		if (batch.holds(record)) {
			await batch.finish();
			if (readImportRecord(record.tool, record.sourceId)) return undefined;
		}
		if (body instanceof Uint8Array) await batch.addBuilt(built.file, built.mtimeMs, body, record, built.blobs);
		else
			await batch.add(built.file, built.mtimeMs, (_lines, put) => {
				body.writeTo(put);
				return { record, blobs: built.blobs };
			});
	} finally {
		if (!(body instanceof Uint8Array)) body.close();
	}
	return {
		status: "imported",
		source,
		tool: head.tool,
		sourceId: head.sourceId,
		sessionFile: built.file,
		entries: built.entries,
		cwd: head.cwd,
		cwdFrom: head.cwdOrigin,
		unreadableLines: [...head.badLines],
	};
}

/** Said by `importFile` of an opencode database (`importPaths` imports every session in it). */
export const DATABASE_ALONE = "an opencode database holds many sessions: import it with the others (importPaths)";

/** Finishes the batch; a result whose session could not be written becomes a `skipped` one. */
async function settle(results: ImportResult[], batch: ImportBatch): Promise<ImportResult[]> {
	const failures = await batch.finish();
	if (failures.size === 0) return results;
	return results.map((result) => {
		if (result.status !== "imported" && result.status !== "reimported") return result;
		const failure = failures.get(result.sessionFile);
		if (!failure) return result;
		const { source, sourceSession } = result;
		return { status: "skipped", source, ...(sourceSession ? { sourceSession } : {}), reason: skipReason(failure) };
	});
}

/**
 * Imports one source file; never throws (a file that cannot be imported is a `skipped` result).
 * A file unchanged since its last import is not read: its stamp says what that import gave.
 */
export async function importFile(path: string, options: ImportOptions): Promise<ImportResult> {
	const source = resolve(path);
	const stamp = fileStamp(source);
	const book = StampBook.load();
	const known = knownFile(book, source, stamp, options);
	if (known) return known;
	const batch = new ImportBatch();
	const [result] = await settle([await importInto(source, options, batch)], batch);
	if (!options.dryRun && !isDatabaseSource(source)) stampFile(book, source, stamp, result!, options);
	book.save();
	return result!;
}

/** Below this many bytes of sources, starting worker threads costs more than it saves. */
const POOL_MIN_BYTES = 16 << 20;
/** Sources each worker is given ahead: keeps it busy while this thread writes and builds. */
const QUEUE_PER_WORKER = 3;
/** Bytes of sources handed out ahead of the one being written: bounds the sessions held in memory. */
const READ_AHEAD_BYTES = 128 << 20;
/** The answer that leaves a source to the main thread. */
const MAIN: BuildReply = { id: -1, kind: "main" };

/**
 * A source to import (`stamp`: its size, mtime and inode before anything read it), one that cannot
 * be, or one unchanged since its last import, which is not read (`known`: what that import gave).
 */
type Source =
	| { path: string; size: number; database: boolean; stamp: FileStamp | null }
	| { skipped: ImportResult }
	| { known: ImportResult };

function sourcesOf(paths: readonly string[], options: ImportOptions, book: StampBook): Source[] {
	const sources: Source[] = [];
	for (const path of paths) {
		try {
			for (const file of sourceFiles(resolve(path))) {
				const stamp = fileStamp(file);
				const database = isDatabaseSource(file);
				const known = database ? undefined : knownFile(book, file, stamp, options);
				sources.push(known ? { known } : { path: file, size: stamp?.size ?? 0, database, stamp });
			}
		} catch (error) {
			sources.push({ skipped: { status: "skipped", source: resolve(path), reason: skipReason(error) } });
		}
	}
	return sources;
}

/** What the main thread does with a worker's answer for one source. */
async function settleReply(reply: BuildReply, path: string, options: ImportOptions, batch: ImportBatch) {
	const source = resolve(path);
	switch (reply.kind) {
		case "skipped":
			return { status: "skipped", source, reason: reply.reason } satisfies ImportResult;
		case "unchanged":
			return {
				status: "unchanged",
				source,
				tool: reply.tool,
				sourceId: reply.sourceId,
				sessionFile: reply.sessionFile,
				entries: 0,
				cwd: reply.cwd,
				cwdFrom: reply.cwdFrom,
				unreadableLines: reply.badLines,
			} satisfies ImportResult;
		case "built": {
			// The same source earlier in this run (its record written since the worker looked, or about to
			// be): this one is compared to that import instead.
			if (batch.holds(reply.record)) await batch.finish();
			if (readImportRecord(reply.tool, reply.sourceId)) return importInto(path, options, batch);
			const blobs = reply.blobs.map((blob) => ({ hash: blob.hash, bytes: Buffer.from(blob.bytes) }));
			await batch.addBuilt(reply.file, reply.mtimeMs, reply.body, reply.record, blobs);
			poolStats.built++;
			return {
				status: "imported",
				source,
				tool: reply.tool,
				sourceId: reply.sourceId,
				sessionFile: reply.file,
				entries: reply.entries,
				cwd: reply.cwd,
				cwdFrom: reply.cwdFrom,
				unreadableLines: reply.badLines,
			} satisfies ImportResult;
		}
		case "main":
			return importInto(path, options, batch);
	}
}

/** A source handed to a builder: its answer, and whether it has come. */
interface Handed {
	readonly reply: Promise<BuildReply>;
	done: boolean;
}

/**
 * Imports every session file under the given files and directories, in order; new sessions are
 * written in one batch (each file fsynced, each folder once, then the records). With enough to
 * read, worker threads parse the sources and build their sessions, and this thread builds the
 * next ones itself whenever the one it is to write next is not ready (it would idle otherwise:
 * writing is little work), then writes them all in order.
 */
export async function importPaths(paths: readonly string[], options: ImportOptions): Promise<ImportResult[]> {
	const batch = new ImportBatch();
	const book = StampBook.load();
	const sources = sourcesOf(paths, options, book);
	const bytes = sources.reduce((sum, s) => sum + ("size" in s ? s.size : 0), 0);
	const threads = options.threads ?? (bytes >= POOL_MIN_BYTES ? defaultThreads() : 0);
	const pool = !options.dryRun && sources.length > 1 && threads > 0 ? BuildPool.start(threads) : undefined;
	const results: ImportResult[] = [];
	/** Where each imported source's results are, and how to stamp it once they are settled. */
	const stamps: { at: number; count: number; stamp: NonNullable<StampedImport["stamp"]> }[] = [];
	try {
		const handed = new Map<number, Handed>();
		let handedBytes = 0;
		/** The first source not yet handed to a builder. */
		let next = 0;
		const { from, cwd, cwdGiven } = options;
		const request = { from, cwd, cwdGiven };
		const byWorker = (path: string): Handed => {
			// A worker that failed leaves the source to this thread.
			readCounts.files++;
			const reply = pool ? pool.build(path, request).catch(() => MAIN) : Promise.resolve(MAIN);
			const entry: Handed = { reply, done: false };
			reply.then(() => {
				entry.done = true;
			});
			return entry;
		};
		const byThisThread = (path: string): Handed => {
			readCounts.files++;
			return { reply: Promise.resolve(buildSource({ id: -1, path, options: request }).reply), done: true };
		};
		/** Hands the next source to `build`; false when none is left or (unless `must`) its bytes do not fit. */
		const handNext = (build: (path: string) => Handed, must = false): boolean => {
			for (let source = sources[next]; source && !("path" in source && !source.database); source = sources[next])
				next++;
			const source = sources[next];
			if (!source || !("path" in source)) return false;
			if (!must && handed.size > 0 && handedBytes + source.size > READ_AHEAD_BYTES) return false;
			handedBytes += source.size;
			handed.set(next++, build(source.path));
			return true;
		};
		const feedWorkers = () => {
			while (pool && pool.pending < QUEUE_PER_WORKER * pool.size && handNext(byWorker));
		};
		/** Imports source `i` (a file), by a worker or this thread. */
		const pooled = async (i: number, path: string): Promise<ImportResult> => {
			if (!pool) return importInto(path, options, batch);
			feedWorkers();
			if (!handed.has(i)) handNext(byThisThread, true);
			// While the workers build this one, this thread builds the next (letting their answers in between).
			while (!handed.get(i)!.done && handNext(byThisThread)) {
				feedWorkers();
				await new Promise(setImmediate);
			}
			return settleReply(await handed.get(i)!.reply, path, options, batch);
		};
		for (let i = 0; i < sources.length; i++) {
			const source = sources[i]!;
			if ("skipped" in source) results.push(source.skipped);
			else if ("known" in source) results.push(source.known);
			else {
				const { path, stamp } = source;
				const imported: StampedImport = source.database
					? await importDatabase(path, options, batch, book)
					: { results: [await pooled(i, path)], stamp: ([result]) => stampFile(book, path, stamp, result!, options) };
				if (imported.stamp) stamps.push({ at: results.length, count: imported.results.length, stamp: imported.stamp });
				results.push(...imported.results);
			}
			if (handed.delete(i) && "size" in source) handedBytes -= source.size;
		}
	} finally {
		await pool?.close();
	}
	const settled = await settle(results, batch);
	// Only now are the records written: a source is stamped as imported once its import is on disk.
	if (!options.dryRun) for (const { at, count, stamp } of stamps) stamp(settled.slice(at, at + count));
	book.save();
	return settled;
}
