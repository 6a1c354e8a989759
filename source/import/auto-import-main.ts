// The program a running xcsh starts when auto import is on (dist/auto-import.js): one background
// import in a process of its own, so the UI never waits on it. It prints one JSON line
// (`ChildReport`) on stdout and exits.
import { runAutoImport } from "./auto-import-child.js";

// stdin is a pipe from the xcsh that started this round, which never writes to it: it ends when that
// xcsh is gone, however it went (quit, crash, kill -9), and the round stops with it (an import
// survives a kill; the next xcsh imports the rest). A signal is how a round stops: the lock goes too.
process.stdin.on("end", () => process.kill(process.pid, "SIGTERM"));
process.stdin.resume();

runAutoImport(process.cwd()).then(
	(report) => {
		// Exits at once: the open stdin would hold the process.
		process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));
	},
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`, () => process.exit(1));
	},
);
