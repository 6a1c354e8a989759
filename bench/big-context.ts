/**
 * Sessions whose context is bigger than the model's window (issue 29): `npm run bench:big-context`
 * (builds, then node --import tsx bench/big-context.ts).
 *
 * Generates once, under BENCH_BIG_ROOT (default /tmp/xcsh-big-sessions)/context-<size>/, a session
 * of each size of BENCH_CONTEXT_SIZES (default "610MB,2GB") on one path with no compaction (turns of
 * a prompt, a tool call, an 80 KB tool result and an answer: 610 MB is 30,000 messages), and a 1 MB
 * one of the same shape, the yardstick. Each run, in fresh processes: the file put back to its size
 * and opened once (a first open, which caches its skeleton), `xcsh --resume <file>` in a pty to the
 * frame showing the last answer (warm) with its settled peak RSS, the same for the 1 MB session
 * (the baseline, same run), and `xcsh --resume <file> -p "…"` (which compacts first with the offline
 * model) with its peak RSS, next to the same on the 1 MB session. Figures are medians of BENCH_RUNS
 * (default 3). Progress goes to stderr, the table to stdout. BENCH_CLEAN=1 deletes the files after.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIG_SESSION_LAST_ANSWER, writeBigSession } from "../test/helpers/big-session.js";
import { runMeasured } from "../test/helpers/peak-rss.js";
import { ROOT } from "./big-sessions-data.js";
import { resumeToLastAnswer } from "./big-sessions-pty.js";
import { cell, mb, mid, ms, printTable, type Row, row, type Series, seriesOf, within } from "./big-sessions-report.js";

const BIN = resolve(import.meta.dirname, "../bin/xcsh.js");
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
const TIMEOUT_MS = Math.max(10, Number(process.env.BENCH_TIMEOUT_S ?? 600) || 600) * 1000;
const SIZES = (process.env.BENCH_CONTEXT_SIZES ?? "610MB,2GB").split(",").map((part) => part.trim());
const TOOL_RESULT_BYTES = 80_000;
/** Bytes of one generated turn (four lines) at TOOL_RESULT_BYTES. */
const TURN_BYTES = 81_380;
const PROJECT = join(ROOT, "context-project");
const AGENT = join(ROOT, "context-agent");
const MIB = 2 ** 20;
const say = (line = ""): void => void process.stdout.write(`${line}\n`);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface Generated {
	label: string;
	path: string;
	bytes: number;
	entries: number;
}

function bytesOf(label: string): number {
	const match = /^(\d+(?:\.\d+)?)(MB|GB)$/i.exec(label);
	if (!match) throw new Error(`BENCH_CONTEXT_SIZES: "${label}" is not a size such as 610MB or 2GB`);
	return Number(match[1]) * (match[2]!.toUpperCase() === "GB" ? 1e9 : 1e6);
}

/** The one-path session of `label`, generated when missing (a manifest records its size). */
function ensure(label: string): Generated {
	const dir = join(ROOT, `context-${label}`);
	const manifest = join(dir, "manifest.json");
	if (existsSync(manifest)) {
		const found = JSON.parse(readFileSync(manifest, "utf8")) as Generated;
		if (existsSync(found.path) && statSync(found.path).size >= found.bytes) {
			log(`  ${label}: reusing ${found.path}`);
			return found;
		}
	}
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const path = join(dir, "session.jsonl");
	const started = performance.now();
	const turns = Math.max(1, Math.round(bytesOf(label) / TURN_BYTES));
	const written = writeBigSession(path, turns, TOOL_RESULT_BYTES, { cwd: PROJECT });
	const generated = { label, path, bytes: written.bytes, entries: written.entries };
	writeFileSync(manifest, JSON.stringify(generated));
	log(
		`  ${label}: generated ${(written.bytes / 1e6).toFixed(0)} MB, ${written.entries} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`,
	);
	return generated;
}

/** Puts a session back to its generated size (a `-p` run appended its compaction and turn). */
function restore(session: Generated): void {
	if (statSync(session.path).size > session.bytes) truncateSync(session.path, session.bytes);
}

interface Open {
	ms: number;
	rss: number;
}

async function resume(session: Generated): Promise<Open> {
	const opened = await resumeToLastAnswer(session.path, PROJECT, AGENT, BIG_SESSION_LAST_ANSWER, TIMEOUT_MS);
	await opened.term.stop();
	return { ms: opened.ms, rss: opened.rssBytes };
}

async function print(session: Generated): Promise<Open> {
	const started = performance.now();
	const run = await runMeasured([BIN, "--resume", session.path, "-p", "what next?"], {
		cwd: PROJECT,
		env: {
			XCSH_AGENT_DIR: AGENT,
			ANTHROPIC_API_KEY: "",
			OPENAI_API_KEY: "",
			GEMINI_API_KEY: "",
			OPENROUTER_API_KEY: "",
		},
	});
	const took = performance.now() - started;
	if (run.status !== 0 || !run.stdout.includes("what next?"))
		throw new Error(run.stderr.trim().split("\n").at(-1) ?? `exited with ${run.status}`);
	restore(session);
	return { ms: took, rss: run.peakRssBytes };
}

async function attempt<T>(once: () => Promise<T>): Promise<T | Error> {
	try {
		return await once();
	} catch (error) {
		return error instanceof Error ? error : new Error(String(error));
	}
}

async function main(): Promise<void> {
	mkdirSync(PROJECT, { recursive: true });
	rmSync(AGENT, { recursive: true, force: true });
	mkdirSync(AGENT, { recursive: true, mode: 0o700 });
	log("generating");
	const yardstick = ensure("1MB");
	const sessions = SIZES.map(ensure);
	const rows: Row[] = [];
	const smallWarm: (Open | Error)[] = [];
	const smallPrint: (Open | Error)[] = [];
	const figures = new Map<string, { first: (Open | Error)[]; warm: (Open | Error)[]; print: (Open | Error)[] }>();
	for (const session of sessions) figures.set(session.label, { first: [], warm: [], print: [] });
	await resume(yardstick); // its skeleton and the CLI's caches, untimed
	for (let run = 0; run < RUNS; run++) {
		for (const session of sessions) {
			const f = figures.get(session.label)!;
			restore(session);
			log(`run ${run + 1}/${RUNS} ${session.label}: first open, warm open, -p`);
			f.first.push(await attempt(() => resume(session)));
			f.warm.push(await attempt(() => resume(session)));
			smallWarm.push(await attempt(() => resume(yardstick)));
			f.print.push(await attempt(() => print(session)));
			smallPrint.push(await attempt(() => print(yardstick)));
		}
	}
	const small: Series = seriesOf(smallWarm, (o) => o.ms);
	const smallRss: Series = seriesOf(smallWarm, (o) => o.rss);
	const smallP = seriesOf(smallPrint, (o) => o.ms);
	const smallPRss = seriesOf(smallPrint, (o) => o.rss);
	for (const session of sessions) {
		const f = figures.get(session.label)!;
		const size = `${session.label} (${session.entries.toLocaleString("en-US")} messages)`;
		const warm = seriesOf(f.warm, (o) => o.ms);
		const warmRss = seriesOf(f.warm, (o) => o.rss);
		rows.push(
			row(
				"`--resume`, warm → last answer",
				size,
				cell(warm, ms),
				`1 MB: ${cell(small, ms)}`,
				"≤ 1 s",
				within(mid(warm), 1000),
			),
			row(
				"peak RSS",
				size,
				cell(warmRss, mb),
				`1 MB: ${cell(smallRss, mb)}`,
				"≤ 300 MiB",
				within(mid(warmRss), 300 * MIB),
			),
			row(
				"`--resume`, first open → last answer",
				size,
				cell(
					seriesOf(f.first, (o) => o.ms),
					ms,
				),
				"—",
				"—",
				undefined,
			),
			row(
				"peak RSS",
				size,
				cell(
					seriesOf(f.first, (o) => o.rss),
					mb,
				),
				"—",
				"≤ 300 MiB",
				within(mid(seriesOf(f.first, (o) => o.rss)), 300 * MIB),
			),
			row(
				"`--resume -p` (compacts first, offline model)",
				size,
				cell(
					seriesOf(f.print, (o) => o.ms),
					ms,
				),
				`1 MB: ${cell(smallP, ms)}`,
				"—",
				undefined,
			),
			row(
				"peak RSS",
				size,
				cell(
					seriesOf(f.print, (o) => o.rss),
					mb,
				),
				`1 MB: ${cell(smallPRss, mb)}`,
				"≤ 300 MiB",
				within(mid(seriesOf(f.print, (o) => o.rss)), 300 * MIB),
			),
		);
	}
	say(`Big contexts, ${new Date().toISOString()}, ${RUNS} runs each`);
	printTable(rows, say);
	if (process.env.BENCH_CLEAN === "1")
		for (const session of [yardstick, ...sessions]) rmSync(join(session.path, ".."), { recursive: true, force: true });
}

await main();
// A pty that failed to start can keep the loop alive after the table is out.
process.exit(0);
