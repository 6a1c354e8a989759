import { open } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { newestSessionPaths } from "../index/session-listing.js";
import { parseHeaderOf } from "../session/session-header.js";
import type { ReadProgress } from "../session/session-loader.js";
import { SessionLockedError } from "../session/session-lock.js";
import { SessionManager } from "../session/session-manager.js";
import type { SessionHeader } from "../session/types.js";
import { lookupSession } from "./session-lookup.js";

/** Session-related flags shared by print mode and the TUI. */
export interface SessionFlags {
	noSession: boolean;
	continue: boolean;
	resume: string | undefined;
	sessionDir: string | undefined;
}

/** Asks a yes/no question on the terminal; undefined when there is no terminal to ask. */
export type Confirm = (question: string) => Promise<boolean | undefined>;

/** A y/N prompt on stdin/stderr; no TTY means no answer. */
const terminalConfirm: Confirm = async (question) => {
	if (!process.stdin.isTTY) return undefined;
	const rl = createInterface({ input: process.stdin, output: process.stderr });
	try {
		const answer = await rl.question(`${question} [y/N] `);
		return /^y(es)?$/i.test(answer.trim());
	} finally {
		rl.close();
	}
};

/** Said when --no-session meets --resume / --continue. */
export const NO_SESSION_NOTICE = "--no-session keeps the session in memory: --resume and --continue are ignored";

/** What a `--resume <value>` that cannot be honoured says. */
class SessionSetupError extends Error {}

/**
 * The spec's resolution order: `--no-session` → in memory; `--resume <path|id>` (a path opens
 * directly; an id is looked up in the project, then everywhere, offering to fork another project's
 * session here); `--continue` → this terminal's or the newest session; otherwise a new session.
 */
export async function createSessionManager(
	flags: SessionFlags,
	cwd: string,
	confirm: Confirm = terminalConfirm,
	notify: (text: string) => void = () => undefined,
	progress: ReadProgress = {},
): Promise<SessionManager> {
	if (flags.noSession) {
		if (flags.resume !== undefined || flags.continue) notify(NO_SESSION_NOTICE);
		return SessionManager.inMemory(cwd);
	}
	const sessionDir = flags.sessionDir ? resolve(cwd, flags.sessionDir) : undefined;
	if (flags.resume !== undefined) {
		const lookup = await lookupSession(flags.resume, cwd, sessionDir);
		switch (lookup.kind) {
			case "path": {
				const path = resolve(cwd, lookup.path);
				// A file is as foreign as an id: another project's session asks the same question.
				const header = await readHeader(path);
				if (header && header.cwd !== cwd) return forkForeign(path, header, cwd, sessionDir, confirm, progress);
				return openUnlessLocked(path, cwd, sessionDir, confirm, progress);
			}
			case "ambiguous":
				throw new SessionSetupError(
					`Session id ${flags.resume} is ambiguous: ${lookup.matches.map((m) => m.id).join(", ")}`,
				);
			case "none":
				throw new SessionSetupError(`No session found for ${flags.resume}`);
			case "found": {
				const { session } = lookup;
				if (session.cwd === cwd) return openUnlessLocked(session.path, cwd, sessionDir, confirm, progress);
				return forkForeign(session.path, session, cwd, sessionDir, confirm, progress);
			}
		}
	}
	if (flags.continue) {
		const manager = await SessionManager.continueRecent(cwd, { sessionDir, newestFirst: newestSessionPaths, progress });
		for (const { path, holder } of manager.getSkippedLockedSessions()) {
			notify(
				`${basename(path)} is open in another xcsh (pid ${holder.pid}): continuing the newest session that is not`,
			);
		}
		return manager;
	}
	return SessionManager.create(cwd, { sessionDir });
}

/** The header of a session file (its first lines only), or undefined when it has none: opening will say why. */
async function readHeader(path: string): Promise<SessionHeader | undefined> {
	let handle: Awaited<ReturnType<typeof open>> | undefined;
	try {
		handle = await open(path, "r");
		// A header is one short line; 64 KiB covers a long title without reading a big file whole.
		const buffer = Buffer.alloc(64 * 1024);
		const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
		return parseHeaderOf(buffer.subarray(0, bytesRead).toString("utf8"))?.header;
	} catch {
		return undefined;
	} finally {
		await handle?.close();
	}
}

/** Another project's session: forks it here when the person says so, else refuses. */
async function forkForeign(
	path: string,
	owner: { id: string; cwd: string },
	cwd: string,
	sessionDir: string | undefined,
	confirm: Confirm,
	progress: ReadProgress,
): Promise<SessionManager> {
	const answer = await confirm(`Session found in different project: ${owner.cwd}. Fork into current directory?`);
	if (!answer) throw new SessionSetupError(`Session ${owner.id} belongs to ${owner.cwd}; not forked into ${cwd}`);
	return SessionManager.forkFrom(path, cwd, { sessionDir, progress });
}

/**
 * Opens a session; when another xcsh has it, asks whether to fork it into a new session or open
 * it read-only (no answer, e.g. no terminal: a clear error).
 */
async function openUnlessLocked(
	path: string,
	cwd: string,
	sessionDir: string | undefined,
	confirm: Confirm,
	progress: ReadProgress,
): Promise<SessionManager> {
	try {
		return await SessionManager.open(path, { sessionDir, progress });
	} catch (error) {
		if (!(error instanceof SessionLockedError)) throw error;
		const fork = await confirm(`${error.message}. Fork it into a new session?`);
		if (fork) return SessionManager.forkFrom(path, cwd, { sessionDir, progress });
		if (fork === undefined)
			throw new SessionSetupError(`${error.message}: fork it or open it read-only from a terminal`);
		const readOnly = await confirm("Open it read-only instead (browse, export, no new messages)?");
		if (readOnly) return SessionManager.openReadOnly(path, { sessionDir, progress });
		throw new SessionSetupError(`${error.message}: cancelled`);
	}
}
