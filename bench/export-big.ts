/**
 * Big-session export benchmark: `npm run build && node --import tsx bench/export-big.ts`.
 *
 * Generates (once, kept under os.tmpdir()/xcsh-bench-export-big-<entries>-<max>) a session of
 * BENCH_ENTRIES entries (default 100,000; tool results up to BENCH_MAX_TOOL_CHARS, default 20,000),
 * runs the built CLI's `--export` to HTML and Markdown in fresh processes reporting peak RSS
 * (`process.resourceUsage().maxRSS`) and wall time, then opens the HTML in headless Chromium (fresh
 * context each time) and times navigation start → the viewer's `xcsh-first-render` mark.
 * Prints medians of BENCH_RUNS (default 3) runs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { hasChromium, launchChromium } from "../test/export/browser.js";
import { writeSessionFile } from "./generate-sessions.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3) || 3;
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000) || 100_000;
const MAX_TOOL = Number(process.env.BENCH_MAX_TOOL_CHARS ?? 20_000) || 20_000;
const BIN = fileURLToPath(new URL("../bin/xcsh.js", import.meta.url));
const REPORT_RSS = `data:text/javascript,process.on("exit",()=>process.stderr.write("max-rss-kb "+process.resourceUsage().maxRSS+"\\n"))`;

const say = (line = ""): boolean => process.stdout.write(`${line}\n`);
const median = (values: readonly number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const dir = join(tmpdir(), `xcsh-bench-export-big-${ENTRIES}-${MAX_TOOL}`);
const agentDir = join(dir, "agent");
const session = join(dir, "session.jsonl");
if (!existsSync(session)) {
	mkdirSync(dir, { recursive: true });
	writeSessionFile(session, { entries: ENTRIES, agentDir, maxToolResultChars: MAX_TOOL });
}
say(`session: ${ENTRIES.toLocaleString()} entries, ${mb(statSync(session).size)} (${session})`);

function exportOnce(output: string): { ms: number; rss: number } {
	rmSync(output, { force: true });
	const start = performance.now();
	const run = spawnSync(process.execPath, ["--import", REPORT_RSS, BIN, "--export", session, output], {
		cwd: dir,
		env: { ...process.env, XCSH_AGENT_DIR: agentDir },
		encoding: "utf8",
	});
	const ms = performance.now() - start;
	if (run.status !== 0) throw new Error(`--export failed: ${run.stderr}`);
	return { ms, rss: Number(/max-rss-kb (\d+)/.exec(run.stderr)?.[1]) * 1024 };
}

for (const format of ["html", "md"]) {
	const output = join(dir, `out.${format}`);
	const runs = Array.from({ length: RUNS }, () => exportOnce(output));
	say(
		`--export ${format}: median ${(median(runs.map((r) => r.ms)) / 1000).toFixed(1)} s, peak RSS median ${mb(median(runs.map((r) => r.rss)))} (max ${mb(Math.max(...runs.map((r) => r.rss)))}); output ${mb(statSync(output).size)}`,
	);
}

if (hasChromium) {
	const browser = await launchChromium();
	const times: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
		const page = await context.newPage();
		await page.goto(pathToFileURL(join(dir, "out.html")).href, { timeout: 300_000 });
		await page.waitForSelector("#conversation .message", { timeout: 300_000 });
		times.push(
			await page.evaluate(() => performance.getEntriesByName("xcsh-first-render")[0]?.startTime ?? Number.NaN),
		);
		await context.close();
	}
	await browser.close();
	say(`Chromium: navigation start → first messages drawn, median ${(median(times) / 1000).toFixed(2)} s`);
}
