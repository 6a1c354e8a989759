// The CLI's entry. A plain `xcsh import` starts without the general CLI (its flag parser and
// help), which it does not use; everything else goes through it.
import { plainImport, runPlainImport } from "./cli/import-entry.js";

const invocation = plainImport(process.argv.slice(2));
if (invocation) {
	runPlainImport(invocation).then(
		(code) => {
			process.exitCode = code;
		},
		(error: unknown) => {
			process.stderr.write(`xcsh: ${error instanceof Error ? error.message : String(error)}\n`);
			process.exitCode = 1;
		},
	);
} else await import("./cli-main.js");
