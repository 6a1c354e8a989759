import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fsync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { PRIVATE_FILE_MODE } from "../private-files.js";
import { isProcessAlive } from "../session/session-lock.js";
import type { SourceTool } from "./import-plan.js";
import { importsDir, readImportRecord } from "./import-record.js";

/*
 * How a batch's sessions land on disk. Each is written to a temp name (not fsynced: the source
 * stays the durable copy until its import record is written), then at the end of the batch they
 * are made durable together — one sync of the file system per device where the system has one
 * (Linux `sync -f`, syncfs), else an fsync of each — then linked under their names, each folder
 * fsynced once, and only then the records written. A journal beside the records lists what is
 * being linked: a run killed between a link and its record leaves a session no record names,
 * which the next run removes (its source imports it again) instead of keeping it twice.
 */

const execFileAsync = promisify(execFile);
const fsyncAsync = promisify(fsync);

/** Files fsynced at once when the file system cannot be synced whole. */
const FSYNC_AT_ONCE = 32;

async function fsyncPath(path: string): Promise<void> {
	const handle = await open(path, "r");
	try {
		await fsyncAsync(handle.fd);
	} finally {
		await handle.close();
	}
}

/** Makes `files` (each in one of `dirs`) durable: a syncfs per device of the folders, else an fsync of each file. */
export async function syncTogether(files: readonly string[], dirs: readonly string[]): Promise<void> {
	if (files.length === 0) return;
	const byDevice = new Map<number, string>();
	for (const dir of dirs) {
		const { dev } = statSync(dir);
		if (!byDevice.has(dev)) byDevice.set(dev, dir);
	}
	try {
		await Promise.all([...byDevice.values()].map((dir) => execFileAsync("sync", ["-f", dir])));
		return;
	} catch {
		// No `sync -f` here (not Linux, an old coreutils): each file on its own.
	}
	for (let at = 0; at < files.length; at += FSYNC_AT_ONCE)
		await Promise.all(files.slice(at, at + FSYNC_AT_ONCE).map(fsyncPath));
}

/** One session being linked into place, and the record that names it. */
export interface Linking {
	readonly temp: string;
	readonly target: string;
	readonly tool: SourceTool;
	readonly sourceId: string;
}

const JOURNAL = /^\.linking\.(\d+)\.[0-9a-f]+\.json$/;

/** Writes the journal of a batch about to link `entries`; returns its path (remove it once the records are written). */
export function writeJournal(entries: readonly Linking[]): string {
	const path = join(importsDir(), `.linking.${process.pid}.${randomBytes(4).toString("hex")}.json`);
	writeFileSync(path, JSON.stringify(entries), { mode: PRIVATE_FILE_MODE });
	return path;
}

/** Removes a file that may not be there. */
export function removeIfThere(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// already gone
	}
}

/** A temp file's writer pid, when the name is one of ours (`….<pid>.tmp`, `….<pid>.<hex>.tmp`). */
const TEMP = /\.(\d+)(?:\.[0-9a-f]+)?\.tmp$/;

function deadPid(name: string, pattern: RegExp): boolean {
	const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN);
	return Number.isInteger(pid) && pid !== process.pid && !isProcessAlive(pid);
}

/** Removes the temp files of processes that died in `dir` (a session's, a record's): a live pid's may be in use. */
export function removeDeadTemps(dir: string): void {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return;
	}
	for (const name of names) if (deadPid(name, TEMP)) removeIfThere(join(dir, name));
}

/**
 * Finishes what an import killed mid-batch left: a session it linked whose record it did not
 * write goes (the source, untouched, imports it again), and so do its temp files.
 */
export function recoverInterrupted(): void {
	const dir = importsDir();
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return;
	}
	for (const name of names) {
		if (!deadPid(name, JOURNAL)) continue;
		const journal = join(dir, name);
		let entries: Linking[] = [];
		try {
			entries = JSON.parse(readFileSync(journal, "utf8")) as Linking[];
		} catch {
			// torn as it was written: nothing was linked yet
		}
		for (const entry of entries) {
			removeIfThere(entry.temp);
			if (readImportRecord(entry.tool, entry.sourceId)?.sessionFile !== entry.target) removeIfThere(entry.target);
			removeDeadTemps(dirname(entry.target));
		}
		removeIfThere(journal);
	}
	removeDeadTemps(dir);
}
