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
} else {
	// A big session named on `--resume` starts being read on its own threads while the CLI loads
	// (other commands do not load the module that decides it).
	const argv = process.argv.slice(2);
	if (argv.some((arg) => /^(-r|--resume)(=|$)/.test(arg)))
		(await import("./session/skeleton-prefetch.js")).prefetchFirstRead(argv, process.cwd());
	await import("./cli-main.js");
}
