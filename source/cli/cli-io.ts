import { tightenAgentDir, tightenedNotice } from "../private-files.js";

/** Where a CLI command writes, and what it runs against. */
export interface CliIo {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	/** Whether stderr is a terminal (live progress goes there); false when absent. */
	stderrIsTTY?: boolean;
	/** Terminal columns of stdout when it is a terminal: tables are cut to fit. */
	columns?: number | undefined;
	cwd: string;
}

/**
 * The process's own io for a command: stdout and stderr, a pipe closed early (`xcsh … | head`)
 * ignored rather than fatal, and an agent dir written by an earlier xcsh tightened first (said once).
 */
export function processIo(): CliIo & { stderrIsTTY: boolean } {
	// What is left to print is dropped; the work (and its session) finishes.
	process.stdout.on("error", (error: NodeJS.ErrnoException) => {
		if (error.code !== "EPIPE") throw error;
	});
	const io = {
		stdout: (text: string) => void process.stdout.write(text),
		stderr: (text: string) => void process.stderr.write(text),
		stderrIsTTY: process.stderr.isTTY === true,
		columns: process.stdout.isTTY ? process.stdout.columns : undefined,
		cwd: process.cwd(),
	};
	// Installs written by an earlier xcsh left sessions and history readable by other users.
	const tightened = tightenAgentDir();
	if (tightened > 0) io.stderr(`${tightenedNotice(tightened)}\n`);
	return io;
}
