import { cp } from "node:fs/promises";
import { log } from "../logger.js";

/** A session's artifacts directory: the session file's path without `.jsonl`. */
export function getArtifactsDir(sessionFile: string): string {
	return sessionFile.replace(/\.jsonl$/, "");
}

/**
 * Copies one session's artifacts into another's namespace. Best effort: a missing directory is
 * normal, any other failure is logged and does not fail the fork.
 */
export async function copyArtifacts(fromSessionFile: string, toSessionFile: string): Promise<void> {
	const from = getArtifactsDir(fromSessionFile);
	const to = getArtifactsDir(toSessionFile);
	try {
		await cp(from, to, { recursive: true, errorOnExist: false, force: false });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
		log.warn(
			`Could not copy artifacts from ${from} to ${to}: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
}
