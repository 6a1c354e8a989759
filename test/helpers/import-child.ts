// A child process that imports the given paths (on this thread, into XCSH_AGENT_DIR) and says
// `done <n>` when it has finished: test/import/import-kill.test.ts SIGKILLs it at moments it sees
// in the agent dir.
import { importPaths } from "../../source/import/import-run.js";

const results = await importPaths(process.argv.slice(2), {
	from: "auto",
	dryRun: false,
	cwd: process.cwd(),
	cwdGiven: false,
	threads: 0,
});
process.stdout.write(`done ${results.length}\n`);
