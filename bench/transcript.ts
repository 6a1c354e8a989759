/**
 * Transcript benchmark: keystroke → frame and PgUp → frame with 5,000 and 100,000 messages loaded,
 * and resize → frame with 4,000 entries, each next to the same measure on a 10-message session
 * (the baseline, in the same run). The built CLI runs in a real pty read through @xterm/headless;
 * a frame counts once the emulator shows it whole. Medians of several fresh processes.
 * Run: npm run build && npm run bench:transcript   (BENCH_RUNS=3 by default)
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PtyTerminal } from "../test/helpers/pty-terminal.js";
import { writeSessionFile } from "./generate-sessions.js";

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const KEYSTROKES = 20;
const PAGES = 10;
const RESIZES = 6;
const COLS = 120;
const ROWS = 40;
const MARKER = /↓ [\d,]+ more · End|↓ more than/;

function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The editor's top border drawn whole at this width: the frame after a resize is complete. */
function editorTop(cols: number): string {
	return `╭${"─".repeat(cols - 2)}╮`;
}

async function open(sessionFile: string, cwd: string, agentDir: string): Promise<PtyTerminal> {
	const term = new PtyTerminal({ args: ["--resume", sessionFile], cwd, agentDir, cols: COLS, rows: ROWS });
	await term.waitFor((s) => s.includes("Ask anything") && s.includes("offline model"), 600_000);
	return term;
}

async function keystrokes(term: PtyTerminal): Promise<number> {
	const times: number[] = [];
	let typed = "";
	for (let i = 0; i < KEYSTROKES; i++) {
		typed += String.fromCharCode(97 + (i % 26));
		const sentAt = performance.now();
		term.write(typed.at(-1) ?? "");
		await term.waitFor((screen) => screen.includes(`› ${typed}`), 10_000);
		times.push(performance.now() - sentAt);
	}
	// Clear the editor again (Ctrl+U) so End below means "back to the end".
	term.write("\x15");
	await term.waitFor("Ask anything");
	return median(times);
}

async function pages(term: PtyTerminal): Promise<number> {
	const times: number[] = [];
	for (let i = 0; i < PAGES; i++) {
		// At the first page PgUp has nowhere to go: start again from the end (not measured).
		if (/^╭─+╮$/.test(term.screen().split("\n")[0] ?? "")) {
			term.write("\x1b[F");
			await term.waitFor((screen) => !MARKER.test(screen));
		}
		const before = term.screen();
		const sentAt = performance.now();
		term.write("\x1b[5~");
		await term.waitFor((screen) => screen !== before && MARKER.test(screen), 10_000);
		times.push(performance.now() - sentAt);
	}
	term.write("\x1b[F");
	await term.waitFor((screen) => !MARKER.test(screen));
	return median(times);
}

async function resizes(term: PtyTerminal): Promise<number> {
	const times: number[] = [];
	for (let i = 0; i < RESIZES; i++) {
		const cols = i % 2 === 0 ? COLS - 20 : COLS;
		const sentAt = performance.now();
		term.resize(cols, ROWS);
		await term.waitFor((screen) => screen.split("\n").includes(editorTop(cols)) && screen.includes("offline model"));
		times.push(performance.now() - sentAt);
	}
	return median(times);
}

interface Figures {
	keystroke: number;
	page: number;
	resize: number;
}

async function measure(sessionFile: string, cwd: string, agentDir: string): Promise<Figures> {
	const runs: Figures[] = [];
	for (let i = 0; i < RUNS; i++) {
		const term = await open(sessionFile, cwd, agentDir);
		try {
			runs.push({ keystroke: await keystrokes(term), page: await pages(term), resize: await resizes(term) });
		} finally {
			await term.stop();
		}
	}
	return {
		keystroke: median(runs.map((r) => r.keystroke)),
		page: median(runs.map((r) => r.page)),
		resize: median(runs.map((r) => r.resize)),
	};
}

async function main(): Promise<void> {
	const root = mkdtempSync(join(tmpdir(), "xcsh-bench-transcript-"));
	try {
		const agentDir = join(root, "agent");
		const cwd = join(root, "project");
		mkdirSync(agentDir, { recursive: true, mode: 0o700 });
		mkdirSync(cwd, { recursive: true });
		// Linear paths without compactions: every message is on the active path, so in the transcript.
		const sizes = [
			{ name: "10 messages (baseline)", entries: 10 },
			{ name: "4,000 entries", entries: 4_000 },
			{ name: "5,000 messages", entries: 5_000 },
			{ name: "100,000 messages", entries: 100_000 },
		];
		const results = new Map<string, Figures>();
		// BENCH_ONLY=10,5000 measures only those sizes (for a quick look; the README figures use all).
		const only = process.env.BENCH_ONLY?.split(",").map(Number);
		for (const size of sizes.filter((s) => !only || only.includes(s.entries))) {
			const file = join(root, `s${size.entries}.jsonl`);
			const written = writeSessionFile(file, {
				entries: size.entries,
				agentDir,
				cwd,
				maxToolResultChars: 1_000,
				blobRefs: false,
				branches: false,
				compactions: false,
			});
			process.stderr.write(`${size.name}: ${written.pathDepth} entries on the path, ${written.bytes} bytes\n`);
			results.set(size.name, await measure(file, cwd, agentDir));
			process.stderr.write(`measured ${size.name}\n`);
		}
		const base = results.get("10 messages (baseline)");
		const cell = (value: number | undefined) => (value === undefined ? "—" : `${value.toFixed(1)} ms`);
		console.log("| measure | session | xcsh median | baseline (10 messages) | target | result |");
		console.log("|---|---|--:|--:|---|---|");
		const row = (measureName: string, session: string, key: keyof Figures, target: number) => {
			const value = results.get(session)?.[key];
			const pass = value !== undefined && value <= target;
			console.log(
				`| ${measureName} | ${session} | ${cell(value)} | ${cell(base?.[key])} | ≤ ${target} ms | ${pass ? "pass" : "FAIL"} |`,
			);
		};
		row("keystroke → frame", "5,000 messages", "keystroke", 30);
		row("keystroke → frame", "100,000 messages", "keystroke", 30);
		row("PgUp → frame", "5,000 messages", "page", 30);
		row("PgUp → frame", "100,000 messages", "page", 30);
		row("resize → frame", "4,000 entries", "resize", 100);
		console.log(
			`\n${RUNS} fresh processes per session at ${COLS}×${ROWS}; per process the median of ${KEYSTROKES} keystrokes, ${PAGES} PgUps, ${RESIZES} resizes (${COLS - 20} ↔ ${COLS} columns).`,
		);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

await main();
