import { randomBytes } from "node:crypto";
import {
	closeSync,
	fstatSync,
	fsyncSync,
	linkSync,
	lstatSync,
	openSync,
	readFileSync,
	renameSync,
	type Stats,
	unlinkSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * An unreadable lock younger than this may be one an older xcsh is still writing (it created the
 * file empty and wrote the pid after): it is left alone, and taken over only once it is older.
 */
export const LOCK_GRACE_MS = 5000;

/** Which file a path held when it was looked at: a later look compares against this. */
export interface FileIdentity {
	dev: number;
	ino: number;
}

/**
 * A file as judged: its identity and its text. Inode numbers are reused the moment a file is
 * deleted (a new lock often gets the number of the stale one just removed), so both are compared.
 */
export interface JudgedFile extends FileIdentity {
	text: string | undefined;
}

function identityOf(stat: Stats): FileIdentity {
	return { dev: stat.dev, ino: stat.ino };
}

/** The same file (device and inode) as judged. */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
	return a.dev === b.dev && a.ino === b.ino;
}

/** `.<name>.<pid>.<hex>.tmp` next to `path`: the name every lock helper file has (see stale-temp cleanup). */
function lockTempPathFor(path: string): string {
	return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

/** What is at `path` now (undefined: nothing). */
export function statFile(path: string): (FileIdentity & { mtimeMs: number; size: number }) | undefined {
	try {
		const stat = lstatSync(path);
		return { ...identityOf(stat), mtimeMs: stat.mtimeMs, size: stat.size };
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

/** The file's text, or undefined when it is gone. */
export function readIfPresent(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch {
		return undefined;
	}
}

/**
 * Creates `path` with `content` in one step: the content goes to a private temp file (0600,
 * fsynced) that is then hard-linked to `path`, so nobody can ever see the file empty or half
 * written. Returns the new file's identity, or undefined when `path` already exists. A failed
 * write (ENOSPC) leaves nothing behind and throws.
 */
export function createLinked(path: string, content: string): FileIdentity | undefined {
	const temp = lockTempPathFor(path);
	const fd = openSync(temp, "wx", 0o600);
	try {
		let identity: FileIdentity;
		try {
			writeSync(fd, content);
			fsyncSync(fd);
			identity = identityOf(fstatSync(fd));
		} finally {
			closeSync(fd);
		}
		try {
			linkSync(temp, path);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
			throw error;
		}
		return identity;
	} finally {
		try {
			unlinkSync(temp);
		} catch {
			// already gone
		}
	}
}

/** What `removeIfSame` did. */
export type RemoveOutcome = "removed" | "gone" | "changed";

function isJudged(path: string, judged: JudgedFile): boolean {
	const now = statFile(path);
	return now !== undefined && sameFile(now, judged) && readIfPresent(path) === judged.text;
}

/**
 * Removes `path` only if it is still the file judged: renamed aside first (atomic), then checked;
 * a different file that got renamed is put back (never over a newer one) and left alone.
 */
export function removeIfSame(path: string, judged: JudgedFile): RemoveOutcome {
	if (!statFile(path)) return "gone";
	if (!isJudged(path, judged)) return "changed";
	const aside = lockTempPathFor(path);
	try {
		renameSync(path, aside);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
		throw error;
	}
	if (!isJudged(aside, judged)) {
		try {
			linkSync(aside, path);
		} catch {
			// Something newer took the name meanwhile: that one stands.
		}
		unlinkSync(aside);
		return "changed";
	}
	unlinkSync(aside);
	return "removed";
}
