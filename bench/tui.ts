/**
 * TUI benchmark: first frame of `xcsh` in a real pty (spawn → boot frame, spawn → welcome with the
 * editor ready), and keystroke-to-frame latency with a 5,000-message session loaded. Medians of
 * several fresh processes; a bare `node -e ''` spawn in the same pty is the floor.
 * Run: node --import tsx bench/tui.ts  (builds nothing: run `npm run build` first)
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as pty from "node-pty";
import { PtyTerminal } from "../test/helpers/pty-terminal.js";
import { writeSessionFile } from "./generate-sessions.js";

const BIN = resolve(import.meta.dirname, "../bin/xcsh.js");
const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 7));
const KEYSTROKES = 30;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function spawn(args: string[], cwd: string, agentDir: string): pty.IPty {
	const env: Record<string, string> = {};
	for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
	delete env.CI;
	Object.assign(env, { XCSH_AGENT_DIR: agentDir, TERM: "xterm-256color", ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" });
	return pty.spawn(process.execPath, args, { name: "xterm-256color", cols: 120, rows: 40, cwd, env });
}

/** ms from spawn until the output contains each marker (in order of appearance). */
function timeToMarkers(args: string[], cwd: string, agentDir: string, markers: string[]): Promise<number[]> {
	return new Promise((resolvePromise, reject) => {
		const started = performance.now();
		const child = spawn(args, cwd, agentDir);
		const times: number[] = [];
		let out = "";
		const timer = setTimeout(() => {
			child.kill();
			reject(new Error(`timeout waiting for ${markers[times.length]}; got ${JSON.stringify(out.slice(-400))}`));
		}, 20_000);
		child.onData((data) => {
			out += data;
			while (times.length < markers.length && out.includes(markers[times.length]!))
				times.push(performance.now() - started);
			if (times.length === markers.length) {
				clearTimeout(timer);
				child.kill();
				resolvePromise(times);
			}
		});
	});
}

/** Opens a session and measures each keystroke until the typed text is on the (emulated) screen. */
async function keystrokeLatencies(sessionFile: string, cwd: string, agentDir: string): Promise<number[]> {
	const term = new PtyTerminal({ args: ["--resume", sessionFile], cwd, agentDir, cols: 120, rows: 40 });
	try {
		await term.waitFor("Ask anything", 30_000);
		const latencies: number[] = [];
		let typed = "";
		for (let i = 0; i < KEYSTROKES; i++) {
			const char = String.fromCharCode(97 + (i % 26));
			typed += char;
			const sentAt = performance.now();
			term.write(char);
			await term.waitFor((screen) => screen.includes(`› ${typed}`), 5000);
			latencies.push(performance.now() - sentAt);
		}
		return latencies;
	} finally {
		term.kill();
	}
}

async function main(): Promise<void> {
	const root = mkdtempSync(join(tmpdir(), "xcsh-bench-tui-"));
	try {
		const agentDir = join(root, "agent");
		const cwd = join(root, "project");
		mkdirSync(cwd, { recursive: true });
		const floor: number[] = [];
		const boot: number[] = [];
		const welcome: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			floor.push((await timeToMarkers(["-e", "process.stdout.write('ready')"], cwd, agentDir, ["ready"]))[0]!);
			const [b, w] = await timeToMarkers([BIN], cwd, agentDir, ["starting", "Type a prompt"]);
			boot.push(b!);
			welcome.push(w!);
		}
		const sessionFile = join(root, "big.jsonl");
		writeSessionFile(sessionFile, { entries: 5000, agentDir, cwd, maxToolResultChars: 4000 });
		const keys: number[] = [];
		for (let i = 0; i < Math.min(RUNS, 3); i++) keys.push(median(await keystrokeLatencies(sessionFile, cwd, agentDir)));
		const row = (name: string, value: number, target: string, pass: boolean) =>
			`| ${name} | ${value.toFixed(0)} ms | ${median(floor).toFixed(0)} ms | ${target} | ${pass ? "pass" : "FAIL"} |`;
		console.log("| measure | xcsh median | floor (node -e) | target | result |");
		console.log("|---|--:|--:|---|---|");
		console.log(row("first frame (boot screen)", median(boot), "≤ 350 ms", median(boot) <= 350));
		console.log(row("welcome with editor ready (LLM layer loaded)", median(welcome), "—", true));
		console.log(
			`| keystroke → frame, 5,000-message session | ${median(keys).toFixed(1)} ms | — | ≤ 30 ms | ${median(keys) <= 30 ? "pass" : "FAIL"} |`,
		);
		console.log(
			`\nMedians of ${RUNS} fresh processes (keystrokes: median of ${KEYSTROKES} per process, ${keys.length} processes).`,
		);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

await main();
