/**
 * HTML export benchmark: `npm run build && node --import tsx bench/export.ts`.
 *
 * Generates a 10k-entry session (bench/generate-sessions.ts) under os.tmpdir()/xcsh-bench-export-*,
 * times `exportFromFile` in 5 fresh processes (the call only, modules already loaded: cold JIT, as
 * in the CLI's --export fast path), reports the HTML size, and loads the page 5 times in headless
 * Chromium (fresh context each time) to time navigation start → the conversation's first message
 * element (the viewer's `xcsh-first-render` mark). Prints medians and a Markdown table.
 * Env: BENCH_RUNS (default 5, the minimum), BENCH_ENTRIES (default 10000).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CHROMIUM_PATH, hasChromium, launchChromium } from "../test/export/browser.js";
import { writeSessionFile } from "./generate-sessions.js";

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5) || 5);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000) || 10_000;
const EXPORT_TARGET_MS = 1000;
const RENDER_TARGET_MS = 1500;
const SELF = fileURLToPath(import.meta.url);
const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

const say = (line = ""): boolean => process.stdout.write(`${line}\n`);
const median = (values: readonly number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number): string => `${value.toFixed(0)} ms`;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const spread = (values: readonly number[]): string =>
	`${ms(median(values))} (min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))})`;
const verdict = (ok: boolean): string => (ok ? "pass" : "**FAIL**");

/** Child mode: one timed export, result as JSON on the last stdout line. */
async function worker(input: string, output: string): Promise<void> {
	const { exportFromFile } = await import("../source/export/html/index.js");
	const started = performance.now();
	await exportFromFile(input, output);
	say(JSON.stringify({ ms: performance.now() - started }));
}

function timeExport(input: string, output: string, env: NodeJS.ProcessEnv): number {
	const child = spawnSync(process.execPath, ["--import", "tsx", SELF, "--worker", input, output], {
		cwd: PROJECT_ROOT,
		env,
		encoding: "utf8",
	});
	if (child.status !== 0) throw new Error(`export worker failed (${child.status}):\n${child.stderr}`);
	return (JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as { ms: number }).ms;
}

interface PageTimes {
	firstRender: number;
	select: number;
}

async function timePage(html: string): Promise<PageTimes[] | undefined> {
	if (!hasChromium) return undefined;
	const browser = await launchChromium();
	try {
		const results: PageTimes[] = [];
		for (let i = 0; i < RUNS; i++) {
			const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
			const page = await context.newPage();
			await page.goto(pathToFileURL(html).href);
			await page.waitForSelector("#conversation .message");
			const firstRender = await page.evaluate(
				() => performance.getEntriesByName("xcsh-first-render")[0]?.startTime ?? Number.NaN,
			);
			// Selecting another entry (the first tree row in the DOM, dozens of rows above the leaf): the
			// click handler's work plus the layout it forces.
			const select = await page.evaluate(() => {
				const row = document.querySelector<HTMLElement>("#tree .tree-row:not(.selected)");
				const started = performance.now();
				row?.click();
				void document.body.offsetHeight;
				return performance.now() - started;
			});
			results.push({ firstRender, select });
			await context.close();
		}
		return results;
	} finally {
		await browser.close();
	}
}

async function main(): Promise<void> {
	const root = mkdtempSync(join(tmpdir(), "xcsh-bench-export-"));
	const agentDir = join(root, "agent");
	const env = { ...process.env, XCSH_AGENT_DIR: agentDir };
	try {
		say("# xcsh HTML export benchmark");
		say(`node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}`);
		const input = join(root, "session.jsonl");
		const session = writeSessionFile(input, { entries: ENTRIES, agentDir });
		say(`session: ${session.entries} entries, ${mib(session.bytes)}, path depth ${session.pathDepth}`);
		const output = join(root, "session.html");
		const exports: number[] = [];
		for (let i = 0; i < RUNS; i++) exports.push(timeExport(input, output, env));
		const size = statSync(output).size;
		say(`export runs: ${exports.map(ms).join(", ")}`);
		const pages = await timePage(output);
		say();
		say("| measure | value | target | result |");
		say("| --- | --- | --- | --- |");
		const exportMs = median(exports);
		say(
			`| exportFromFile, ${session.entries} entries (${RUNS} fresh processes) | ${spread(exports)} | ≤ ${ms(EXPORT_TARGET_MS)} | ${verdict(exportMs <= EXPORT_TARGET_MS)} |`,
		);
		say(`| HTML size (input ${mib(session.bytes)}) | ${mib(size)} | — | — |`);
		if (!pages) {
			say(`| first render in Chromium | skipped: no ${CHROMIUM_PATH} | ≤ ${ms(RENDER_TARGET_MS)} | — |`);
			return;
		}
		const first = pages.map((p) => p.firstRender);
		say(
			`| page load → first message in Chromium (${RUNS} loads) | ${spread(first)} | ≤ ${ms(RENDER_TARGET_MS)} | ${verdict(median(first) <= RENDER_TARGET_MS)} |`,
		);
		say(`| select another entry (click → DOM + layout) | ${spread(pages.map((p) => p.select))} | — | — |`);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

if (process.argv[2] === "--worker") await worker(process.argv[3]!, process.argv[4]!);
else await main();
