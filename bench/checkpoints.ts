/**
 * Checkpoints: `npm run bench:checkpoints`.
 *
 * On generated projects (10,000 files, then BENCH_BIG_FILES, default 100,000) it measures, as
 * medians of BENCH_RUNS runs (default 7): a turn's checkpoint cost, driven through TurnCheckpoints
 * as AgentSession drives it (one file changed by the turn's tool): the snapshot work of the turn
 * (before + after + the diff of the record), and what the turn waits for: with a model that answers
 * at once (the offline model, the worst case) and with one that takes BENCH_MODEL_MS (default 300)
 * to ask for its tool and again to answer after it, which the "before" and "after" snapshots overlap; next to `git status --porcelain`
 * on the same tree as the baseline. Then restoring 100 changed files (guard snapshot, diff, write)
 * and the store's growth over BENCH_TURNS turns (default 1,000) that each change one line of the
 * same file.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFiles } from "../source/checkpoints/file-writer.js";
import { ShadowRepo } from "../source/checkpoints/shadow-repo.js";
import { rawChanges } from "../source/checkpoints/tree-diff.js";
import { TurnCheckpoints } from "../source/checkpoints/turn-checkpoints.js";
import { SessionManager } from "../source/session/session-manager.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BIG = Number(process.env.BENCH_BIG_FILES ?? 100_000);
const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 300);
const root = mkdtempSync(join(tmpdir(), "xcsh-bench-checkpoints-"));
process.env.XCSH_AGENT_DIR = join(root, "agent");

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function time(work: () => Promise<unknown> | unknown): Promise<number> {
	const start = performance.now();
	await work();
	return performance.now() - start;
}

/** `files` small source-like files in folders of 100. */
function generate(dir: string, files: number): void {
	for (let i = 0; i < files; i++) {
		const folder = join(dir, `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`);
		if (i % 100 === 0) mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, `file${i}.ts`), `export const value${i} = ${i};\n// line two\n`);
	}
}

function userGit(cwd: string, args: string[]): void {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_")));
	execFileSync("git", args, {
		cwd,
		stdio: "ignore",
		env: { ...env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" },
	});
}

function duBytes(dir: string): number {
	let total = 0;
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		const info = statSync(path);
		total += info.isDirectory() ? duBytes(path) : info.size;
	}
	return total;
}

async function turnCost(files: number): Promise<void> {
	const project = join(root, `p${files}`);
	mkdirSync(project);
	let start = performance.now();
	generate(project, files);
	console.log(`\n${files.toLocaleString("en")} files (generated in ${ms(performance.now() - start)})`);
	// The baseline: the person's own git over the same tree, committed.
	userGit(project, ["init", "-q"]);
	userGit(project, ["add", "-A"]);
	userGit(project, ["commit", "-qm", "all"]);
	const repo = await ShadowRepo.open(join(root, `store${files}`), project);
	start = performance.now();
	await repo.snapshot("bench", "first");
	console.log(`  first snapshot of a new store: ${ms(performance.now() - start)}`);
	const status: number[] = [];
	const single: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		status.push(await time(() => userGit(project, ["status", "--porcelain"])));
		writeFileSync(join(project, "pkg0", "mod0", "file1.ts"), `export const value1 = ${run};\n`);
		single.push(await time(() => repo.snapshot("bench", "one")));
	}
	console.log(`  git status --porcelain (baseline):      ${ms(median(status))}`);
	console.log(`  one snapshot, 1 file changed:           ${ms(median(single))}`);
	const session = await SessionManager.create(project);
	const hooks = new TurnCheckpoints(session, (text) => console.log(`  note: ${text}`));
	await hooks.prepare();
	// The session's first turn records its baseline (and waits for it); the turns measured are later ones.
	await turn(hooks, 0, () => {});
	const work: number[] = [];
	const waitedFast: number[] = [];
	const waitedModel: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		const change = (value: string) => () =>
			writeFileSync(join(project, "pkg0", "mod0", "file0.ts"), `export const value0 = "${value}";\n`);
		const fast = await turn(hooks, 0, change(`fast ${run}`));
		work.push(fast.work);
		waitedFast.push(fast.waited);
		waitedModel.push((await turn(hooks, MODEL_MS, change(`model ${run}`))).waited);
	}
	const recorded = session.getEntries().filter((e) => e.type === "custom").length;
	if (recorded !== 1 + 2 * RUNS) throw new Error(`expected ${1 + 2 * RUNS} checkpoint entries, found ${recorded}`);
	console.log(`  a turn's checkpoint work (before + after + diff):  ${ms(median(work))}`);
	console.log(`  what a turn waits for, model answering at once:    ${ms(median(waitedFast))}`);
	console.log(`  what a turn waits for, model taking ${MODEL_MS} ms:      ${ms(median(waitedModel))}`);
	await session.close();
	if (files === 10_000) await restoreCost(repo, project);
	if (files === 10_000) await growth(repo, project);
}

/**
 * One turn as AgentSession runs it: beforeTurn, the model asking for a tool (modelMs), beforeTool,
 * the tool's change, afterTool, the model's answer (modelMs again), afterTurn. `waited` is the time
 * spent in the hooks; `work` is all of it with the model's time out.
 */
async function turn(
	hooks: TurnCheckpoints,
	modelMs: number,
	change: () => void,
): Promise<{ waited: number; work: number }> {
	const start = performance.now();
	let waited = await time(() => hooks.beforeTurn());
	if (modelMs > 0) await new Promise((resolve) => setTimeout(resolve, modelMs));
	waited += await time(() => hooks.beforeTool());
	change();
	hooks.afterTool();
	if (modelMs > 0) await new Promise((resolve) => setTimeout(resolve, modelMs));
	waited += await time(() => hooks.afterTurn());
	return { waited, work: performance.now() - start - 2 * modelMs };
}

async function restoreCost(repo: ShadowRepo, project: string): Promise<void> {
	const paths = Array.from({ length: 100 }, (_, i) => join("pkg1", `mod${i % 10}`, `file${1000 + i * 10}.ts`));
	const a = await repo.snapshot("restore", "a");
	for (const path of paths) writeFileSync(join(project, path), "changed\n");
	const b = await repo.snapshot("restore", "b");
	const runs: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		const target = run % 2 === 0 ? a : b;
		runs.push(
			await time(async () => {
				const guard = await repo.snapshot("restore", "guard");
				await writeFiles(repo, await rawChanges(repo, guard.tree, target.tree));
			}),
		);
	}
	console.log(`  restore of 100 changed files (guard + write): ${ms(median(runs))}`);
}

async function growth(repo: ShadowRepo, project: string): Promise<void> {
	const before = duBytes(repo.gitDir);
	const start = performance.now();
	let text = "";
	for (let turn = 0; turn < TURNS; turn++) {
		text += `line ${turn}\n`;
		writeFileSync(join(project, "pkg2", "mod0", "file2000.ts"), text);
		await repo.snapshot("growth", `turn ${turn}`);
	}
	const grown = duBytes(repo.gitDir) - before;
	console.log(
		`  ${TURNS} turns changing one line of one file: store +${(grown / 1024 / 1024).toFixed(1)} MB (${(grown / TURNS / 1024).toFixed(1)} KB a turn, loose objects), ${ms((performance.now() - start) / TURNS)} a turn`,
	);
	const packStart = performance.now();
	await repo.read(["gc", "-q", "--prune=now"]);
	console.log(
		`  after git gc (${ms(performance.now() - packStart)}): store ${(duBytes(repo.gitDir) / 1024 / 1024).toFixed(1)} MB in all`,
	);
}

try {
	console.log(`checkpoints bench: medians of ${RUNS} runs, ${execFileSync("git", ["--version"]).toString().trim()}`);
	await turnCost(10_000);
	if (BIG > 0) await turnCost(BIG);
} finally {
	rmSync(root, { recursive: true, force: true });
}
