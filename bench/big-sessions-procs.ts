/**
 * The child-process figures of bench/big-sessions.ts, each in a fresh node process: the streaming
 * read+parse floor and pi-coding-agent's open (bench/big-sessions-worker.mjs, plain node), the built
 * CLI's `--export`, and the small-session open of bench/session-store-worker.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BigSession } from "./big-sessions-data.js";
import { firstLine } from "./big-sessions-report.js";

const HERE = import.meta.dirname;
const PROJECT_ROOT = resolve(HERE, "..");
const BIN = join(PROJECT_ROOT, "bin/xcsh.js");
const WORKER = join(HERE, "big-sessions-worker.mjs");
const STORE_WORKER = join(HERE, "session-store-worker.ts");
const PI_VERSION = "0.73.1";
const PI_PACKAGE = "@mariozechner/pi-coding-agent";
/** Where pi is installed for the comparison; never a dependency of xcsh. */
export const PI_DIR = process.env.BENCH_PI_DIR ?? "/tmp/xcsh-bench-pi";
// Written by the measured process itself on exit: its own peak RSS, exact, whatever it did before.
const RSS_HOOK =
	'data:text/javascript,import{writeFileSync}from"node:fs";' +
	'process.on("exit",()=>writeFileSync(process.env.BENCH_RSS_FILE,String(process.resourceUsage().maxRSS*1024)))';

/** What a worker child printed (its last line, JSON), plus the wall time from spawn to exit. */
export interface ChildFigures {
	ms: number;
	wallMs: number;
	maxRssBytes: number;
	[field: string]: number | string;
}

/** Runs `node <args>`; returns its figures, or an Error with the child's first line of complaint. */
export function runNode(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ChildFigures | Error {
	const started = performance.now();
	const child = spawnSync(process.execPath, args, {
		cwd: PROJECT_ROOT,
		env,
		encoding: "utf8",
		maxBuffer: 64 << 20,
	});
	const wallMs = performance.now() - started;
	const last = child.stdout?.trim().split("\n").at(-1) ?? "";
	let parsed: Record<string, number | string> | undefined;
	try {
		parsed = JSON.parse(last) as Record<string, number | string>;
	} catch {
		parsed = undefined;
	}
	if (parsed && typeof parsed.error === "string") return new Error(parsed.error);
	if (child.status !== 0 || !parsed) {
		const why = firstLine(child.stderr || child.error || `exit ${child.status ?? child.signal}`);
		return new Error(why);
	}
	return { ...parsed, ms: Number(parsed.ms), maxRssBytes: Number(parsed.maxRssBytes), wallMs };
}

/** The floor: a stream of 1 MiB chunks, every line JSON.parsed, no xcsh code. */
export function floorRun(session: BigSession): ChildFigures | Error {
	return runNode([WORKER, "floor", session.path]);
}

/** Installs pi-coding-agent under PI_DIR unless it is there; returns why not when that fails. */
export function ensurePi(log: (line: string) => void): string | undefined {
	const manifest = join(PI_DIR, "node_modules", PI_PACKAGE, "package.json");
	if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === PI_VERSION) return undefined;
	mkdirSync(PI_DIR, { recursive: true });
	log(`Installing ${PI_PACKAGE}@${PI_VERSION} into ${PI_DIR} (not a dependency of xcsh) …`);
	// No install scripts: opening a session needs none of its native extras.
	const npm = spawnSync(
		"npm",
		[
			"install",
			"--no-save",
			"--ignore-scripts",
			"--no-audit",
			"--no-fund",
			"--prefix",
			PI_DIR,
			`${PI_PACKAGE}@${PI_VERSION}`,
		],
		{ cwd: PI_DIR, encoding: "utf8" },
	);
	if (npm.status === 0 && existsSync(manifest)) return undefined;
	return `could not install ${PI_PACKAGE}@${PI_VERSION}: ${firstLine(npm.stderr || npm.error || "npm failed")}`;
}

/** pi's SessionManager.open(path) on the same file, in a fresh plain-node process. */
export function piRun(session: BigSession): ChildFigures | Error {
	return runNode([WORKER, "pi", PI_DIR, session.path]);
}

/** `xcsh --export <session> <out.html>` with a fresh agent dir (the blobs): wall time and the process's peak RSS. */
export function exportRun(sessionPath: string, agentDir: string, out: string, cwd: string): ChildFigures | Error {
	const rssFile = `${out}.rss`;
	const started = performance.now();
	const child = spawnSync(process.execPath, [`--import=${RSS_HOOK}`, BIN, "--export", sessionPath, out], {
		cwd,
		env: { ...process.env, XCSH_AGENT_DIR: agentDir, BENCH_RSS_FILE: rssFile },
		encoding: "utf8",
		maxBuffer: 64 << 20,
	});
	const wallMs = performance.now() - started;
	if (child.status !== 0) return new Error(firstLine(child.stderr || child.stdout || `exit ${child.status}`));
	if (!existsSync(out)) return new Error(`exit 0 but no ${out}`);
	const maxRssBytes = Number(readFileSync(rssFile, "utf8"));
	return { ms: wallMs, wallMs, maxRssBytes, outBytes: statSync(out).size };
}

/** One open of bench/session-store-worker.ts (`open-xcsh` or `open-floor`): time and RSS growth over its baseline. */
export function storeOpenRun(mode: "open-xcsh" | "open-floor", session: BigSession, agentDir: string) {
	return runNode(["--import", "tsx", STORE_WORKER, mode, session.path], {
		...process.env,
		XCSH_AGENT_DIR: agentDir,
		XCSH_TERMINAL_ID: "xcsh-bench",
	});
}
