/**
 * Session index at scale (issue 8): `npm run bench:index` (node --import tsx bench/index-scale.ts).
 *
 * With N sessions (default 10,000, ~3 GB, over ~50 projects; bench/index-scale-data.ts) measures
 * 1. the cold index build (`SessionIndex.open()` + `refresh()` with no index.db; median of 3), next to a raw read of
 *    every session byte and a read + JSON.parse of every line, page cache warm;
 * 2. `refresh()` after 10 sessions got a turn appended (restored afterwards), and with nothing changed;
 * 3. search latency, 1 and 3 words, this project and all projects, and finds a planted phrase (exit 1
 *    when it does not);
 * 4. the `/resume` picker's first paint in a real pty (needs `npm run build`; bench/index-scale-pty.ts).
 * Prints Markdown tables for the README. The data is kept under --root and reused while its
 * manifest matches. Flags (env): --sessions N (BENCH_SESSIONS), --root DIR (BENCH_ROOT), --runs N
 * (BENCH_RUNS, min 5), --regenerate, --no-pty.
 */

import { statSync } from "node:fs";
import { readFile, rm, truncate, utimes } from "node:fs/promises";
import { parseArgs } from "node:util";
import { deleteIndexDb, getIndexDbPath } from "../source/index/index-db.js";
import { type RefreshResult, SessionIndex } from "../source/index/session-index.js";
import { appendTurn, ensureData, layout, type Manifest, measureSessions } from "./index-scale-data.js";
import { measurePicker } from "./index-scale-pty.js";
import { gb, median, printReport, type QueryFigure, type SearchFigure } from "./index-scale-report.js";

const { values: flags } = parseArgs({
	options: {
		sessions: { type: "string", default: process.env.BENCH_SESSIONS ?? "10000" },
		root: { type: "string", default: process.env.BENCH_ROOT ?? "/tmp/xcsh-bench-index" },
		runs: { type: "string", default: process.env.BENCH_RUNS ?? "5" },
		regenerate: { type: "boolean", default: false },
		"no-pty": { type: "boolean", default: false },
	},
});
const SESSIONS = Math.max(60, Number.parseInt(flags.sessions, 10) || 10_000);
const RUNS = Math.max(5, Number.parseInt(flags.runs, 10) || 5);
const CHANGED = 10;
// Each cold build of the full set takes about half a minute.
const BUILD_RUNS = 3;
const ONE_WORD = ["session", "buffer", "render", "café", "schema", "worker", "zeppelin", "nonexistentword"];
const THREE_WORDS = [
	"parse schema type",
	"stream buffer handle",
	"async await promise",
	"cache request function",
	"loadSession config error",
	"periwinkle zeppelin marmalade",
	"quokka lighthouse tangerine",
];

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const failures: string[] = [];

async function timed<T>(run: () => Promise<T> | T): Promise<[number, T]> {
	const started = performance.now();
	const value = await run();
	return [performance.now() - started, value];
}

/** Baselines over the same bytes: readFile of every file, then read + split + JSON.parse of every line. */
async function baselines(files: readonly string[]): Promise<{ readMs: number; parseMs: number }> {
	for (const file of files) await readFile(file);
	const [readMs] = await timed(async () => {
		for (const file of files) await readFile(file);
	});
	const [parseMs] = await timed(async () => {
		for (const file of files) {
			const data = await readFile(file);
			for (let from = 0, nl = data.indexOf(10); nl >= 0; from = nl + 1, nl = data.indexOf(10, from)) {
				JSON.parse(data.toString("utf8", from, nl));
			}
		}
	});
	return { readMs, parseMs };
}

/** Appends a turn to `CHANGED` sessions spread over the projects and times `refresh()`, `RUNS` rounds. */
async function incremental(index: SessionIndex, files: readonly string[], manifest: Manifest): Promise<number[]> {
	const candidates = files.filter((file) => file !== manifest.planted.path);
	const step = Math.floor(candidates.length / CHANGED);
	const chosen = Array.from({ length: CHANGED }, (_, i) => candidates[i * step]!);
	const originals = chosen.map((file) => ({ file, ...statSync(file) }));
	const times: number[] = [];
	try {
		for (let round = 0; round < RUNS; round++) {
			for (const [i, file] of chosen.entries()) appendTurn(file, 1_000_000 + round * CHANGED + i);
			const [elapsed, result] = await timed(() => index.refresh());
			if (result.updated !== CHANGED || result.added + result.removed > 0) {
				failures.push(`incremental refresh round ${round} did ${JSON.stringify(result)}`);
			}
			times.push(elapsed);
		}
	} finally {
		// Put the data back as generated, so the manifest still matches on the next run.
		for (const { file, size, atime, mtime } of originals) {
			await truncate(file, size);
			await utimes(file, atime, mtime);
		}
	}
	await index.refresh();
	return times;
}

function searchFigures(index: SessionIndex, manifest: Manifest): { figures: SearchFigure[]; queries: QueryFigure[] } {
	const figures: SearchFigure[] = [];
	const perQuery = new Map<string, QueryFigure>();
	for (const [words, queries] of [
		["1 word", ONE_WORD],
		["3 words", THREE_WORDS],
	] as const) {
		for (const [scope, cwd] of [
			["project", manifest.bigCwd],
			["all", undefined],
		] as const) {
			const samples: number[] = [];
			for (const query of queries) {
				const times: number[] = [];
				let hits = 0;
				for (let run = 0; run < RUNS; run++) {
					const started = performance.now();
					hits = index.search(query, { cwd }).length;
					times.push(performance.now() - started);
				}
				samples.push(...times);
				const figure = perQuery.get(query) ?? { query, project: { hits: 0, ms: 0 }, all: { hits: 0, ms: 0 } };
				figure[scope] = { hits, ms: median(times) };
				perQuery.set(query, figure);
			}
			const label = `search, ${words}, ${scope === "project" ? "this project" : "all projects"}`;
			figures.push({ label, samples });
		}
	}
	return { figures, queries: [...perQuery.values()] };
}

/** The planted session (another project, a month older than the rest) must be found by its phrase. */
function checkPlanted(index: SessionIndex, manifest: Manifest): string {
	const { path, cwd, phrase } = manifest.planted;
	const found = (hits: ReturnType<SessionIndex["search"]>) =>
		hits.some((hit) => hit.sessionPath === path && hit.role === "user");
	const everywhere = index.search(phrase);
	const problems = [
		found(everywhere) ? "" : `planted phrase "${phrase}" not found in all projects`,
		found(index.search(phrase, { cwd })) ? "" : `planted phrase "${phrase}" not found in its project ${cwd}`,
		index.search(phrase, { cwd: manifest.bigCwd }).length === 0 ? "" : `planted phrase found in ${manifest.bigCwd}`,
	].filter((problem) => problem !== "");
	for (const problem of problems) log(`FAILED: ${problem}`);
	failures.push(...problems);
	const hit = everywhere.find((h) => h.sessionPath === path);
	return hit ? `found: ${hit.snippet}` : "NOT FOUND";
}

function describeRefresh(result: RefreshResult): string {
	return Object.entries(result)
		.map(([key, value]) => `${key} ${value}`)
		.join(", ");
}

async function main(): Promise<void> {
	const root = flags.root;
	const manifest = await ensureData(root, SESSIONS, flags.regenerate, log);
	const { agentDir, sessionsDir } = layout(root);
	process.env.XCSH_AGENT_DIR = agentDir;
	const { files, totalBytes } = await measureSessions(sessionsDir);
	const size = `${files.length.toLocaleString("en")} sessions, ${gb(totalBytes)}`;
	log(`${size} in ${manifest.projects} projects; ${manifest.bigSessions} in ${manifest.bigCwd}`);

	log("Baselines: raw read and read + JSON.parse of every session file (page cache warm) …");
	const base = await baselines(files);

	log(`Cold index build (median of ${BUILD_RUNS}) …`);
	const builds: number[] = [];
	let index: SessionIndex | undefined;
	let built: RefreshResult | undefined;
	for (let run = 0; run < BUILD_RUNS; run++) {
		index?.close();
		deleteIndexDb(getIndexDbPath());
		const [ms, [opened, result]] = await timed(async () => {
			const fresh = SessionIndex.open();
			return [fresh, await fresh.refresh()] as const;
		});
		[index, built] = [opened, result];
		builds.push(ms);
		log(`  run ${run + 1}/${BUILD_RUNS}: ${(ms / 1000).toFixed(1)} s (${describeRefresh(result)})`);
	}
	if (!index || !built) throw new Error("no cold build ran");
	const buildMs = median(builds);
	if (built.added !== files.length) failures.push(`cold build indexed ${describeRefresh(built)}`);
	const dbBytes =
		statSync(getIndexDbPath()).size + (statSync(`${getIndexDbPath()}-wal`, { throwIfNoEntry: false })?.size ?? 0);
	log(`  median ${(buildMs / 1000).toFixed(1)} s, index ${gb(dbBytes)}`);

	log("Refresh with nothing changed, then with 10 sessions changed …");
	const unchanged: number[] = [];
	for (let run = 0; run < RUNS; run++) unchanged.push((await timed(() => index.refresh()))[0]);
	const changed = await incremental(index, files, manifest);

	log("Search …");
	const planted = checkPlanted(index, manifest);
	const searches = searchFigures(index, manifest);
	index.close();

	let picker: Awaited<ReturnType<typeof measurePicker>> | undefined;
	if (!flags["no-pty"]) {
		log(`Picker in a pty, cwd ${manifest.bigCwd} …`);
		const before = new Set(files);
		try {
			picker = await measurePicker(manifest.bigCwd, agentDir, RUNS, log);
		} finally {
			// A session the CLI created would change the data set: it is not part of it.
			for (const file of (await measureSessions(sessionsDir)).files) {
				if (before.has(file)) continue;
				log(`  removing ${file}, created by a pty run`);
				await rm(file, { force: true });
			}
		}
	}

	printReport({
		size,
		totalBytes,
		dbBytes,
		buildMs,
		...base,
		changed,
		unchanged,
		changedSessions: CHANGED,
		runs: RUNS,
		searches: searches.figures,
		queries: searches.queries,
		picker,
		planted: `"${manifest.planted.phrase}" ${planted}`,
	});
	if (failures.length > 0) {
		for (const failure of failures) console.error(`FAILED: ${failure}`);
		process.exitCode = 1;
	}
}

await main();
