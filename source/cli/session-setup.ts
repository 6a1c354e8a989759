import { resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { lookupSession } from "../session/session-lookup.js";
import { SessionManager } from "../session/session-manager.js";

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
export const terminalConfirm: Confirm = async (question) => {
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
export class SessionSetupError extends Error {}

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
): Promise<SessionManager> {
	if (flags.noSession) {
		if (flags.resume !== undefined || flags.continue) notify(NO_SESSION_NOTICE);
		return SessionManager.inMemory(cwd);
	}
	const sessionDir = flags.sessionDir ? resolve(cwd, flags.sessionDir) : undefined;
	if (flags.resume !== undefined) {
		const lookup = await lookupSession(flags.resume, cwd, sessionDir);
		switch (lookup.kind) {
			case "path":
				return SessionManager.open(resolve(cwd, lookup.path), sessionDir);
			case "ambiguous":
				throw new SessionSetupError(
					`Session id ${flags.resume} is ambiguous: ${lookup.matches.map((m) => m.id).join(", ")}`,
				);
			case "none":
				throw new SessionSetupError(`No session found for ${flags.resume}`);
			case "found": {
				const { session } = lookup;
				if (session.cwd === cwd) return SessionManager.open(session.path, sessionDir);
				const answer = await confirm(
					`Session found in different project: ${session.cwd}. Fork into current directory?`,
				);
				if (!answer)
					throw new SessionSetupError(`Session ${session.id} belongs to ${session.cwd}; not forked into ${cwd}`);
				return SessionManager.forkFrom(session.path, cwd, sessionDir);
			}
		}
	}
	if (flags.continue) return SessionManager.continueRecent(cwd, sessionDir);
	return SessionManager.create(cwd, sessionDir);
}
