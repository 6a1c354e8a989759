/**
 * Sessions of any size (issue 15): `npm run bench:big` (builds, then node --import tsx bench/big-sessions.ts).
 *
 * Generates once, under /tmp/xcsh-big-sessions/ (bench/big-sessions-data.ts), sessions of each size of
 * BENCH_BIG_SIZES (default "100MB,1GB,5GB"), a 10k-entry session and a 10,000-session picker corpus,
 * then measures, each figure the median of BENCH_RUNS (default 3) fresh processes, next to baselines
 * measured in the same run: the streaming read+parse floor, pi-coding-agent 0.73.1's open, `xcsh
 * --resume <file>` to the last answer on screen (first open and warm), `/tree` on the biggest size,
 * `--export`, the small-session open, and the `--resume` picker. A measurement that fails is reported
 * as "fails: <first line>" and the bench goes on. Progress goes to stderr, figures and the table to stdout.
 * Env: BENCH_BIG_SIZES, BENCH_RUNS, BENCH_TIMEOUT_S (per wait, default 900), BENCH_PICKER_SESSIONS
 * (default 10000), BENCH_ONLY (any of floor,pi,resume,tree,export,small,picker), BENCH_BIG_ROOT,
 * BENCH_PICKER_ROOT, BENCH_PI_DIR.
 */
import { mkdirSync, rmSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import {
	type BigSession,
	ensurePickerCorpus,
	ensureSession,
	ensureSmallSession,
	forgetSkeleton,
	freshRunDir,
	PROJECT,
	parseSizes,
	ROOT,
	type RunDir,
	restoreSession,
} from "./big-sessions-data.js";
import { type ChildFigures, ensurePi, exportRun, floorRun, piRun, storeOpenRun } from "./big-sessions-procs.js";
import {
	measurePickerSpawn,
	measureTree,
	type PickerRuns,
	resumeToLastAnswer,
	type TreeFigures,
} from "./big-sessions-pty.js";
import {
	cell,
	fails,
	firstLine,
	mb,
	median,
	mid,
	ms,
	printTable,
	type Row,
	row,
	type Series,
	seriesOf,
	times,
	within,
} from "./big-sessions-report.js";
import { layout, measureSessions } from "./index-scale-data.js";

const SIZES = parseSizes(process.env.BENCH_BIG_SIZES ?? "100MB,1GB,5GB");
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
const TIMEOUT_MS = Math.max(10, Number(process.env.BENCH_TIMEOUT_S ?? 900) || 900) * 1000;
const PICKER_SESSIONS = Math.max(60, Number(process.env.BENCH_PICKER_SESSIONS ?? 10_000) || 10_000);
const ONLY = process.env.BENCH_ONLY?.split(",").map((key) => key.trim());
const MIB = 2 ** 20;
const PICKER_ROW = "--resume picker → first rows";
const PICKER_TARGET = "≤ plain + 100 ms";

const wants = (key: string): boolean => !ONLY || ONLY.includes(key);
const say = (line = ""): void => void process.stdout.write(`${line}\n`);
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const rows: Row[] = [];
const notes = new Set<string>();
/** The floor of each size, measured with it, reused as the baseline of --export. */
const floors = new Map<string, { wall: Series; rss: Series }>();
const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(2)} GB`;

async function attempt<T>(run: () => Promise<T> | T): Promise<T | Error> {
	try {
		return await run();
	} catch (error) {
		return error instanceof Error ? error : new Error(String(error));
	}
}

/** Runs `once` up to RUNS times, stopping at the first failure (it would only fail again, slowly). */
async function repeat<T>(once: () => Promise<T | Error> | T | Error): Promise<(T | Error)[]> {
	const results: (T | Error)[] = [];
	for (let i = 0; i < RUNS; i++) {
		const result = await attempt(once);
		results.push(result);
		if (result instanceof Error) break;
	}
	return results;
}

function noteRestored(session: BigSession): void {
	const changed = restoreSession(session);
	if (changed) notes.add(`${session.label}: ${changed}`);
}

interface OpenFigures {
	ms: number;
	rssBytes: number;
	settleMs: number;
}

/** One `--resume` open to the last answer; `then` runs on the open CLI before it is stopped. */
async function openOnce(
	session: BigSession,
	run: RunDir,
	then?: (opened: Awaited<ReturnType<typeof resumeToLastAnswer>>) => Promise<void>,
): Promise<OpenFigures> {
	const opened = await resumeToLastAnswer(run.sessionPath, PROJECT, run.agentDir, session.marker, TIMEOUT_MS);
	try {
		await then?.(opened);
	} finally {
		await opened.term.stop();
		noteRestored(session);
	}
	return { ms: opened.ms, rssBytes: opened.rssBytes, settleMs: opened.settleMs };
}

interface SizeResults {
	floor: (ChildFigures | Error)[];
	pi: (ChildFigures | Error)[];
	first: (OpenFigures | Error)[];
	warm: (OpenFigures | Error)[];
	tree: (TreeFigures | Error)[];
}

/** First open and warm open in a fresh agent dir per run; the tree is measured in the warm process. */
async function resumeRuns(session: BigSession, results: SizeResults, withTree: boolean): Promise<void> {
	const failed = (list: readonly unknown[]): boolean => list.at(-1) instanceof Error;
	for (let i = 0; i < RUNS && !(failed(results.first) && failed(results.warm)); i++) {
		const run = freshRunDir(session);
		try {
			const deleted = forgetSkeleton(run, session);
			log(`  run ${i + 1}: deleted before the first open: ${deleted.join(", ") || "nothing (fresh agent dir)"}`);
			if (!failed(results.first)) results.first.push(await attempt(() => openOnce(session, run)));
			if (failed(results.warm)) continue;
			const tree = async (opened: Awaited<ReturnType<typeof resumeToLastAnswer>>) => {
				if (withTree && !failed(results.tree)) results.tree.push(await attempt(() => measureTree(opened, TIMEOUT_MS)));
			};
			const warm = await attempt(() => openOnce(session, run, tree));
			results.warm.push(warm);
			if (warm instanceof Error && withTree && !failed(results.tree)) {
				results.tree.push(new Error(`resume: ${firstLine(warm)}`));
			}
			const [f, w] = [results.first.at(-1), warm];
			const show = (o: OpenFigures | Error | undefined) =>
				o instanceof Error
					? fails(firstLine(o))
					: o
						? `${ms(o.ms)}, ${mb(o.rssBytes)} (idle after ${ms(o.settleMs)})`
						: "—";
			log(`  run ${i + 1}: first open ${show(f)}; warm ${show(w)}`);
		} finally {
			run.remove();
		}
	}
}

async function measureSize(session: BigSession, biggest: boolean): Promise<void> {
	say(`## ${session.label}: ${gb(session.bytes)}, ${session.entries.toLocaleString("en")} entries`);
	const results: SizeResults = { floor: [], pi: [], first: [], warm: [], tree: [] };
	results.floor = await repeat(() => floorRun(session));
	const floorWall = seriesOf(results.floor, (r) => r.wallMs);
	const floorRss = seriesOf(results.floor, (r) => r.maxRssBytes);
	say(`floor (stream + JSON.parse per line, spawn → exit): ${cell(floorWall, ms)}, peak RSS ${cell(floorRss, mb)}`);

	let piMs: Series = { ok: false, reason: "not run" };
	let piRss: Series = piMs;
	if (wants("pi")) {
		const why = ensurePi(log);
		results.pi = why ? [new Error(why)] : await repeat(() => piRun(session));
		[piMs, piRss] = [seriesOf(results.pi, (r) => r.ms), seriesOf(results.pi, (r) => r.maxRssBytes)];
		say(`pi SessionManager.open: ${cell(piMs, ms)}, peak RSS ${cell(piRss, mb)}`);
	}
	const piCell = (series: Series, format: (v: number) => string) => (wants("pi") ? cell(series, format) : "—");

	if (wants("resume") || (biggest && wants("tree"))) {
		await resumeRuns(session, results, biggest && wants("tree"));
		const pick = (list: (OpenFigures | Error)[]) => [seriesOf(list, (r) => r.ms), seriesOf(list, (r) => r.rssBytes)];
		const [firstMs, firstRss] = pick(results.first) as [Series, Series];
		const [warmMs, warmRss] = pick(results.warm) as [Series, Series];
		say(`xcsh --resume, first open → last answer: ${cell(firstMs, ms)}, peak RSS ${cell(firstRss, mb)}`);
		say(`xcsh --resume, warm → last answer: ${cell(warmMs, ms)}, peak RSS ${cell(warmRss, mb)}`);
		const [fm, fw, fr, wm, wr] = [mid(firstMs), mid(floorWall), mid(firstRss), mid(warmMs), mid(warmRss)];
		const ratio = fm !== undefined && fw !== undefined ? ` = ${times(fm / fw)}` : "";
		const [size, floorMs, floorMb] = [session.label, `floor ${cell(floorWall, ms)}`, `floor ${cell(floorRss, mb)}`];
		const [piTime, piMb] = [piCell(piMs, ms), piCell(piRss, mb)];
		const firstCell = `${cell(firstMs, ms)}${ratio}`;
		const fwLimit = fw === undefined ? undefined : 1.2 * fw;
		rows.push(
			row("--resume first open (time)", size, firstCell, floorMs, "≤ 1.2× floor", within(fm, fwLimit), piTime),
			row(
				"--resume first open (peak RSS)",
				size,
				cell(firstRss, mb),
				floorMb,
				"≤ 250 MiB",
				within(fr, 250 * MIB),
				piMb,
			),
			row("--resume warm (time)", size, cell(warmMs, ms), floorMs, "≤ 1 s", within(wm, 1000), piTime),
			row("--resume warm (peak RSS)", size, cell(warmRss, mb), floorMb, "≤ 250 MiB", within(wr, 250 * MIB), piMb),
		);
	}
	if (biggest && wants("tree")) {
		const open = seriesOf(results.tree, (r) => r.openMs);
		const key = seriesOf(results.tree, (r) => median([...r.upMs, ...r.downMs]));
		const down = seriesOf(results.tree, (r) => median(r.downMs));
		say(
			`/tree + Enter → tree frame: ${cell(open, ms)}; arrow key → next frame: ${cell(key, ms)} (↓ only: ${cell(down, ms)})`,
		);
		rows.push(
			row("/tree open", session.label, cell(open, ms), "—", "≤ 100 ms", within(mid(open), 100)),
			row("/tree ↑/↓ key → frame", session.label, cell(key, ms), "—", "≤ 100 ms", within(mid(key), 100)),
		);
	}
	say();
	floors.set(session.label, { wall: floorWall, rss: floorRss });
}

async function measureExport(session: BigSession): Promise<void> {
	say(`## --export of the ${session.label} session`);
	const runs = await repeat(() => {
		const run = freshRunDir(session);
		try {
			return exportRun(run.sessionPath, run.agentDir, join(run.agentDir, "..", "out.html"), PROJECT);
		} finally {
			noteRestored(session);
			run.remove();
		}
	});
	const [wall, rss] = [seriesOf(runs, (r) => r.wallMs), seriesOf(runs, (r) => r.maxRssBytes)];
	const out = runs.find((r): r is ChildFigures => !(r instanceof Error));
	say(
		`xcsh --export: ${cell(wall, ms)}, peak RSS ${cell(rss, mb)}${out ? `, ${gb(Number(out.outBytes))} of HTML` : ""}`,
	);
	const measured = floors.get(session.label) ? [] : [floorRun(session)];
	const floor = floors.get(session.label) ?? {
		wall: seriesOf(measured, (r) => r.wallMs),
		rss: seriesOf(measured, (r) => r.maxRssBytes),
	};
	rows.push(
		row("--export (time)", session.label, cell(wall, ms), `floor ${cell(floor.wall, ms)}`, "—", undefined),
		row(
			"--export (peak RSS)",
			session.label,
			cell(rss, mb),
			`floor ${cell(floor.rss, mb)}`,
			"≤ 300 MiB",
			within(mid(rss), 300 * MIB),
		),
	);
	say();
}

/** bench/session-store-worker.ts's open-xcsh and open-floor, alternated, after one discarded warm-up pair. */
async function measureSmall(session: BigSession): Promise<void> {
	say(`## small: open of the ${session.entries.toLocaleString("en")}-entry session (${gb(session.bytes)}), in process`);
	const run = freshRunDir(session);
	const xcsh: (ChildFigures | Error)[] = [];
	const floor: (ChildFigures | Error)[] = [];
	try {
		for (let i = 0; i <= RUNS; i++) {
			const x = storeOpenRun("open-xcsh", session, run.agentDir);
			const f = storeOpenRun("open-floor", session, run.agentDir);
			if (i === 0 && !(x instanceof Error) && !(f instanceof Error)) continue;
			xcsh.push(x);
			floor.push(f);
			if (x instanceof Error || f instanceof Error) break;
		}
	} finally {
		noteRestored(session);
		run.remove();
	}
	const delta = (r: ChildFigures) => r.maxRssBytes - Number(r.rssBeforeBytes);
	const [xt, ft] = [seriesOf(xcsh, (r) => r.ms), seriesOf(floor, (r) => r.ms)];
	const [xr, fr] = [seriesOf(xcsh, delta), seriesOf(floor, delta)];
	say(
		`SessionManager.open: ${cell(xt, ms)}, RSS Δ ${cell(xr, mb)}; floor (readFile + split + JSON.parse): ${cell(ft, ms)}, RSS Δ ${cell(fr, mb)}`,
	);
	const ratio = (a: Series, b: Series) => {
		const [x, y] = [mid(a), mid(b)];
		return x !== undefined && y !== undefined ? x / y : undefined;
	};
	const [tr, rr] = [ratio(xt, ft), ratio(xr, fr)];
	const size = `${session.entries / 1000}k entries, ${(session.bytes / 1e6).toFixed(0)} MB`;
	const [timeCell, rssCell] = [
		`${cell(xt, ms)}${tr ? ` = ${times(tr)}` : ""}`,
		`${cell(xr, mb)}${rr ? ` = ${times(rr)}` : ""}`,
	];
	rows.push(
		row("small open (time)", size, timeCell, `floor ${cell(ft, ms)}`, "≤ 1.15× floor", within(tr, 1.15)),
		row("small open (RSS Δ)", size, rssCell, `floor ${cell(fr, mb)}`, "≤ 1.3× floor", within(rr, 1.3)),
	);
	say();
}

async function measurePicker(): Promise<void> {
	const manifest = await ensurePickerCorpus(PICKER_SESSIONS, log);
	const { agentDir, sessionsDir } = layout(manifest.root);
	say(
		`## picker: xcsh --resume over ${manifest.files.toLocaleString("en")} sessions (${gb(manifest.totalBytes)}), cwd with ${manifest.bigSessions}`,
	);
	const empty = join(ROOT, "empty-project");
	mkdirSync(empty, { recursive: true });
	const before = new Set((await measureSessions(sessionsDir)).files);
	const figures = await attempt(() => measurePickerSpawn(manifest.bigCwd, empty, agentDir, RUNS, TIMEOUT_MS));
	// A session a run created would change the corpus.
	for (const file of (await measureSessions(sessionsDir)).files) if (!before.has(file)) rmSync(file, { force: true });
	const series = (values: (f: PickerRuns) => number[]): Series =>
		figures instanceof Error ? { ok: false, reason: firstLine(figures) } : { ok: true, values: values(figures) };
	const [resume, plain] = [series((f) => f.resume), series((f) => f.plain)];
	if (!(figures instanceof Error)) log(`  warm-up (index build, not counted): ${ms(figures.warmUpMs)}`);
	say(
		`--resume spawn → first rows: ${cell(resume, ms)}; plain xcsh in an empty project → first frame: ${cell(plain, ms)}`,
	);
	const [rm, pm] = [mid(resume), mid(plain)];
	const extra = rm !== undefined && pm !== undefined ? ` (+${ms(rm - pm)})` : "";
	const size = `${manifest.files.toLocaleString("en")} sessions`;
	const baseline = `plain first frame ${cell(plain, ms)}`;
	const limit = pm === undefined ? undefined : pm + 100;
	rows.push(row(PICKER_ROW, size, `${cell(resume, ms)}${extra}`, baseline, PICKER_TARGET, within(rm, limit)));
	say();
}

async function main(): Promise<void> {
	say("# xcsh with big sessions (issue 15)");
	say(
		`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}; ${RUNS} fresh processes per figure; data in ${ROOT}`,
	);
	say();
	log("Sessions (generated once, then reused):");
	const bySize = ["floor", "pi", "resume", "tree", "export"].some(wants);
	const sessions = bySize ? SIZES.map((size) => ensureSession(size, log)) : [];
	for (const s of sessions)
		say(
			`- ${s.label}: ${gb(s.bytes)}, ${s.entries.toLocaleString("en")} entries, generated in ${s.generatedSeconds.toFixed(1)} s`,
		);
	say();
	const biggest = sessions.reduce<BigSession | undefined>((a, b) => (a && a.bytes >= b.bytes ? a : b), undefined);
	const perSize = ["floor", "pi", "resume", "tree"].some(wants);
	for (const session of perSize ? sessions : []) await measureSize(session, session === biggest);
	if (wants("export") && biggest) {
		const target = sessions.find((s) => s.label === "1GB") ?? biggest;
		await attempt(() => measureExport(target));
	}
	if (wants("small")) await attempt(async () => measureSmall(ensureSmallSession(log)));
	if (wants("picker")) {
		const done = await attempt(measurePicker);
		const size = `${PICKER_SESSIONS} sessions`;
		if (done instanceof Error) rows.push(row(PICKER_ROW, size, fails(firstLine(done)), "—", PICKER_TARGET, false));
	}
	say("## Summary");
	say();
	printTable(rows, say);
	say();
	say(`Medians of ${RUNS} fresh processes (min–max in brackets). Times from spawn; the floor is a plain node process`);
	say("streaming the file in 1 MiB chunks and JSON.parsing every line, timed spawn → exit; pi: its open, in process.");
	say("Peak RSS: VmHWM of the pty process once idle after the frame; maxRSS of the process for the floor, pi and");
	say("--export. Small: in-process open time and RSS Δ over the worker's own baseline (bench/session-store-worker.ts,");
	say("whose floor is readFile + split + JSON.parse). MiB = 2^20 bytes.");
	for (const note of notes) say(`Note: ${note}`);
}

try {
	await main();
} finally {
	rmSync(join(ROOT, "runs"), { recursive: true, force: true });
}
// A wait abandoned after its process exited may still hold a timer.
process.exit(0);
