/**
 * Crash soak (test/doctor/crash-soak.test.ts runs 10 trials, bench/soak.ts 100+): the append child
 * (test/helpers/append-child.ts) is SIGKILLed at a random moment after a random number of flushed
 * batches; then the file must open with every flushed entry, take one more append, and come out of
 * `xcsh doctor --fix` clean. Kill moments come from the child's own `flushed <n>` lines, never from a sleep.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { diagnoseSessionFile } from "../../source/doctor/diagnose.js";
import { type SessionDiagnosis, severityOf } from "../../source/doctor/findings.js";
import { repairSessionFile } from "../../source/doctor/repair.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { CRASH_BATCH } from "./append-child.js";

const PROJECT_ROOT = resolve(import.meta.dirname, "../..");
const CHILD = "test/helpers/append-child.ts";

/** What the child reported before it died. */
export interface KilledRun {
	/** Entries the child had appended and flushed (fsynced) when it last reported. */
	flushed: number;
	/** Their ids, in order. */
	ids: string[];
}

/** A small seeded PRNG (mulberry32): the same seed gives the same kill moments. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/**
 * Runs the append child on `file` and SIGKILLs it once it reported at least `killAfterFlushed` flushed
 * entries (after `jitterMs` more, so the kill lands anywhere in the next batch's writes).
 */
export async function runAndKill(file: string, killAfterFlushed: number, jitterMs = 0, timeoutMs = 60_000) {
	const env: NodeJS.ProcessEnv = { ...process.env };
	delete env.XCSH_TERMINAL_ID;
	const child: ChildProcessByStdio<null, Readable, Readable> = spawn(
		process.execPath,
		["--import", "tsx", CHILD, file],
		{ cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] },
	);
	const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
	let stderr = "";
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
		stderr += chunk;
	});
	const watchdog = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
	const run: KilledRun = { flushed: 0, ids: [] };
	let killing = false;
	// Read to the end: a batch reported between the decision and the kill is just as durable.
	for await (const line of createInterface({ input: child.stdout })) {
		if (line.startsWith("ids ")) run.ids.push(...line.slice(4).split(","));
		else if (line.startsWith("flushed ")) run.flushed = Number(line.slice(8));
		if (!killing && run.flushed >= killAfterFlushed) {
			killing = true;
			if (jitterMs > 0) setTimeout(() => child.kill("SIGKILL"), jitterMs);
			else child.kill("SIGKILL");
		}
	}
	const [code, signal] = await exited;
	clearTimeout(watchdog);
	if (!killing) throw new Error(`child ended before ${killAfterFlushed} flushed (code ${code}, ${signal}): ${stderr}`);
	if (signal !== "SIGKILL") throw new Error(`child was not killed (code ${code}): ${stderr}`);
	run.ids = run.ids.slice(0, run.flushed);
	return run;
}

/** What checking one crashed file found. */
export interface CrashCheck {
	lost: number;
	tornTail: boolean;
	staleLock: boolean;
	problems: string[];
}

function unexpectedErrors(diagnosis: SessionDiagnosis, allowed: ReadonlySet<string>): string[] {
	if (!diagnosis.header.valid) return [`header: ${diagnosis.header.reason}`];
	return diagnosis.findings
		.filter((f) => severityOf(f) === "error" && !allowed.has(f.kind))
		.map((f) => `${f.kind}: ${JSON.stringify(f)}`);
}

async function entriesOf(file: string): Promise<{ id: string; parentId: string | null }[]> {
	const session = await SessionManager.open(file);
	try {
		return session.getEntries().map(({ id, parentId }) => ({ id, parentId }));
	} finally {
		await session.close();
	}
}

/** Verifies a file left by a killed writer; `expected` are the ids it reported flushed. */
export async function checkCrashedFile(file: string, expected: readonly string[]): Promise<CrashCheck> {
	const problems: string[] = [];
	const found = await diagnoseSessionFile(file);
	const tornTail = found.findings.some((f) => f.kind === "torn-tail");
	const staleLock = found.findings.some((f) => f.kind === "stale-lock");
	problems.push(...unexpectedErrors(found, new Set(["torn-tail"])));

	const session = await SessionManager.open(file);
	const entries = session.getEntries();
	const present = new Set(entries.map((e) => e.id));
	const lost = expected.filter((id) => !present.has(id)).length;
	expected.forEach((id, i) => {
		if (entries[i]?.id !== id) problems.push(`entry ${i} is ${entries[i]?.id}, expected ${id}`);
	});
	for (let i = 1; i < entries.length; i++) {
		if (entries[i]!.parentId !== entries[i - 1]!.id) problems.push(`entry ${i} breaks the chain`);
	}
	const before = entries.map((e) => e.id);
	const added = session.appendCustomEntry("soak", { after: "crash" });
	await session.flush();
	await session.close();

	const reopened = await entriesOf(file);
	const last = reopened[reopened.length - 1];
	if (reopened.length !== before.length + 1 || last?.id !== added)
		problems.push("the append after the crash is missing");
	if (last?.parentId !== (before[before.length - 1] ?? null))
		problems.push("the append after the crash has the wrong parent");
	// The torn line, now terminated by the append, is the only thing allowed to be skipped.
	problems.push(...unexpectedErrors(await diagnoseSessionFile(file), new Set(tornTail ? ["unparseable-line"] : [])));

	const repair = await repairSessionFile(file);
	if (!repair.after.ok) problems.push(`not ok after --fix: ${JSON.stringify(repair.after.findings)}`);
	const repaired = (await entriesOf(file)).map((e) => e.id);
	if (repaired.join() !== [...before, added].join()) problems.push("--fix changed the entries");
	return { lost, tornTail, staleLock, problems };
}

/** Options of a soak run. */
export interface SoakOptions {
	trials: number;
	seed: number;
	/** Trials run in a directory each under here; passing ones are removed. */
	root: string;
	/** Kill after 1..maxBatches flushed batches of CRASH_BATCH entries. */
	maxBatches?: number;
	jitterMs?: number;
	concurrency?: number;
	onTrial?: (trial: number, result: CrashCheck & { flushed: number }) => void;
}

/** Totals of a soak run. */
export interface SoakSummary {
	trials: number;
	flushedEntries: number;
	entriesLost: number;
	tornTails: number;
	staleLocks: number;
	failures: string[];
}

/** Runs `trials` kill-and-check trials, a few at a time. */
export async function runCrashSoak(options: SoakOptions): Promise<SoakSummary> {
	const random = seededRandom(options.seed);
	const maxBatches = options.maxBatches ?? 12;
	const plans = Array.from({ length: options.trials }, (_, trial) => ({
		trial,
		killAfter: (1 + Math.floor(random() * maxBatches)) * CRASH_BATCH,
		jitter: Math.floor(random() * (options.jitterMs ?? 0)),
	}));
	const summary: SoakSummary = {
		trials: 0,
		flushedEntries: 0,
		entriesLost: 0,
		tornTails: 0,
		staleLocks: 0,
		failures: [],
	};
	const runOne = async ({ trial, killAfter, jitter }: (typeof plans)[number]) => {
		const dir = join(options.root, `trial-${trial}`);
		mkdirSync(dir, { recursive: true });
		const file = join(dir, "session.jsonl");
		try {
			const run = await runAndKill(file, killAfter, jitter);
			const check = await checkCrashedFile(file, run.ids);
			summary.trials++;
			summary.flushedEntries += run.flushed;
			summary.entriesLost += check.lost;
			if (check.tornTail) summary.tornTails++;
			if (check.staleLock) summary.staleLocks++;
			for (const problem of check.problems) summary.failures.push(`trial ${trial}: ${problem}`);
			options.onTrial?.(trial, { ...check, flushed: run.flushed });
			if (check.problems.length === 0) rmSync(dir, { recursive: true, force: true });
		} catch (error) {
			summary.trials++;
			summary.failures.push(`trial ${trial}: ${error instanceof Error ? error.message : String(error)}`);
		}
	};
	const queue = [...plans];
	const workers = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, async () => {
		for (let plan = queue.shift(); plan; plan = queue.shift()) await runOne(plan);
	});
	await Promise.all(workers);
	return summary;
}
