// A child process that imports the given paths one after the other, each in an import of its own
// (on this thread, into XCSH_AGENT_DIR), and says `done <n>` when it has finished:
// test/import/import-kill.test.ts SIGKILLs it at moments it sees in the agent dir (the later
// imports keep it running past the first one's last moments).
import { importPaths } from "../../source/import/import-run.js";

let count = 0;
for (const path of process.argv.slice(2))
	count += (await importPaths([path], { from: "auto", dryRun: false, cwd: process.cwd(), cwdGiven: false, threads: 0 }))
		.length;
process.stdout.write(`done ${count}\n`);
