import { isUtf8 } from "node:buffer";
import { constants } from "node:fs";
import { copyFile, type FileHandle, open, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { makePrivate, PRIVATE_FILE_MODE } from "../private-files.js";
import { acquireLock } from "../session/session-lock.js";
import { getBlobsDir } from "../session/session-paths.js";
import { tempPathFor } from "../session/session-storage.js";
import { removeStaleTemps } from "../session/stale-temps.js";
import { analyzeChunkedFile, analyzeSessionFile, type HasBlob, type QuarantineItem } from "./analyze.js";
import { blobDirLookup, type DiagnoseOptions, QUARANTINE_SUFFIX, toDiagnosis } from "./diagnose.js";
import type { SessionDiagnosis } from "./findings.js";
import type { HeaderEdit } from "./header-check.js";
import { inspectLock } from "./lock-check.js";
import { type ChunkedFile, type ReadLimits, withChunkedFile } from "./session-reader.js";

/** A line the repair moved out of the session file. */
export interface QuarantinedLine {
	line: number;
	reason: string;
}

/** What the repair did to the session file itself. */
export type RepairOutcome =
	/**
	 * Bad lines moved to the quarantine and the header normalised (`headerRepairs` says how); the
	 * original is kept in `backupPath`.
	 */
	| {
			kind: "rewritten";
			backupPath: string;
			quarantinePath: string;
			quarantined: QuarantinedLine[];
			headerRepairs: string[];
	  }
	/** No line needed to go (orphans, cycles, missing blobs and lines too long to read are reported, never "fixed"). */
	| { kind: "unchanged" }
	/** The header is not a session header: the file is left exactly as it is. */
	| { kind: "not-a-session"; reason: string }
	/** A running xcsh (or another host) holds the lock: nothing was touched. */
	| { kind: "locked"; pid: number; host: string };

/** The result of `repairSessionFile`. */
export interface RepairResult {
	path: string;
	outcome: RepairOutcome;
	/** The stale lock file that was removed, if there was one. */
	removedLock?: string;
	/** Temp files of dead processes that were removed. */
	removedTemps?: string[];
	/** The file as it was found. */
	before: SessionDiagnosis;
	/** The file after the repair: what is left to worry about. */
	after: SessionDiagnosis;
}

/** One line of `<file>.quarantine.jsonl`: enough to put the line back by hand. */
interface QuarantineRecord {
	line: number;
	text: string;
	reason: string;
	/** The backup the line number refers to (each repair appends its own records). */
	backup: string;
	at: string;
	/** The raw bytes, only when they are not UTF-8 and `text` cannot hold them. */
	base64?: string;
}

/** Fsyncs a file or a directory. */
export async function fsyncPath(path: string): Promise<void> {
	const handle = await open(path, "r");
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/** Copies to `<file>.bak`, else the first free `<file>.bak.<n>`; never overwrites a backup. */
export async function writeBackup(path: string): Promise<string> {
	for (let n = 0; ; n++) {
		const candidate = n === 0 ? `${path}.bak` : `${path}.bak.${n}`;
		try {
			await copyFile(path, candidate, constants.COPYFILE_EXCL);
			// A copy keeps the source's mode: a backup holds the whole session, unredacted.
			makePrivate(candidate);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
			throw error;
		}
		await fsyncPath(candidate);
		return candidate;
	}
}

function quarantineRecord(raw: Buffer, item: QuarantineItem, backup: string, at: string): QuarantineRecord {
	let text = "";
	try {
		text = raw.toString("utf8");
	} catch {
		// Beyond V8's string limit: the backup still holds the bytes.
	}
	const record: QuarantineRecord = { line: item.line, text, reason: item.reason, backup: basename(backup), at };
	if (!isUtf8(raw)) {
		try {
			record.base64 = raw.toString("base64");
		} catch {
			// As above: too long for a string; the backup holds the bytes.
		}
	}
	return record;
}

/** Appends a record per quarantined line, each line's bytes read on its own. */
async function appendQuarantine(path: string, file: ChunkedFile, items: readonly QuarantineItem[], backup: string) {
	const at = new Date().toISOString();
	const handle = await open(path, "a", PRIVATE_FILE_MODE);
	try {
		for (const item of items) {
			const raw = await file.read(item.start, item.end - item.start);
			await handle.writeFile(`${JSON.stringify(quarantineRecord(raw, item, backup, at))}\n`);
		}
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/** A replacement of bytes `[start, end)` of the file by `text` ("" to drop them). */
interface ByteEdit {
	start: number;
	end: number;
	text: string;
}

/** Writes to a handle, remembering the last byte written (the copy must end with a newline). */
export class TrackedWriter {
	readonly #handle: FileHandle;
	#last = -1;
	bytesWritten = 0;

	constructor(handle: FileHandle) {
		this.#handle = handle;
	}

	async write(bytes: Buffer): Promise<void> {
		if (bytes.length === 0) return;
		await this.#handle.writeFile(bytes);
		this.#last = bytes[bytes.length - 1]!;
		this.bytesWritten += bytes.length;
	}

	/** Adds the final newline a session file must end with, when the copy lacks it. */
	async endLine(): Promise<void> {
		if (this.#last !== -1 && this.#last !== 0x0a) await this.write(Buffer.from("\n"));
	}
}

/**
 * Streams the file with the edits applied (kept bytes copied byte for byte, a chunk at a time),
 * ending with a newline.
 */
async function writeEdited(file: ChunkedFile, edits: readonly ByteEdit[], out: TrackedWriter): Promise<void> {
	let at = 0;
	for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
		if (edit.start > at) await file.copyRange(at, edit.start, (bytes) => out.write(bytes));
		if (edit.text.length > 0) await out.write(Buffer.from(edit.text));
		at = Math.max(at, edit.end);
	}
	if (at < file.size) await file.copyRange(at, file.size, (bytes) => out.write(bytes));
	await out.endLine();
}

/** Temp file in the same directory (the original's mode), written by `fill`, fsync, rename over the file, fsync the directory. */
export async function replaceAtomically(path: string, fill: (out: TrackedWriter) => Promise<void>): Promise<void> {
	const mode = (await stat(path)).mode & 0o7777;
	const temp = tempPathFor(path);
	const handle = await open(temp, "wx", mode);
	try {
		await handle.chmod(mode);
		await fill(new TrackedWriter(handle));
		await handle.sync();
		await handle.close();
		await rename(temp, path);
	} catch (error) {
		await handle.close().catch(() => undefined);
		await unlink(temp).catch(() => undefined);
		throw error;
	}
	await fsyncPath(dirname(path));
}

async function rewrite(
	path: string,
	file: ChunkedFile,
	items: readonly QuarantineItem[],
	headerEdits: readonly HeaderEdit[],
): Promise<RepairOutcome> {
	const backupPath = await writeBackup(path);
	const quarantinePath = `${path}${QUARANTINE_SUFFIX}`;
	if (items.length > 0) await appendQuarantine(quarantinePath, file, items, backupPath);
	// The backup and the quarantine must be durable before the original is replaced.
	await fsyncPath(dirname(path));
	const edits: ByteEdit[] = [
		...headerEdits.map(({ start, end, text }) => ({ start, end, text })),
		// A quarantined line goes with its newline (the last line may have none).
		...items.map((item) => ({ start: item.start, end: Math.min(file.size, item.end + 1), text: "" })),
	];
	await replaceAtomically(path, (out) => writeEdited(file, edits, out));
	return {
		kind: "rewritten",
		backupPath,
		quarantinePath,
		quarantined: items.map(({ line, reason }) => ({ line, reason })),
		headerRepairs: headerEdits.map((edit) => edit.what),
	};
}

/**
 * Repairs a session file (`xcsh doctor --fix`): backs it up, moves unparseable, torn and duplicate-id
 * lines into `<file>.quarantine.jsonl` and rewrites it atomically without them; removes a stale lock.
 * Works under the session lock, so a running xcsh is never rewritten under; a file with an invalid
 * header is never rewritten. Rejects with the filesystem's error when the file cannot be read.
 */
export async function repairSessionFile(path: string, options: DiagnoseOptions = {}): Promise<RepairResult> {
	const hasBlob = blobDirLookup(options.blobsDir ?? getBlobsDir());
	const diagnose = async () => toDiagnosis(path, await analyzeSessionFile(path, hasBlob, options), options);
	const found = inspectLock(path);
	const before = await diagnose();
	if (found.kind === "live") {
		return { path, outcome: { kind: "locked", pid: found.pid, host: found.host }, before, after: before };
	}
	// Taking the lock also takes over (removes) a stale one.
	const lock = acquireLock(path);
	if (lock.kind === "held") {
		const outcome: RepairOutcome = { kind: "locked", pid: lock.holder.pid, host: lock.holder.host };
		return { path, outcome, before, after: await diagnose() };
	}
	let outcome: RepairOutcome;
	let removedTemps: string[];
	try {
		removedTemps = removeStaleTemps(path).map((temp) => temp.path);
		// Re-read under the lock: what is rewritten is what nobody else is appending to.
		outcome = await repairUnderLock(path, hasBlob, options);
	} finally {
		lock.release();
	}
	const after = await diagnose();
	const result: RepairResult = { path, outcome, before, after };
	if (found.kind === "stale") result.removedLock = found.lockPath;
	if (removedTemps.length > 0) result.removedTemps = removedTemps;
	return result;
}

/** The analysis and the rewrite read the same open file, so they see the same bytes. */
function repairUnderLock(path: string, hasBlob: HasBlob, limits: ReadLimits): Promise<RepairOutcome> {
	return withChunkedFile(path, limits, async (file) => {
		const analysis = await analyzeChunkedFile(file, hasBlob);
		if (!analysis.header.valid) return { kind: "not-a-session", reason: analysis.header.reason ?? "invalid header" };
		if (analysis.quarantine.length === 0 && analysis.headerEdits.length === 0) return { kind: "unchanged" };
		return rewrite(path, file, analysis.quarantine, analysis.headerEdits);
	});
}
