// bench:import — import time of 300 generated Claude Code and Codex sessions next to the floor of
// the same bytes measured in the same run: reading each file and JSON.parse of each line, as the
// importers read them. The first import is the built CLI (`xcsh import <corpus>`, process start
// included), on one thread and with its default worker threads (the main thread builds too while
// it waits for them), and `importPaths` in this process on one thread (no process start: like for
// like with the floor); the import again with nothing new is the CLI's, into the agent dir its
// first import wrote. Medians of BENCH_RUNS (default 3) runs, each into a fresh agent dir.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { defaultThreads } from "../source/import/import-pool.js";
import { importPaths } from "../source/import/import-run.js";

const root = mkdtempSync(join(tmpdir(), "xcsh-bench-import-"));
/** BENCH_IMPORT_CORPUS=<dir>: only write the corpus there (to profile an import of it), then stop. */
const keep = process.env.BENCH_IMPORT_CORPUS;
const corpus = keep ?? join(root, "corpus");
mkdirSync(corpus, { recursive: true });

function rng(seed: number): () => number {
	let s = seed;
	return () => {
		s = (s * 1103515245 + 12345) & 0x7fffffff;
		return s / 0x7fffffff;
	};
}
const rand = rng(7);
const words = (n: number) =>
	Array.from({ length: n }, () => "lorem ipsum dolor sit amet"[Math.floor(rand() * 20)] ?? "x")
		.join("")
		.replace(/(.{60})/g, "$1\n");

function claudeSession(i: number, turns: number): string {
	const lines: string[] = [];
	let parent: string | null = null;
	const base = {
		sessionId: `s-${i}`,
		cwd: `/work/p${i % 7}`,
		isSidechain: false,
		version: "2.1.38",
		userType: "external",
	};
	for (let t = 0; t < turns; t++) {
		const time = new Date(1_760_000_000_000 + i * 1e7 + t * 1000).toISOString();
		const u = `u-${i}-${t}`;
		lines.push(
			JSON.stringify({
				...base,
				type: "user",
				uuid: u,
				parentUuid: parent,
				timestamp: time,
				message: { role: "user", content: words(80) },
			}),
		);
		const a = `a-${i}-${t}`;
		const msg = {
			id: `msg-${i}-${t}`,
			role: "assistant",
			model: "claude-opus-4-6",
			usage: { input_tokens: 10, output_tokens: 5 },
		};
		lines.push(
			JSON.stringify({
				...base,
				type: "assistant",
				uuid: a,
				parentUuid: u,
				timestamp: time,
				message: { ...msg, content: [{ type: "thinking", thinking: words(200), signature: "sig" }] },
			}),
		);
		const c = `c-${i}-${t}`;
		lines.push(
			JSON.stringify({
				...base,
				type: "assistant",
				uuid: c,
				parentUuid: a,
				timestamp: time,
				message: {
					...msg,
					content: [{ type: "tool_use", id: `t-${i}-${t}`, name: "Read", input: { file_path: "/a.ts" } }],
				},
			}),
		);
		const r = `r-${i}-${t}`;
		lines.push(
			JSON.stringify({
				...base,
				type: "user",
				uuid: r,
				parentUuid: c,
				timestamp: time,
				message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t-${i}-${t}`, content: words(1500) }] },
			}),
		);
		lines.push(
			JSON.stringify({
				...base,
				type: "progress",
				uuid: `p-${i}-${t}`,
				parentUuid: r,
				timestamp: time,
				data: { type: "hook_progress" },
			}),
		);
		parent = `p-${i}-${t}`;
	}
	return `${lines.join("\n")}\n`;
}

function codexSession(i: number, turns: number): string {
	const time = (t: number) => new Date(1_760_000_000_000 + i * 1e7 + t * 1000).toISOString();
	const lines = [
		JSON.stringify({
			timestamp: time(0),
			type: "session_meta",
			payload: { id: `c-${i}`, cwd: `/work/c${i % 5}`, timestamp: time(0), model_provider: "openai" },
		}),
	];
	for (let t = 0; t < turns; t++) {
		const rec = (type: string, payload: unknown) => JSON.stringify({ timestamp: time(t), type, payload });
		lines.push(rec("turn_context", { model: "gpt-5.1-codex", cwd: `/work/c${i % 5}` }));
		lines.push(
			rec("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: words(80) }] }),
		);
		lines.push(
			rec("response_item", {
				type: "reasoning",
				summary: [{ type: "summary_text", text: words(100) }],
				encrypted_content: "e".repeat(400),
			}),
		);
		lines.push(
			rec("response_item", {
				type: "function_call",
				name: "shell",
				arguments: JSON.stringify({ command: ["ls"] }),
				call_id: `k-${i}-${t}`,
			}),
		);
		lines.push(
			rec("response_item", {
				type: "function_call_output",
				call_id: `k-${i}-${t}`,
				output: JSON.stringify({ output: words(1500), metadata: { exit_code: 0 } }),
			}),
		);
		lines.push(rec("event_msg", { type: "token_count", info: { total: t } }));
	}
	return `${lines.join("\n")}\n`;
}

/*
 * A realistic mix, as in a real ~/.claude/projects or ~/.codex/sessions: most sessions are a few
 * turns (tens of KB), some are long, a few run for hours (multi-MB). Per 100 sessions: 55 of 2–10
 * turns, 30 of 15–60, 12 of 100–300, 3 of 800–2000. Fixed, so every run reads the same bytes.
 */
function turnsOf(i: number): number {
	const slot = i % 100;
	if (slot < 55) return 2 + (i % 9);
	if (slot < 85) return 15 + ((i * 7) % 46);
	if (slot < 97) return 100 + ((i * 13) % 201);
	return 800 + ((i * 37) % 1201);
}
let bytes = 0;
const COUNT = 300;
const sizes: number[] = [];
for (let i = 0; i < COUNT; i++) {
	const turns = turnsOf(i);
	const text = i % 2 === 0 ? claudeSession(i, turns) : codexSession(i, turns);
	sizes.push(Buffer.byteLength(text));
	bytes += Buffer.byteLength(text);
	writeFileSync(join(corpus, `${String(i).padStart(4, "0")}.jsonl`), text);
}
if (keep) {
	rmSync(root, { recursive: true, force: true });
	console.log(`corpus written to ${keep}`);
	process.exit(0);
}
sizes.sort((a, b) => a - b);
const mb = bytes / 1024 / 1024;

/** CPU time of this process so far (ms, every thread): less at the mercy of other work on the machine than the wall clock. */
function cpuMs(): number {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
}
const floorCpu: number[] = [];
const inProcessCpu: number[] = [];

function floor(): number {
	const start = performance.now();
	const cpu = cpuMs();
	for (let i = 0; i < COUNT; i++) {
		const text = readFileSync(join(corpus, `${String(i).padStart(4, "0")}.jsonl`), "utf8");
		for (const line of text.split("\n")) if (line) JSON.parse(line);
	}
	floorCpu.push(cpuMs() - cpu);
	return performance.now() - start;
}

const cli = join(import.meta.dirname, "..", "bin", "xcsh.js");

/**
 * One `xcsh import` of the corpus by the built CLI into agent dir `run` (fresh unless it was
 * imported into before): its wall time (ms), process start included. Every session must come out
 * `expected`.
 */
async function importOnce(run: string, threads: string | undefined, expected = "imported"): Promise<number> {
	const env: NodeJS.ProcessEnv = { ...process.env, XCSH_AGENT_DIR: join(root, `agent-${run}`) };
	if (threads === undefined) delete env.XCSH_IMPORT_THREADS;
	else env.XCSH_IMPORT_THREADS = threads;
	const start = performance.now();
	const child = spawn(process.execPath, [cli, "import", corpus, "--json"], {
		env,
		stdio: ["ignore", "pipe", "inherit"],
	});
	let out = "";
	child.stdout.on("data", (chunk: Buffer) => {
		out += chunk;
	});
	const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
	const ms = performance.now() - start;
	const results = JSON.parse(out) as { status: string }[];
	const bad = results.filter((r) => r.status !== expected);
	if (code !== 0 || bad.length > 0 || results.length !== COUNT)
		throw new Error(`exit ${code}, ${bad.length} not ${expected}: ${JSON.stringify(bad[0])}`);
	return ms;
}

/** `xcsh import` of an empty folder: the process start and what the import loads, nothing imported. */
async function startOnce(run: string): Promise<number> {
	const empty = join(root, `empty-${run}`);
	mkdirSync(empty);
	const env: NodeJS.ProcessEnv = { ...process.env, XCSH_AGENT_DIR: join(root, `agent-s-${run}`) };
	const start = performance.now();
	const child = spawn(process.execPath, [cli, "import", empty, "--json"], {
		env,
		stdio: ["ignore", "ignore", "inherit"],
	});
	const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
	if (code !== 0) throw new Error(`an import of an empty folder exited ${code}`);
	return performance.now() - start;
}

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
/** The same import in this process, one thread: no process start, so it compares with the floor like for like. */
async function importInProcess(run: string): Promise<number> {
	const previous = process.env.XCSH_AGENT_DIR;
	process.env.XCSH_AGENT_DIR = join(root, `agent-p-${run}`);
	try {
		const start = performance.now();
		const cpu = cpuMs();
		const results = await importPaths([corpus], {
			from: "auto",
			dryRun: false,
			cwd: root,
			cwdGiven: false,
			threads: 0,
		});
		const ms = performance.now() - start;
		inProcessCpu.push(cpuMs() - cpu);
		const bad = results.filter((r) => r.status !== "imported");
		if (bad.length > 0 || results.length !== COUNT)
			throw new Error(`${bad.length} not imported: ${JSON.stringify(bad[0])}`);
		return ms;
	} finally {
		if (previous === undefined) delete process.env.XCSH_AGENT_DIR;
		else process.env.XCSH_AGENT_DIR = previous;
	}
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floors: number[] = [];
const single: number[] = [];
const threaded: number[] = [];
const again: number[] = [];
const inProcess: number[] = [];
const starts: number[] = [];
for (let run = 0; run < RUNS; run++) {
	starts.push(await startOnce(String(run)));
	floors.push(floor());
	inProcess.push(await importInProcess(String(run)));
	single.push(await importOnce(`1-${run}`, "0"));
	threaded.push(await importOnce(`n-${run}`, undefined));
	again.push(await importOnce(`n-${run}`, undefined, "unchanged"));
}
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const floorMs = median(floors);
console.log(
	`corpus: ${COUNT} sessions (Claude Code and Codex, 2–2000 turns), ${mb.toFixed(1)} MB: median ${kb(sizes[COUNT >> 1]!)}, ` +
		`${sizes.filter((n) => n < 100 * 1024).length} under 100 KB, ${sizes.filter((n) => n > 1024 * 1024).length} over 1 MB, largest ${(sizes[COUNT - 1]! / 1024 / 1024).toFixed(1)} MB`,
);
console.log(
	`read + JSON.parse floor:             ${floorMs.toFixed(0)} ms (${(mb / (floorMs / 1000)).toFixed(0)} MB/s; median of ${RUNS})`,
);
for (const [name, ms] of [
	["first import, in process, 1 thread:", inProcess],
	["first import, xcsh, one thread:", single],
	[`first import, xcsh, ${defaultThreads()} worker(s) + main:`, threaded],
] as const)
	console.log(
		`${name.padEnd(41)} ${median(ms).toFixed(0)} ms (median of ${RUNS}) = ${(median(ms) / floorMs).toFixed(2)}× the floor (target ≤ 3×)`,
	);
console.log(
	`${"again with nothing new, xcsh:".padEnd(41)} ${median(again).toFixed(0)} ms (median of ${RUNS}) = ${(median(again) / median(threaded)).toFixed(3)}× its first import (target ≤ 0.1×), ${(median(again) / floorMs).toFixed(2)}× the floor`,
);
console.log(
	`CPU time, in process, one thread: ${median(inProcessCpu).toFixed(0)} ms against the floor's ${median(floorCpu).toFixed(0)} ms = ${(median(inProcessCpu) / median(floorCpu)).toFixed(2)}× (medians of ${RUNS})`,
);
console.log(
	`process start (an empty import): ${median(starts).toFixed(0)} ms (median of ${RUNS}) = ${(median(starts) / floorMs).toFixed(2)}× the floor's time`,
);
console.log(
	`machine: ${availableParallelism()} core(s), load average ${loadavg()
		.map((n) => n.toFixed(1))
		.join(" ")}`,
);
rmSync(root, { recursive: true, force: true });
