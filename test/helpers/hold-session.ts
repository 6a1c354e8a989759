import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Opens `file` for writing in another process (the "other xcsh" of the single-writer tests);
 * resolves once that process holds the lock. Kill it to let go.
 */
export function holdSession(file: string, agentDir: string): Promise<ChildProcessWithoutNullStreams> {
	const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/hold-session-child.ts", file], {
		cwd: ROOT,
		env: { ...process.env, XCSH_AGENT_DIR: agentDir },
		stdio: ["pipe", "pipe", "pipe"],
	});
	return new Promise((resolvePromise, reject) => {
		let out = "";
		child.stdout.setEncoding("utf8").on("data", (data: string) => {
			out += data;
			if (out.includes("holding")) resolvePromise(child);
		});
		child.on("exit", (code) => reject(new Error(`holder exited early (${code})`)));
	});
}
