import { spawn } from "node:child_process";

/** How a finished child process ended and what it printed. */
export interface ProcessOutput {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** Options for runProcess. */
export interface RunProcessOptions {
	env?: NodeJS.ProcessEnv;
	signal?: AbortSignal | undefined;
	/** How long SIGTERM gets before SIGKILL. */
	killGraceMs?: number;
}

/** An Error named "AbortError", the shape fetch and friends use, so callers can tell cancel from failure. */
export function abortError(message = "The operation was aborted"): Error {
	const error = new Error(message);
	error.name = "AbortError";
	return error;
}

/** True for an AbortError (ours, a DOMException, or a signal's default reason). */
export function isAbortError(error: unknown): boolean {
	return error instanceof Error && error.name === "AbortError";
}

/**
 * Runs a command and collects its output. Rejects with the spawn error (code ENOENT when missing),
 * or, when the signal fires, kills the child's process group (SIGTERM, then SIGKILL) and rejects with
 * an AbortError once the child has really exited.
 */
export function runProcess(
	command: string,
	args: readonly string[],
	options: RunProcessOptions = {},
): Promise<ProcessOutput> {
	const { signal, killGraceMs = 2000 } = options;
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(abortError());
			return;
		}
		// Its own process group, so cancelling reaches whatever it started too (gh runs helpers such
		// as git credential managers; killing gh alone would orphan them).
		const child = spawn(command, args, {
			env: options.env ?? process.env,
			stdio: ["ignore", "pipe", "pipe"],
			detached: true,
		});
		const killGroup = (signal: NodeJS.Signals) => {
			try {
				if (child.pid !== undefined) process.kill(-child.pid, signal);
			} catch {
				// The group is gone already; the child itself may still need the signal.
				child.kill(signal);
			}
		};
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		let aborted = false;
		let exited = false;
		let killTimer: NodeJS.Timeout | undefined;
		const onAbort = () => {
			// Exited but output not yet drained: nothing to kill, and "exit" will not fire again to reject.
			if (exited) return;
			aborted = true;
			killGroup("SIGTERM");
			killTimer = setTimeout(() => killGroup("SIGKILL"), killGraceMs);
		};
		const cleanup = () => {
			signal?.removeEventListener("abort", onAbort);
			clearTimeout(killTimer);
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		child.once("error", (error) => {
			cleanup();
			reject(error);
		});
		child.once("exit", () => {
			exited = true;
			if (!aborted) return;
			cleanup();
			// A grandchild may still hold the pipes open; waiting for "close" would wait for it too.
			child.stdout.destroy();
			child.stderr.destroy();
			reject(abortError());
		});
		child.once("close", (code, exitSignal) => {
			cleanup();
			if (!aborted) resolve({ code, signal: exitSignal, stdout, stderr });
		});
	});
}
