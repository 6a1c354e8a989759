/**
 * The pty figures of bench/big-sessions.ts: the built CLI (bin/xcsh.js) in a real pty read through
 * @xterm/headless (test/helpers/pty-terminal.ts). `xcsh --resume <file>` → the frame showing the last
 * answer, `/tree` → the tree frame, arrow key → the next tree frame, and `xcsh --resume` → picker rows
 * next to plain `xcsh` → first frame. Peak RSS is the pty child's VmHWM, read from /proc once the
 * process has gone idle after the frame (so work it defers past the first frame is counted too).
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { KEYS } from "../test/helpers/keys.js";
import { PtyTerminal } from "../test/helpers/pty-terminal.js";
import { hasSessionRows } from "./index-scale-pty.js";

const BIN = resolve(import.meta.dirname, "../bin/xcsh.js");
const COLS = 120;
const ROWS = 40;
const TREE_KEYS = 10;
const BLANK = "(blank screen)";

/** A CLI started in a pty and shown ready. */
export interface Opened {
	term: PtyTerminal;
	pid: number;
	/** Spawn → the ready frame. */
	ms: number;
}

/**
 * The pid of the CLI this process spawned in a pty (node-pty forks it directly, no shell between).
 * Retried for a while: right after the fork the child still shows this process's command line.
 */
async function findChildPid(): Promise<number> {
	for (let attempt = 0; attempt < 200; attempt++) {
		const pid = childRunningBin();
		if (pid !== undefined) return pid;
		await new Promise((resolvePromise) => setTimeout(resolvePromise, 10));
	}
	throw new Error("the xcsh process of the pty was not found in /proc");
}

function childRunningBin(): number | undefined {
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, "utf8");
			const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
			if (ppid !== process.pid) continue;
			if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(BIN)) return Number(name);
		} catch {
			// gone meanwhile
		}
	}
	return undefined;
}

/** The kernel's high-water mark of the process's resident set (VmHWM), in bytes. */
export function peakRss(pid: number): number {
	const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
	if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
	return Number(match[1]) * 1024;
}

function cpuTicks(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	// utime and stime: fields 14 and 15 of stat, 12 and 13 after "pid (comm) ".
	return Number(fields[11]) + Number(fields[12]);
}

/** Waits until the process uses under 10% of a core over half a second (at most `limitMs`); returns the wait. */
export async function settle(pid: number, limitMs = 30_000): Promise<number> {
	const started = performance.now();
	let before = cpuTicks(pid);
	while (performance.now() - started < limitMs) {
		await new Promise((resolvePromise) => setTimeout(resolvePromise, 500));
		const now = cpuTicks(pid);
		if (now - before <= 5) break;
		before = now;
	}
	return performance.now() - started;
}

/** The line of a screen most likely to say why the program stopped. */
export function reasonOf(screen: string): string {
	const lines = screen
		.split("\n")
		.map((line) => line.trim())
		.filter((line) => line !== "");
	return lines.find((line) => /error|cannot|fail|xcsh:/i.test(line)) ?? lines.at(-1) ?? BLANK;
}

/** Spawns the CLI and waits for `ready`; throws with the screen's reason when it exits or times out first. */
export async function spawnUntil(
	args: readonly string[],
	cwd: string,
	agentDir: string,
	ready: (screen: string) => boolean,
	timeoutMs: number,
): Promise<Opened> {
	const startedAt = performance.now();
	const term = new PtyTerminal({ args, cwd, agentDir, cols: COLS, rows: ROWS });
	let pid = 0;
	try {
		pid = await findChildPid();
		const exited = term.exited().then((code) => {
			const reason = reasonOf(term.screen());
			throw new Error(reason === BLANK ? `exited with ${code} before drawing anything` : reason);
		});
		const shown = term.waitFor(ready, timeoutMs).catch(() => {
			throw new Error(`no ready frame in ${Math.round(timeoutMs / 1000)} s: ${reasonOf(term.screen())}`);
		});
		await Promise.race([shown, exited]);
		exited.catch(() => undefined);
		return { term, pid, ms: performance.now() - startedAt };
	} catch (error) {
		await term.stop();
		throw error;
	}
}

/** `xcsh --resume <file>` until the last answer (its `marker`) is on screen, then the settled peak RSS. */
export async function resumeToLastAnswer(
	sessionPath: string,
	cwd: string,
	agentDir: string,
	marker: string,
	timeoutMs: number,
): Promise<Opened & { rssBytes: number; settleMs: number }> {
	const opened = await spawnUntil(["--resume", sessionPath], cwd, agentDir, (s) => s.includes(marker), timeoutMs);
	try {
		const settleMs = await settle(opened.pid);
		return { ...opened, rssBytes: peakRss(opened.pid), settleMs };
	} catch (error) {
		await opened.term.stop();
		throw error;
	}
}

/** The tree screen drawn whole: title, a selected row, the key help at the bottom. */
function isTreeFrame(screen: string): boolean {
	return screen.includes("Session tree") && /^❯ /m.test(screen) && screen.includes("Esc close");
}

/** Tree figures of one process: `/tree` + Enter → tree frame, and every arrow key → next frame. */
export interface TreeFigures {
	openMs: number;
	upMs: number[];
	downMs: number[];
	rssBytes: number;
}

/** Opens `/tree` in a running CLI, then moves the selection up TREE_KEYS rows and down again. */
export async function measureTree(opened: Opened, timeoutMs: number): Promise<TreeFigures> {
	const { term } = opened;
	await term.type("/tree");
	const sentAt = performance.now();
	term.write(KEYS.enter);
	await term.waitFor(isTreeFrame, timeoutMs);
	const openMs = performance.now() - sentAt;
	const key = async (sequence: string): Promise<number> => {
		const before = term.screen();
		const at = performance.now();
		term.write(sequence);
		await term.waitFor((screen) => screen !== before && isTreeFrame(screen), timeoutMs);
		return performance.now() - at;
	};
	// The tree opens on the leaf, the last row: ↑ first, so that ↓ has rows to go back to.
	const upMs: number[] = [];
	for (let i = 0; i < TREE_KEYS; i++) upMs.push(await key(KEYS.up));
	const downMs: number[] = [];
	for (let i = 0; i < TREE_KEYS; i++) downMs.push(await key(KEYS.down));
	return { openMs, upMs, downMs, rssBytes: peakRss(opened.pid) };
}

/** Spawn → ready, then stop: one figure. */
async function spawnOnce(
	args: string[],
	cwd: string,
	agentDir: string,
	ready: (s: string) => boolean,
	timeoutMs: number,
) {
	const opened = await spawnUntil(args, cwd, agentDir, ready, timeoutMs);
	await opened.term.stop();
	return opened.ms;
}

/** Picker figures: `xcsh --resume` spawn → first session rows, plain `xcsh` in an empty project → first frame. */
export interface PickerRuns {
	resume: number[];
	plain: number[];
	warmUpMs: number;
}

/** Interleaved, so a slow moment of the machine hits both alike; one untimed warm-up builds the index. */
export async function measurePickerSpawn(
	cwd: string,
	emptyProject: string,
	agentDir: string,
	runs: number,
	timeoutMs: number,
): Promise<PickerRuns> {
	const figures: PickerRuns = { resume: [], plain: [], warmUpMs: 0 };
	figures.warmUpMs = await spawnOnce(["--resume"], cwd, agentDir, hasSessionRows, timeoutMs);
	for (let run = 0; run < runs; run++) {
		figures.plain.push(await spawnOnce([], emptyProject, agentDir, (s) => s.trim().length > 0, timeoutMs));
		figures.resume.push(await spawnOnce(["--resume"], cwd, agentDir, hasSessionRows, timeoutMs));
	}
	return figures;
}
