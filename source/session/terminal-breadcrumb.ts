import { readlinkSync } from "node:fs";
import { join } from "node:path";
import { getTerminalSessionsDir } from "./session-paths.js";
import type { SessionStorage } from "./session-storage.js";

/** Env variables that name one terminal (pane, window, tab), in order of preference. */
export const TERMINAL_ENV_KEYS = [
	"XCSH_TERMINAL_ID",
	"TMUX_PANE",
	"KITTY_WINDOW_ID",
	"WEZTERM_PANE",
	"ITERM_SESSION_ID",
	"TERM_SESSION_ID",
	"WT_SESSION",
	"ALACRITTY_WINDOW_ID",
	"GNOME_TERMINAL_SCREEN",
	"KONSOLE_DBUS_WINDOW",
	"WINDOWID",
] as const;

function ttyPath(): string | undefined {
	if (!process.stdin.isTTY) return undefined;
	try {
		return readlinkSync("/proc/self/fd/0");
	} catch {
		return undefined;
	}
}

function sanitize(id: string): string {
	return id.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
}

/**
 * An id for the terminal this process runs in, from the terminal's env (tmux pane, kitty window, …)
 * or the tty path; undefined when neither is known (piped, CI).
 */
export function getTerminalId(
	env: NodeJS.ProcessEnv = process.env,
	tty: () => string | undefined = ttyPath,
): string | undefined {
	for (const key of TERMINAL_ENV_KEYS) {
		const value = env[key];
		if (value && value.length > 0) {
			const id = sanitize(`${key === "XCSH_TERMINAL_ID" ? "" : `${key.toLowerCase()}-`}${value}`);
			if (id.length > 0) return id;
		}
	}
	const path = tty();
	return path ? sanitize(path) || undefined : undefined;
}

/** Records, for this terminal, which session it last had open (two lines: cwd, session path). */
export function writeTerminalBreadcrumb(storage: SessionStorage, cwd: string, sessionFile: string): void {
	const id = getTerminalId();
	if (!id) return;
	try {
		const dir = getTerminalSessionsDir();
		storage.ensureDirSync(dir);
		storage.writeTextSync(join(dir, id), `${cwd}\n${sessionFile}\n`);
	} catch {
		// A breadcrumb is a convenience for --continue; failing to write one must not stop a session.
	}
}

/** The session this terminal last had open for `cwd`, if its file still exists. */
export async function readTerminalBreadcrumb(storage: SessionStorage, cwd: string): Promise<string | undefined> {
	const id = getTerminalId();
	if (!id) return undefined;
	try {
		const [crumbCwd, sessionFile] = (await storage.readText(join(getTerminalSessionsDir(), id))).split("\n");
		if (crumbCwd !== cwd || !sessionFile) return undefined;
		return storage.existsSync(sessionFile) ? sessionFile : undefined;
	} catch {
		return undefined;
	}
}
