import { homedir } from "node:os";
import { join } from "node:path";

/** The agent directory: `$XCSH_AGENT_DIR`, else `~/.xcsh/agent`. Read on every call so tests can redirect it. */
export function getAgentDir(): string {
	const override = process.env.XCSH_AGENT_DIR;
	return override && override.length > 0 ? override : join(homedir(), ".xcsh", "agent");
}

/** Where every project's session directory lives. */
export function getSessionsRoot(): string {
	return join(getAgentDir(), "sessions");
}

/** Where `/export` without a path writes: outside the work tree, so an export is never committed by accident. */
export function getExportsDir(): string {
	return join(getAgentDir(), "exports");
}
