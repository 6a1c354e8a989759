import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { getAgentDir } from "../agent-dir.js";

/** `<agentDir>/checkpoints/<hash of the project path>`: the shadow repository of one project. */
export function checkpointStoreDir(projectDir: string): string {
	const key = createHash("sha256").update(resolve(projectDir)).digest("hex").slice(0, 16);
	return join(getAgentDir(), "checkpoints", key);
}

/** Default largest file a checkpoint keeps: bigger ones are skipped with a note. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

const UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * The size limit from `XCSH_CHECKPOINT_MAX_FILE_SIZE` (`2048`, `500k`, `10m`), else the default;
 * a value that does not parse falls back to the default too.
 */
export function maxFileBytesFromEnv(env: NodeJS.ProcessEnv = process.env): number {
	const raw = env.XCSH_CHECKPOINT_MAX_FILE_SIZE?.trim().toLowerCase();
	const match = raw ? /^(\d+)\s*([kmg]?)b?$/.exec(raw) : null;
	if (!match) return DEFAULT_MAX_FILE_BYTES;
	return Number(match[1]) * (UNITS[match[2] ?? ""] ?? 1);
}
