import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const HOOK = resolve(import.meta.dirname, "peak-rss-hook.mjs");

/** What a child run printed, returned and used at most. */
export interface MeasuredRun {
	status: number | null;
	stdout: string;
	stderr: string;
	/** The child's peak resident set, in bytes (`process.resourceUsage().maxRSS`). */
	peakRssBytes: number;
}

/** Runs `node <args>` in a fresh process and reports its peak memory with its output. */
export function runMeasured(
	args: readonly string[],
	options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<MeasuredRun> {
	const dir = mkdtempSync(join(tmpdir(), "xcsh-rss-"));
	const rssFile = join(dir, "rss");
	const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...options.env, XCSH_TEST_PEAK_RSS_FILE: rssFile };
	delete env.XCSH_TERMINAL_ID;
	return new Promise((resolvePromise, reject) => {
		const child = spawn(process.execPath, ["--import", HOOK, ...args], { cwd: options.cwd, env });
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
		child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
		child.on("error", reject);
		// Nothing to read: a CLI that reads a piped stdin (`-p`) would wait on it for ever.
		child.stdin.end();
		child.on("close", (status) => {
			let peakRssBytes = Number.NaN;
			try {
				peakRssBytes = Number(readFileSync(rssFile, "utf8"));
			} catch {
				// the child died before its exit handler ran: NaN fails any bound
			}
			rmSync(dir, { recursive: true, force: true });
			resolvePromise({ status, stdout, stderr, peakRssBytes });
		});
	});
}
