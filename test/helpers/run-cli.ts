import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");

/** What a CLI run printed and returned. */
export interface CliRun {
	status: number | null;
	stdout: string;
	stderr: string;
}

/** Runs the built CLI (`npm run build` first) with its own agent dir and cwd. */
export function runCli(args: readonly string[], options: { agentDir: string; cwd: string }): CliRun {
	const env: NodeJS.ProcessEnv = { ...process.env, XCSH_AGENT_DIR: options.agentDir, NO_COLOR: "1" };
	delete env.XCSH_TERMINAL_ID;
	const result = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd, env, encoding: "utf8" });
	return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
