import { isUtf8 } from "node:buffer";
import { constants } from "node:fs";
import { copyFile, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { makePrivate, PRIVATE_FILE_MODE } from "../private-files.js";
import { acquireLock } from "../session/session-lock.js";
import { getBlobsDir } from "../session/session-paths.js";
import { tempPathFor } from "../session/session-storage.js";
import { removeStaleTemps } from "../session/stale-temps.js";
import { analyzeSessionBytes, type QuarantineItem } from "./analyze.js";
import { blobDirLookup, type DiagnoseOptions, QUARANTINE_SUFFIX, toDiagnosis } from "./diagnose.js";
import type { SessionDiagnosis } from "./findings.js";
import type { HeaderEdit } from "./header-check.js";
import { inspectLock } from "./lock-check.js";

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
	/** No line needed to go (orphans, cycles and missing blobs are reported, never "fixed"). */
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

async function fsyncPath(path: string): Promise<void> {
	const handle = await open(path, "r");
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/** Copies to `<file>.bak`, else the first free `<file>.bak.<n>`; never overwrites a backup. */
async function writeBackup(path: string): Promise<string> {
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

function quarantineRecord(bytes: Buffer, item: QuarantineItem, backup: string, at: string): QuarantineRecord {
	const raw = bytes.subarray(item.start, item.end);
	let text = "";
	try {
		text = raw.toString("utf8");
	} catch {
		// Beyond V8's string limit: the backup still holds the bytes.
	}
	const record: QuarantineRecord = { line: item.line, text, reason: item.reason, backup: basename(backup), at };
	if (!isUtf8(raw)) record.base64 = raw.toString("base64");
	return record;
}

async function appendQuarantine(path: string, bytes: Buffer, items: readonly QuarantineItem[], backup: string) {
	const at = new Date().toISOString();
	const text = items.map((item) => `${JSON.stringify(quarantineRecord(bytes, item, backup, at))}\n`).join("");
	const handle = await open(path, "a", PRIVATE_FILE_MODE);
	try {
		await handle.writeFile(text);
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/**
 * The file's bytes with the header edits applied and without the quarantined lines (kept lines byte
 * for byte), ending with a newline.
 */
function keptBytes(bytes: Buffer, items: readonly QuarantineItem[], headerEdits: readonly HeaderEdit[]): Buffer {
	const edits = [
		...headerEdits.map(({ start, end, text }) => ({ start, end, text })),
		...items.map((item) => ({ start: item.start, end: Math.min(bytes.length, item.end + 1), text: "" })),
	].sort((a, b) => a.start - b.start);
	const chunks: Buffer[] = [];
	let at = 0;
	for (const edit of edits) {
		if (edit.start > at) chunks.push(bytes.subarray(at, edit.start));
		if (edit.text.length > 0) chunks.push(Buffer.from(edit.text));
		at = edit.end;
	}
	if (at < bytes.length) chunks.push(bytes.subarray(at));
	const last = chunks[chunks.length - 1];
	if (last && last[last.length - 1] !== 0x0a) chunks.push(Buffer.from("\n"));
	return Buffer.concat(chunks);
}

/** Temp file in the same directory, fsync, rename over the file, fsync the directory. */
async function replaceAtomically(path: string, content: Buffer): Promise<void> {
	const mode = (await stat(path)).mode & 0o7777;
	const temp = tempPathFor(path);
	const handle = await open(temp, "wx", mode);
	try {
		await handle.chmod(mode);
		await handle.writeFile(content);
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
	bytes: Buffer,
	items: readonly QuarantineItem[],
	headerEdits: readonly HeaderEdit[],
): Promise<RepairOutcome> {
	const backupPath = await writeBackup(path);
	const quarantinePath = `${path}${QUARANTINE_SUFFIX}`;
	if (items.length > 0) await appendQuarantine(quarantinePath, bytes, items, backupPath);
	// The backup and the quarantine must be durable before the original is replaced.
	await fsyncPath(dirname(path));
	await replaceAtomically(path, keptBytes(bytes, items, headerEdits));
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
	const found = inspectLock(path);
	const before = toDiagnosis(path, analyzeSessionBytes(await readFile(path), hasBlob));
	if (found.kind === "live") {
		return { path, outcome: { kind: "locked", pid: found.pid, host: found.host }, before, after: before };
	}
	// Taking the lock also takes over (removes) a stale one.
	const lock = acquireLock(path);
	if (lock.kind === "held") {
		const outcome: RepairOutcome = { kind: "locked", pid: lock.holder.pid, host: lock.holder.host };
		return { path, outcome, before, after: toDiagnosis(path, analyzeSessionBytes(await readFile(path), hasBlob)) };
	}
	let outcome: RepairOutcome;
	let removedTemps: string[];
	try {
		removedTemps = removeStaleTemps(path).map((temp) => temp.path);
		// Re-read under the lock: what is rewritten is what nobody else is appending to.
		const bytes = await readFile(path);
		const analysis = analyzeSessionBytes(bytes, hasBlob);
		if (!analysis.header.valid) outcome = { kind: "not-a-session", reason: analysis.header.reason ?? "invalid header" };
		else if (analysis.quarantine.length === 0 && analysis.headerEdits.length === 0) outcome = { kind: "unchanged" };
		else outcome = await rewrite(path, bytes, analysis.quarantine, analysis.headerEdits);
	} finally {
		lock.release();
	}
	const after = toDiagnosis(path, analyzeSessionBytes(await readFile(path), hasBlob));
	const result: RepairResult = { path, outcome, before, after };
	if (found.kind === "stale") result.removedLock = found.lockPath;
	if (removedTemps.length > 0) result.removedTemps = removedTemps;
	return result;
}
