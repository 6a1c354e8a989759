import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { borrowMissingCommits, commitsOf } from "./borrowed-commits.js";
import type { CheckpointTree } from "./checkpoint-timeline.js";
import { gitAvailable } from "./git-process.js";
import { ShadowRepo } from "./shadow-repo.js";
import { checkpointStoreDir, maxFileBytesFromEnv } from "./store-location.js";

const open = new Map<string, Promise<ShadowRepo>>();

/**
 * The shadow repository of a project (one per process and project, so every snapshot of it goes
 * through one queue); its size limit comes from `XCSH_CHECKPOINT_MAX_FILE_SIZE`.
 */
export function openProjectStore(projectDir: string): Promise<ShadowRepo> {
	const project = resolve(projectDir);
	const gitDir = checkpointStoreDir(project);
	let store = open.get(gitDir);
	if (!store) {
		store = ShadowRepo.open(gitDir, project, { maxFileBytes: maxFileBytesFromEnv() });
		open.set(gitDir, store);
		store.catch(() => open.delete(gitDir));
	}
	return store;
}

/**
 * The project's shadow repository when it exists and git can be run, else undefined: for readers
 * (exports) that must never create a store.
 */
export async function existingProjectStore(projectDir: string): Promise<ShadowRepo | undefined> {
	const project = resolve(projectDir);
	const gitDir = checkpointStoreDir(project);
	if (!open.has(gitDir) && !(await stat(join(gitDir, "HEAD")).catch(() => undefined))) return undefined;
	if (!(await gitAvailable())) return undefined;
	return openProjectStore(project).catch(() => undefined);
}

/**
 * The project's store, holding every snapshot the session names: a fork from another project
 * brings its snapshots over from that project's store the first time they are needed.
 */
export async function sessionStore(projectDir: string, tree: CheckpointTree): Promise<ShadowRepo> {
	const repo = await openProjectStore(projectDir);
	await borrowMissingCommits(repo, dirname(repo.gitDir), commitsOf(tree));
	return repo;
}
