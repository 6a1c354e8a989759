// bench:import-big — peak RSS and time of `xcsh import` of one big Claude Code and one big Codex
// file (100 MB and 1 GB, made of a real fixture's lines: bench/import-big-data.ts), next to the
// floor measured in the same run: a fresh process that reads the same file in chunks and
// JSON.parses every line (what any import must do). Every figure is the median of BENCH_RUNS
// (default 3) fresh child processes, each import into a fresh agent dir.
// BENCH_BIG_SIZES=100,1024 sets the sizes in MB; BENCH_BIG_TOOLS=claude-code,codex the tools.

import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BigTool, writeBigSource } from "./import-big-data.js";

const root = mkdtempSync(join(process.env.BENCH_BIG_DIR ?? tmpdir(), "xcsh-bench-import-big-"));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
const SIZES = (process.env.BENCH_BIG_SIZES ?? "100,1024").split(",").map(Number);
const TOOLS = (process.env.BENCH_BIG_TOOLS ?? "claude-code,codex").split(",") as BigTool[];
const cli = resolve(import.meta.dirname, "..", "bin", "xcsh.js");
const HOOK = resolve(import.meta.dirname, "..", "test", "helpers", "peak-rss-hook.mjs");

/** The floor: read the file in 1 MB chunks, cut it into lines, JSON.parse each (no line kept). */
const FLOOR = `
import { openSync, readSync } from "node:fs";
const fd = openSync(process.argv[2], "r");
const chunk = Buffer.allocUnsafe(1 << 20);
let rest = Buffer.alloc(0);
let lines = 0;
for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) {
	const data = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, n)]) : chunk.subarray(0, n);
	let start = 0;
	for (let end = data.indexOf(10, start); end >= 0; end = data.indexOf(10, start)) {
		if (end > start) { JSON.parse(data.toString("utf8", start, end)); lines++; }
		start = end + 1;
	}
	rest = Buffer.from(data.subarray(start));
}
if (rest.length > 0) JSON.parse(rest.toString("utf8"));
`;
const floorScript = join(root, "floor.mjs");
writeFileSync(floorScript, FLOOR);

interface Run {
	ms: number;
	rssMb: number;
}

/** Runs `node <args>` in a fresh process: its wall time and peak RSS. */
function measure(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
	const rssFile = join(root, `rss-${process.hrtime.bigint()}`);
	return new Promise((done, fail) => {
		const start = performance.now();
		const child = spawn(process.execPath, ["--import", HOOK, ...args], {
			env: { ...process.env, ...env, XCSH_TEST_PEAK_RSS_FILE: rssFile },
			stdio: ["ignore", "pipe", "inherit"],
		});
		let out = "";
		child.stdout.on("data", (chunk: Buffer) => {
			out += chunk;
		});
		child.on("error", fail);
		child.on("close", (code) => {
			const ms = performance.now() - start;
			if (code !== 0) return fail(new Error(`${args.join(" ")} exited ${code}: ${out.slice(0, 400)}`));
			import("node:fs").then(({ readFileSync }) => {
				const rssMb = Number(readFileSync(rssFile, "utf8")) / 1024 / 1024;
				rmSync(rssFile, { force: true });
				done({ ms, rssMb });
			}, fail);
		});
	});
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`one big file, medians of ${RUNS} fresh processes each (target: peak RSS ≤ 250 MB, time ≤ 2× the floor)`);
for (const mb of SIZES) {
	for (const tool of TOOLS) {
		const source = join(root, `${tool}-${mb}mb.jsonl`);
		const size = writeBigSource(tool, source, mb * 1024 * 1024);
		const floors: Run[] = [];
		const imports: Run[] = [];
		for (let run = 0; run < RUNS; run++) {
			floors.push(await measure([floorScript, source], {}));
			const agent = join(root, `agent-${tool}-${mb}-${run}`);
			imports.push(await measure([cli, "import", source, "--json"], { XCSH_AGENT_DIR: agent }));
			const sessions = join(agent, "sessions");
			const written = readdirSync(sessions, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
			if (written.length !== 1) throw new Error(`${tool} ${mb} MB: ${written.length} sessions written`);
			if (run === 0) {
				const file = join(written[0]!.parentPath, written[0]!.name);
				console.log(`  (${tool} ${mb} MB: session written ${(statSync(file).size / 1024 / 1024).toFixed(0)} MB)`);
			}
			rmSync(agent, { recursive: true, force: true });
		}
		const floorMs = median(floors.map((r) => r.ms));
		const importMs = median(imports.map((r) => r.ms));
		console.log(
			`${tool.padEnd(11)} ${(size / 1024 / 1024).toFixed(0).padStart(5)} MB: import ${(importMs / 1000).toFixed(2)} s, ` +
				`peak RSS ${median(imports.map((r) => r.rssMb)).toFixed(0)} MB; floor ${(floorMs / 1000).toFixed(2)} s, ` +
				`peak RSS ${median(floors.map((r) => r.rssMb)).toFixed(0)} MB; time ${(importMs / floorMs).toFixed(2)}× the floor`,
		);
		rmSync(source, { force: true });
	}
}
console.log(
	`machine: ${availableParallelism()} core(s), load average ${loadavg()
		.map((n) => n.toFixed(1))
		.join(" ")}`,
);
rmSync(root, { recursive: true, force: true });
