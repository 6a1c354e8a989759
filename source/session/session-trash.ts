import { cp, rename, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import { ensurePrivateDir } from "../private-files.js";
import { getArtifactsDir } from "./artifacts.js";
import { lockHolderOther, SessionLockedError } from "./session-lock.js";

type RenameFn = (from: string, to: string) => Promise<void>;

/**
 * Moves a file or directory: a rename, or copy + remove when `from` and `to` are on different
 * devices (EXDEV). Resolves false when `from` does not exist.
 */
async function movePath(from: string, to: string, renameImpl: RenameFn = rename): Promise<boolean> {
	try {
		await renameImpl(from, to);
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return false;
		if (code !== "EXDEV") throw error;
	}
	await cp(from, to, { recursive: true, errorOnExist: true, force: false });
	await rm(from, { recursive: true, force: true });
	return true;
}

/** `<ISO time with : and . as ->_<name>` inside `<agentDir>/trash`. */
function trashPathFor(name: string, at: Date): string {
	return join(getAgentDir(), "trash", `${at.toISOString().replace(/[:.]/g, "-")}_${name}`);
}

/**
 * Moves a session file and its artifacts directory into the trash (nothing is deleted: `xcsh
 * sessions purge` empties the trash on request). Refuses a session another xcsh has open. Resolves
 * with the trashed path, or undefined when the file does not exist.
 */
export async function moveSessionToTrash(
	path: string,
	options: { now?: Date; renameImpl?: RenameFn } = {},
): Promise<string | undefined> {
	const holder = lockHolderOther(path);
	if (holder) throw new SessionLockedError(path, holder);
	const at = options.now ?? new Date();
	await ensurePrivateDir(join(getAgentDir(), "trash"));
	const target = trashPathFor(basename(path), at);
	// The file first: if the artifacts then fail to move, the session is still gone as asked.
	if (!(await movePath(path, target, options.renameImpl))) return undefined;
	const artifacts = getArtifactsDir(path);
	if (artifacts !== path) await movePath(artifacts, trashPathFor(basename(artifacts), at), options.renameImpl);
	return target;
}
