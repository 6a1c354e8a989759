import { appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { getAgentDir } from "./agent-dir.js";
import { ensurePrivateDirSync, PRIVATE_FILE_MODE } from "./private-files.js";

/** Receives diagnostics; the TUI must never print them to the terminal. */
export type LogSink = (level: "error" | "warn" | "info", message: string) => void;

function fileSink(level: string, message: string): void {
	const file = join(getAgentDir(), "xcsh.log");
	try {
		ensurePrivateDirSync(dirname(file));
		appendFileSync(file, `${new Date().toISOString()} ${level.toUpperCase()} ${message}\n`, {
			mode: PRIVATE_FILE_MODE,
		});
	} catch {
		// A diagnostics log that cannot be written must never take the session down with it.
	}
}

let sink: LogSink = fileSink;

/** Replaces the log sink (tests, CLI paths that print to stderr); returns the previous one. */
export function setLogSink(next: LogSink): LogSink {
	const previous = sink;
	sink = next;
	return previous;
}

/** Diagnostics for the debug log file. */
export const log = {
	error: (message: string) => sink("error", message),
	warn: (message: string) => sink("warn", message),
	info: (message: string) => sink("info", message),
};
