import { resolve } from "node:path";
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
