import { spawn, spawnSync } from "node:child_process";
import { resolve } from "node:path";

const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");

/** What a CLI run printed and returned. */
export interface CliRun {
	status: number | null;
	stdout: string;
	stderr: string;
}

/** Runs the built CLI (`npm run build` first) with its own agent dir and cwd. */
export function runCli(
	args: readonly string[],
	options: { agentDir: string; cwd: string; env?: NodeJS.ProcessEnv },
): CliRun {
	const env: NodeJS.ProcessEnv = { ...process.env, XCSH_AGENT_DIR: options.agentDir, NO_COLOR: "1", ...options.env };
	delete env.XCSH_TERMINAL_ID;
	const result = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd, env, encoding: "utf8" });
	return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Like runCli, but asynchronous: needed when the test process itself serves the CLI (a loopback LLM). */
export function runCliAsync(
	args: readonly string[],
	options: { agentDir: string; cwd: string; stdin?: string; env?: NodeJS.ProcessEnv },
): Promise<CliRun> {
	const env: NodeJS.ProcessEnv = { ...process.env, XCSH_AGENT_DIR: options.agentDir, NO_COLOR: "1", ...options.env };
	delete env.XCSH_TERMINAL_ID;
	return new Promise((resolvePromise, reject) => {
		const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
		child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
		child.on("error", reject);
		child.on("close", (status) => resolvePromise({ status, stdout, stderr }));
		if (options.stdin !== undefined) child.stdin.end(options.stdin);
		else child.stdin.end();
	});
}
