import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { getAgentDir } from "./agent-dir.js";
import { replaceAtomically } from "./atomic-replace.js";

// Sessions hold every prompt, file and command output unredacted: nobody but the person may read them.
/** Mode of every folder xcsh creates under the agent dir. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file xcsh creates under the agent dir. */
export const PRIVATE_FILE_MODE = 0o600;

/** `mkdir -p` whose new folders are private (existing ones are left as they are). */
export function ensurePrivateDirSync(dir: string): void {
	mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** `mkdir -p` whose new folders are private, asynchronously. */
export async function ensurePrivateDir(dir: string): Promise<void> {
	await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Writes a private file so readers see the old bytes or the new ones, never half: a temp file beside
 * it (`.<name>.<random>.tmp`), fsynced, then renamed over it.
 */
export function writePrivateFileAtomically(target: string, bytes: Uint8Array): Promise<void> {
	return replaceAtomically(target, bytes, PRIVATE_FILE_MODE);
}

/**
 * Creates `path` empty and private if it does not exist (SQLite then opens it as it is, and gives its
 * -wal and -shm files the same mode).
 */
export function precreatePrivateFile(path: string): void {
	closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
}

/** Makes an existing file private (a copy keeps its source's mode). */
export function makePrivate(path: string): void {
	chmodSync(path, PRIVATE_FILE_MODE);
}

function tighten(path: string, mode: number, wanted: number): boolean {
	if ((mode & 0o777 & ~wanted) === 0) return false;
	chmodSync(path, mode & 0o7777 & wanted);
	return true;
}

/** Counts and fixes what others can read under `dir` (symlinks are never followed). */
function tightenTree(dir: string): number {
	let changed = 0;
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return 0;
	}
	for (const name of names) {
		const path = join(dir, name);
		try {
			const stat = lstatSync(path);
			if (stat.isDirectory()) {
				changed += tightenTree(path);
				if (tighten(path, stat.mode, PRIVATE_DIR_MODE)) changed++;
			} else if (stat.isFile() && tighten(path, stat.mode, PRIVATE_FILE_MODE)) {
				changed++;
			}
		} catch {
			// gone meanwhile, or not ours to change: the rest is still tightened
		}
	}
	return changed;
}

/**
 * Makes an agent dir written by an earlier xcsh private: folders 0700, files 0600. The agent dir's
 * own mode is the marker (it is tightened last), so an install that is already private costs one stat.
 * Returns how many files and folders were changed; never throws.
 */
export function tightenAgentDir(root: string = getAgentDir()): number {
	try {
		const stat = lstatSync(root);
		if (!stat.isDirectory() || (stat.mode & 0o077) === 0) return 0;
		let changed = tightenTree(root);
		if (tighten(root, stat.mode, PRIVATE_DIR_MODE)) changed++;
		return changed;
	} catch {
		return 0;
	}
}

/** The one-line notice for `tightenAgentDir`'s count. */
export function tightenedNotice(count: number, root: string = getAgentDir()): string {
	return `xcsh: ${root} is now private (${count} ${count === 1 ? "item" : "items"} could be read by other users)`;
}
