// The program a running xcsh starts when auto import is on (dist/auto-import.js): one background
// import in a process of its own, so the UI never waits on it. It prints one JSON line
// (`ChildReport`) on stdout and exits.
import { runAutoImport } from "./auto-import-child.js";

runAutoImport(process.cwd()).then(
	(report) => {
		process.stdout.write(`${JSON.stringify(report)}\n`);
	},
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
		process.exitCode = 1;
	},
);
