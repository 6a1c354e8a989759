import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { CheckpointData } from "./checkpoint-data.js";
import { allCheckpoints, type CheckpointTree } from "./checkpoint-timeline.js";
import { git } from "./git-process.js";
import type { ShadowRepo } from "./shadow-repo.js";

/** Every snapshot a session's checkpoint entries name. */
export function commitsOf(tree: CheckpointTree): string[] {
	const commits = new Set<string>();
	for (const { data } of allCheckpoints(tree)) for (const commit of namedCommits(data)) commits.add(commit);
	return [...commits];
}

function namedCommits(data: CheckpointData): string[] {
	switch (data.kind) {
		case "baseline":
			return [data.commit];
		case "turn":
			return [data.before, data.commit];
		case "restore":
			return [data.commit, data.guard];
	}
}

/** Those of `commits` that the repository at `gitDir` does not hold. */
async function missingIn(gitDir: string, commits: readonly string[]): Promise<string[]> {
	if (commits.length === 0) return [];
	const out = await git({ gitDir }, ["cat-file", "--batch-check"], `${commits.join("\n")}\n`);
	return out
		.split("\n")
		.filter((line) => line.endsWith(" missing"))
		.map((line) => line.slice(0, line.indexOf(" ")));
}

/**
 * Makes sure `repo` holds every snapshot a session names. A session forked into another project
 * (or resumed after its folder moved) names snapshots kept in its first project's store: those
 * are fetched from whichever store under `storesDir` has them, each under `refs/xcsh/borrowed/`.
 */
export async function borrowMissingCommits(
	repo: ShadowRepo,
	storesDir: string,
	commits: readonly string[],
): Promise<void> {
	let missing = await missingIn(repo.gitDir, commits);
	if (missing.length === 0) return;
	const stores = await readdir(storesDir, { withFileTypes: true }).catch(() => []);
	for (const store of stores) {
		if (missing.length === 0) return;
		const gitDir = join(storesDir, store.name);
		if (!store.isDirectory() || gitDir === repo.gitDir) continue;
		const there = await missingIn(gitDir, missing).catch(() => missing);
		if (there.length === missing.length) continue;
		await repo.read([
			"fetch",
			"-q",
			"--no-tags",
			"--no-write-fetch-head",
			gitDir,
			`+refs/xcsh/sessions/*:refs/xcsh/borrowed/${store.name}/*`,
		]);
		missing = await missingIn(repo.gitDir, missing);
	}
}
