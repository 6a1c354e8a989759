/**
 * The picker figures of bench/index-scale.ts, in a real pty (node-pty + @xterm/headless through
 * test/helpers/pty-terminal.ts) driving the built CLI: `/resume` + Enter → first session rows in a
 * running xcsh (and once more in the same process), `xcsh --resume` spawn → first rows, and the
 * baseline, plain `xcsh` spawn → first frame.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { PtyTerminal } from "../test/helpers/pty-terminal.js";

const DIST = resolve(import.meta.dirname, "../dist");
const COLS = 120;
const ROWS = 40;
const TIMEOUT_MS = 120_000;

/** Milliseconds of every run, per figure. */
export interface PickerFigures {
	/** `/resume` + Enter → first rows, first open in a fresh process: THE picker figure. */
	slash: number[];
	/** The same, second open in the same process (after Esc). */
	reopen: number[];
	/** Spawn of `xcsh --resume` → first rows. */
	spawnResume: number[];
	/** Spawn of plain `xcsh` → first non-blank frame. */
	spawnPlain: number[];
}

/**
 * The picker shows session rows: its title is up and some line ends with the message count
 * (`SessionRow` in components/session-selector/session-selector.tsx ends every row with `N msg`);
 * "Loading sessions…" and "No sessions yet" are not rows.
 */
export function hasSessionRows(screen: string): boolean {
	return screen.includes("Resume session") && /\d+ msg\s*$/m.test(screen);
}

function pause(ms: number): Promise<void> {
	return new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}

function start(cwd: string, agentDir: string, args: string[] = []): { term: PtyTerminal; startedAt: number } {
	const startedAt = performance.now();
	const term = new PtyTerminal({ args, cwd, agentDir, cols: COLS, rows: ROWS });
	return { term, startedAt };
}

/** Types `/resume`, waits for its echo, then times Enter → first rows. */
async function openPicker(term: PtyTerminal): Promise<number> {
	await term.type("/resume");
	// Keys right after a frame are handled against stale state: let the editor settle first.
	await pause(100);
	const sentAt = performance.now();
	term.write("\r");
	await term.waitFor(hasSessionRows, TIMEOUT_MS);
	return performance.now() - sentAt;
}

async function slashRun(cwd: string, agentDir: string): Promise<[number, number]> {
	const { term } = start(cwd, agentDir);
	try {
		await term.waitFor("Type a prompt", TIMEOUT_MS);
		await pause(200);
		const first = await openPicker(term);
		term.write("\x1b");
		await term.waitFor((screen) => !screen.includes("Resume session"), TIMEOUT_MS);
		await pause(200);
		return [first, await openPicker(term)];
	} finally {
		term.kill();
		await term.exited();
	}
}

async function spawnRun(cwd: string, agentDir: string, args: string[], ready: (s: string) => boolean) {
	const { term, startedAt } = start(cwd, agentDir, args);
	try {
		await term.waitFor(ready, TIMEOUT_MS);
		return performance.now() - startedAt;
	} finally {
		term.kill();
		await term.exited();
	}
}

/** Runs every figure `runs` times, interleaved so a slow moment of the machine hits all of them alike. */
export async function measurePicker(
	cwd: string,
	agentDir: string,
	runs: number,
	log: (line: string) => void,
): Promise<PickerFigures> {
	if (!existsSync(DIST)) throw new Error("dist/ is missing: run `npm run build` first");
	const figures: PickerFigures = { slash: [], reopen: [], spawnResume: [], spawnPlain: [] };
	// Untimed: a CLI built from another schema version than this process rebuilds the index here first.
	const warmUp = await spawnRun(cwd, agentDir, ["--resume"], hasSessionRows);
	log(`  warm-up (not counted): --resume spawn → rows ${warmUp.toFixed(0)} ms`);
	for (let run = 0; run < runs; run++) {
		figures.spawnPlain.push(await spawnRun(cwd, agentDir, [], (screen) => screen.trim().length > 0));
		const [first, again] = await slashRun(cwd, agentDir);
		figures.slash.push(first);
		figures.reopen.push(again);
		figures.spawnResume.push(await spawnRun(cwd, agentDir, ["--resume"], hasSessionRows));
		const [plain, resume] = [figures.spawnPlain.at(-1)!, figures.spawnResume.at(-1)!];
		log(
			`  run ${run + 1}/${runs}: /resume → rows ${first.toFixed(0)} ms (again ${again.toFixed(0)} ms), ` +
				`--resume spawn → rows ${resume.toFixed(0)} ms, plain spawn → frame ${plain.toFixed(0)} ms`,
		);
	}
	return figures;
}
