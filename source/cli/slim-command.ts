import { sizeOf } from "../doctor/describe.js";
import { type SlimOutcome, slimSessionFile } from "../doctor/slim.js";
import type { SlimCount } from "../doctor/slim-blocks.js";
import { safeLine } from "../render/safe-text.js";
import type { CliIo } from "./cli-io.js";

function counted(n: number, word: string): string {
	return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

function movedWhat(moved: SlimCount): string {
	const parts: string[] = [];
	if (moved.toolResults > 0) parts.push(counted(moved.toolResults, "tool result"));
	if (moved.images > 0) parts.push(counted(moved.images, "image"));
	return parts.join(" and ");
}

/** The line to print and where, for each outcome. */
function report(path: string, outcome: SlimOutcome): { out?: string; err?: string; code: number } {
	switch (outcome.kind) {
		case "slimmed": {
			const sizes = `${sizeOf(outcome.beforeBytes)} → ${sizeOf(outcome.afterBytes)}`;
			const what = `${movedWhat(outcome.moved)} moved to the blob store; backup: ${outcome.backupPath}`;
			return { out: `Slimmed ${path}: ${sizes} (${what})`, code: 0 };
		}
		case "nothing-to-move":
			return {
				out: `Nothing to slim in ${path} (${sizeOf(outcome.bytes)}): no tool result text of 32 KB or more, no inline image; the file was not touched`,
				code: 0,
			};
		case "not-a-session":
			return { err: `Not a session file, left as it is: ${path} (${outcome.reason})`, code: 2 };
		case "needs-migration":
			return {
				err: `Not slimmed: ${path} is a v${outcome.version} session; open it once in xcsh (which migrates it to v3, with a backup), then slim it`,
				code: 1,
			};
		case "damaged-header":
			return {
				err: `Not slimmed: the header of ${path} is damaged; xcsh doctor --fix ${path} repairs it first`,
				code: 1,
			};
		case "locked":
			return {
				err: `Not slimmed: ${path} is open in xcsh (pid ${outcome.pid} on ${outcome.host}); close it first`,
				code: 1,
			};
	}
}

/** `xcsh doctor --slim <session.jsonl>`: 0 slimmed or nothing to move, 1 refused, 2 not a session file. */
export async function runSlimCommand(path: string, io: CliIo): Promise<number> {
	const { out, err, code } = report(path, await slimSessionFile(path));
	// Paths and lock holders come from files: never raw to the terminal.
	if (out !== undefined) io.stdout(`${safeLine(out)}\n`);
	if (err !== undefined) io.stderr(`${safeLine(err)}\n`);
	return code;
}
