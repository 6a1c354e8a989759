/**
 * Session store benchmark: `npm run bench` (node --import tsx bench/session-store.ts).
 *
 * Generates sessions under os.tmpdir()/xcsh-bench-*, runs every measurement in a fresh child process
 * (bench/session-store-worker.ts), prints medians and a Markdown table, and removes the data.
 * Env: BENCH_RUNS (default 5, the minimum), BENCH_SIZES (default 1000,10000,100000).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeCwd, sessionFileName } from "../source/session/session-paths.js";
import { type GeneratedSession, writeSessionFile } from "./generate-sessions.js";

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5) || 5);
const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const LIST_FILES = 1000;
const APPENDS = 1000;
const CWD = "/home/dev/project";
const WORKER = fileURLToPath(new URL("./session-store-worker.ts", import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

interface WorkerResult {
	ms: number;
	rssBeforeBytes: number;
	maxRssBytes: number;
	[field: string]: number | string;
}

interface Row {
	operation: string;
	size: string;
	xcsh: string;
	floor: string;
	ratio: string;
	target: string;
	result: string;
}

const root = mkdtempSync(join(tmpdir(), "xcsh-bench-"));
const agentDir = join(root, "agent");
const childEnv = { ...process.env, XCSH_AGENT_DIR: agentDir, XCSH_TERMINAL_ID: "xcsh-bench" };
process.env.XCSH_AGENT_DIR = agentDir;

function cleanup(): void {
	rmSync(root, { recursive: true, force: true });
}
process.on("SIGINT", () => {
	cleanup();
	process.exit(130);
});

const say = (line = ""): boolean => process.stdout.write(`${line}\n`);

function runWorker(args: string[]): WorkerResult {
	const child = spawnSync(process.execPath, ["--import", "tsx", WORKER, ...args], {
		cwd: PROJECT_ROOT,
		env: childEnv,
		encoding: "utf8",
		maxBuffer: 16 << 20,
	});
	if (child.status !== 0) throw new Error(`worker ${args.join(" ")} failed (${child.status}):\n${child.stderr}`);
	const last = child.stdout.trim().split("\n").at(-1) ?? "";
	return JSON.parse(last) as WorkerResult;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs xcsh and floor alternately, RUNS times each after one discarded warm-up pair. */
function pairs(xcsh: () => string[], floor: () => string[]): { xcsh: WorkerResult[]; floor: WorkerResult[] } {
	const out = { xcsh: [] as WorkerResult[], floor: [] as WorkerResult[] };
	for (let i = 0; i <= RUNS; i++) {
		const x = runWorker(xcsh());
		const f = runWorker(floor());
		if (i === 0) continue;
		out.xcsh.push(x);
		out.floor.push(f);
	}
	return out;
}

const ms = (value: number): string =>
	value >= 10_000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ms`;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const times = (value: number): string => `${value.toFixed(2)}×`;
const pass = (ok: boolean): string => (ok ? "pass" : "**FAIL**");
const spread = (values: number[], format: (v: number) => string): string =>
	`median ${format(median(values))} (min ${format(Math.min(...values))}, max ${format(Math.max(...values))})`;
const msOf = (results: WorkerResult[]): number[] => results.map((r) => r.ms);
const rssDelta = (results: WorkerResult[]): number[] => results.map((r) => r.maxRssBytes - r.rssBeforeBytes);
const rssPeak = (results: WorkerResult[]): number[] => results.map((r) => r.maxRssBytes);
/** Median of xcsh/floor per adjacent pair: less sensitive to load drifting during the series. */
const paired = (x: number[], f: number[]): string => `paired ${times(median(x.map((v, i) => v / f[i]!)))}`;
const label = (entries: number): string => (entries >= 1000 ? `${entries / 1000}k` : String(entries));

function generate(name: string, entries: number, seed: number, linear = false): GeneratedSession {
	mkdirSync(join(root, "big"), { recursive: true });
	const started = performance.now();
	const session = writeSessionFile(join(root, "big", name), {
		entries,
		seed,
		agentDir,
		cwd: CWD,
		branches: !linear,
		compactions: !linear,
	});
	const took = ms(performance.now() - started);
	say(`  ${name}: ${entries} entries, ${mib(session.bytes)}, path depth ${session.pathDepth}, ${took} to generate`);
	return session;
}

function generateListing(): string {
	const dir = join(agentDir, "sessions", encodeCwd(CWD));
	mkdirSync(dir, { recursive: true });
	const started = performance.now();
	let bytes = 0;
	for (let i = 0; i < LIST_FILES; i++) {
		const startMs = Date.UTC(2025, 0, 1) + i * 3_700_000;
		const title = i % 3 === 0 ? `Session ${i}: refactor the loader` : undefined;
		const sessionId = startMs.toString(16).padStart(12, "0") + i.toString(16).padStart(4, "0");
		const shape = { entries: 4 + (i % 27), seed: 1000 + i, maxToolResultChars: 4000, blobRefs: false };
		const options = { ...shape, agentDir, cwd: CWD, startMs, title, sessionId, compactions: false };
		const session = writeSessionFile(join(dir, sessionFileName(new Date(startMs).toISOString(), sessionId)), options);
		utimesSync(session.path, session.endMs / 1000, session.endMs / 1000);
		bytes += session.bytes;
	}
	say(`  ${LIST_FILES} listing files in one dir, ${mib(bytes)} total, ${ms(performance.now() - started)} to generate`);
	return dir;
}

function main(): void {
	const rows: Row[] = [];
	say(`# xcsh session store benchmark`);
	say(`node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}`);
	say(`${RUNS} runs per figure, each in a fresh child process (one extra warm-up pair discarded); data in ${root}`);
	say();
	say("Generating sessions…");
	const sessions = SIZES.map((n, i) => generate(`realistic-${label(n)}.jsonl`, n, i + 1));
	const linear = generate("linear-100k.jsonl", 100_000, 99, true);
	const listDir = generateListing();
	say();

	say("## open: SessionManager.open(path) vs readFile + split + JSON.parse per line");
	say("RSS: the worker resets the kernel's high-water mark (/proc/self/clear_refs) right before the work;");
	say("'peak' is maxRSS after the work (process baseline included), 'Δ' is maxRSS − RSS before the work.");
	say("The ratio and pass/fail use Δ: the memory the operation itself needs at its peak.");
	for (const session of sessions) {
		const size = `${label(session.entries)} entries (${mib(session.bytes)})`;
		const r = pairs(
			() => ["open-xcsh", session.path],
			() => ["open-floor", session.path],
		);
		const [xt, ft] = [median(msOf(r.xcsh)), median(msOf(r.floor))];
		const [xr, fr] = [median(rssDelta(r.xcsh)), median(rssDelta(r.floor))];
		say(`- ${size}`);
		say(
			`  time   xcsh ${spread(msOf(r.xcsh), ms)}; floor ${spread(msOf(r.floor), ms)} → ${times(xt / ft)}, ${paired(msOf(r.xcsh), msOf(r.floor))}`,
		);
		say(
			`  RSS Δ  xcsh ${spread(rssDelta(r.xcsh), mib)}; floor ${spread(rssDelta(r.floor), mib)} → ${times(xr / fr)}, ${paired(rssDelta(r.xcsh), rssDelta(r.floor))}`,
		);
		say(`  peak   xcsh ${mib(median(rssPeak(r.xcsh)))}; floor ${mib(median(rssPeak(r.floor)))}`);
		const timeRow = { operation: "open (time)", size, xcsh: ms(xt), floor: ms(ft), ratio: times(xt / ft) };
		rows.push({ ...timeRow, target: "≤ 1.15×", result: pass(xt / ft <= 1.15) });
		const rssRow = { operation: "open (peak RSS Δ)", size, xcsh: mib(xr), floor: mib(fr), ratio: times(xr / fr) };
		rows.push({ ...rssRow, target: "≤ 1.30×", result: pass(xr / fr <= 1.3) });
	}
	say();

	say("## context at leaf: buildSessionContext() on an opened session");
	say(`each process: median of 21 calls after 5 warm-up calls; figure: median over ${RUNS} fresh processes`);
	const contexts = [
		{ session: linear, what: "100k-deep linear path, no compaction" },
		...sessions.filter((s) => s.entries === 100_000).map((session) => ({ session, what: "realistic 100k" })),
	];
	for (const { session, what } of contexts) {
		const runs = Array.from({ length: RUNS }, () => runWorker(["context", session.path, "21", "5"]));
		const [r, xc] = [runs[0]!, median(msOf(runs))];
		say(`- ${what} (path depth ${r.depth}, ${r.messages} messages): ${spread(msOf(runs), ms)}`);
		const size = `${what} (${Number(r.messages).toLocaleString("en")} messages)`;
		const [target, result] = session === linear ? ["≤ 30 ms", pass(xc <= 30)] : ["—", "—"];
		rows.push({ operation: "context at leaf", size, xcsh: ms(xc), floor: "—", ratio: "—", target, result });
	}
	say();

	const appendBase = sessions.find((s) => s.entries === 10_000) ?? sessions[0]!;
	say(
		`## ${APPENDS} persisted appends on an opened ${label(appendBase.entries)} session: appendMessage × ${APPENDS} + flush()`,
	);
	say(
		`floor: ${APPENDS} × JSON.stringify(entry) + one appendFile + fsync (session open/parse not timed on either side)`,
	);
	let copies = 0;
	const copy = (): string => {
		const target = join(root, `append-${copies++}.jsonl`);
		copyFileSync(appendBase.path, target);
		return target;
	};
	const appends = pairs(
		() => ["append-xcsh", copy(), String(APPENDS)],
		() => ["append-floor", copy(), String(APPENDS)],
	);
	const [xa, fa] = [median(msOf(appends.xcsh)), median(msOf(appends.floor))];
	say(
		`  xcsh ${spread(msOf(appends.xcsh), ms)}; floor ${spread(msOf(appends.floor), ms)} → ${times(xa / fa)}, ${paired(msOf(appends.xcsh), msOf(appends.floor))}`,
	);
	const appendSize = `${APPENDS} messages on a ${label(appendBase.entries)} session`;
	const appendRow = { operation: "persisted appends + flush", size: appendSize, target: "—", result: "—" };
	rows.push({ ...appendRow, xcsh: ms(xa), floor: ms(fa), ratio: times(xa / fa) });
	say();

	say(`## listing ${LIST_FILES} session files in one dir`);
	say(`getRecentSessions(dir, 50) vs floor: first 4 KB of each of the ${LIST_FILES} files (sync read + header parse)`);
	const recent = pairs(
		() => ["recent-xcsh", listDir, "50"],
		() => ["recent-floor", listDir],
	);
	const [xl, fl] = [median(msOf(recent.xcsh)), median(msOf(recent.floor))];
	say(`  xcsh ${spread(msOf(recent.xcsh), ms)}; floor ${spread(msOf(recent.floor), ms)}`);
	const recentRow = { operation: "getRecentSessions(dir, 50)", size: `${LIST_FILES} files`, target: "≤ 50 ms" };
	rows.push({ ...recentRow, xcsh: ms(xl), floor: ms(fl), ratio: times(xl / fl), result: pass(xl <= 50) });
	say(`listProjectSessions(cwd, dir) vs floor: every file read whole, split, header parsed`);
	const list = pairs(
		() => ["list-xcsh", listDir, CWD],
		() => ["list-floor", listDir],
	);
	const [xs, fs] = [median(msOf(list.xcsh)), median(msOf(list.floor))];
	say(`  xcsh ${spread(msOf(list.xcsh), ms)}; floor ${spread(msOf(list.floor), ms)}`);
	const listRow = { operation: "listProjectSessions(cwd, dir)", size: `${LIST_FILES} files`, target: "—", result: "—" };
	rows.push({ ...listRow, xcsh: ms(xs), floor: ms(fs), ratio: times(xs / fs) });
	say();

	say("## Summary");
	say();
	say("| operation | size | xcsh median | floor median | ratio | target | result |");
	say("|---|---|--:|--:|--:|---|---|");
	for (const r of rows)
		say(`| ${r.operation} | ${r.size} | ${r.xcsh} | ${r.floor} | ${r.ratio} | ${r.target} | ${r.result} |`);
	say();
	say(`Medians of ${RUNS} runs, each in a fresh process (context: per process, the median of 21 calls).`);
	say("RSS Δ = maxRSS − RSS before the work, with the kernel's high-water mark reset at the start of the work.");
}

const started = performance.now();
try {
	main();
} finally {
	cleanup();
	say(`(total ${ms(performance.now() - started)}; removed ${root})`);
}
