import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/** A fresh temp directory per test, set as XCSH_AGENT_DIR; restored and removed afterwards. */
export function useTempAgentDir(): { readonly root: string; readonly agentDir: string } {
	const state = { root: "", agentDir: "" };
	let previous: string | undefined;
	beforeEach(() => {
		previous = process.env.XCSH_AGENT_DIR;
		state.root = mkdtempSync(join(tmpdir(), "xcsh-test-"));
		state.agentDir = join(state.root, "agent");
		process.env.XCSH_AGENT_DIR = state.agentDir;
	});
	afterEach(() => {
		if (previous === undefined) delete process.env.XCSH_AGENT_DIR;
		else process.env.XCSH_AGENT_DIR = previous;
		rmSync(state.root, { recursive: true, force: true, maxRetries: 5 });
	});
	return state;
}
