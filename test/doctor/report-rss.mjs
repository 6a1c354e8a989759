// Preloaded into a CLI child (`node --import <this> bin/xcsh.js …`): on exit, writes the process's
// peak resident set size in bytes to $XCSH_RSS_OUT, so a test can bound what a command cost.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
	const out = process.env.XCSH_RSS_OUT;
	if (out) writeFileSync(out, String(process.resourceUsage().maxRSS * 1024));
});
