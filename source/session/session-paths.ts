import { join } from "node:path";
import { getAgentDir, getSessionsRoot } from "../agent-dir.js";

/** `/work/pi` → `--work-pi--`: leading slash dropped, `/`, `\` and `:` replaced by `-`. */
export function encodeCwd(cwd: string): string {
	return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** The default session directory for a working directory. */
export function getDefaultSessionDir(cwd: string): string {
	return join(getSessionsRoot(), encodeCwd(cwd));
}

/** `<ISO timestamp with : and . as ->_<sessionId>.jsonl` */
export function sessionFileName(timestamp: string, sessionId: string): string {
	return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

/** Where content-addressed blobs (externalised images) live. */
export function getBlobsDir(): string {
	return join(getAgentDir(), "blobs");
}

/** Where terminal breadcrumbs live. */
export function getTerminalSessionsDir(): string {
	return join(getAgentDir(), "terminal-sessions");
}

/** Where big sessions' skeleton caches are kept (`<agentDir>/cache/skeletons`). */
export function getSkeletonsDir(): string {
	return join(getAgentDir(), "cache", "skeletons");
}

/** True when a `--resume` value names a file rather than an id prefix (contains a slash or ends in .jsonl). */
export function looksLikePath(value: string): boolean {
	return value.includes("/") || value.includes("\\") || value.endsWith(".jsonl");
}
