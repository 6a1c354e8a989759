import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { setPriority } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ChildReport, SkippedSource } from "./auto-import-child.js";
import { autoImportHolder } from "./auto-import-lock.js";
import type { ImportArrivals } from "./auto-import-summary.js";

/** What one background import came to. */
export type AutoRunOutcome =
	| { readonly kind: "done"; readonly arrivals: ImportArrivals; readonly skipped: readonly SkippedSource[] }
	/** Another process (this xcsh's or another's) is importing: nothing was started. */
	| { readonly kind: "busy"; readonly pid: number }
	| { readonly kind: "failed"; readonly reason: string };

/** A background import under way. */
export interface AutoRun {
	readonly outcome: Promise<AutoRunOutcome>;
	/** Stops it (quitting xcsh): the import survives a kill, and what it wrote stays. */
	stop(): void;
}

/** How much the child yields the cores to the person's xcsh (nice value). */
const CHILD_NICE = 10;

/**
 * The command that runs auto-import-main: the built `auto-import.js` beside the bundle's chunks,
 * or (tests, benches) the .ts source through tsx. Undefined when neither is there.
 */
export function autoImportCommand(callerUrl: string = import.meta.url): string[] | undefined {
	if (!callerUrl.endsWith(".ts")) {
		const built = fileURLToPath(new URL("./auto-import.js", callerUrl));
		return existsSync(built) ? [built] : undefined;
	}
	try {
		const tsx = pathToFileURL(createRequire(callerUrl).resolve("tsx")).href;
		return ["--import", tsx, fileURLToPath(new URL("./auto-import-main.ts", callerUrl))];
	} catch {
		return undefined;
	}
}

function parseReport(stdout: string): ChildReport | undefined {
	const line = stdout.trim().split("\n").pop();
	try {
		const report = line ? (JSON.parse(line) as ChildReport) : undefined;
		return report?.kind === "busy" || report?.kind === "done" ? report : undefined;
	} catch {
		return undefined;
	}
}

/** What a failed child said: an uncaught error's message (Node prints it among the stack), else its last line. */
function failureOf(stderr: string): string {
	const uncaught = /^[A-Za-z]*Error: (.+)$/m.exec(stderr);
	return uncaught?.[1]?.trim() ?? stderr.trim().split("\n").pop()?.trim() ?? "";
}

/**
 * Starts one background import in a child process of its own in `cwd` (the project Gemini CLI
 * chats are taken for); its output never reaches the terminal. When another import holds the
 * lock, none is started.
 */
export function startAutoImport(cwd: string, command = autoImportCommand()): AutoRun {
	const holder = autoImportHolder();
	if (holder) return { outcome: Promise.resolve({ kind: "busy", pid: holder.pid }), stop: () => undefined };
	if (!command)
		return { outcome: Promise.resolve({ kind: "failed", reason: "auto-import.js is missing" }), stop: () => undefined };
	// stdin: a pipe never written to, whose end tells the child this xcsh is gone (see auto-import-main).
	const child = spawn(process.execPath, command, { cwd, stdio: ["pipe", "pipe", "pipe"] });
	try {
		if (child.pid !== undefined) setPriority(child.pid, CHILD_NICE);
	} catch {
		// Not allowed here: it runs at the same priority.
	}
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (data: string) => {
		stdout += data;
	});
	child.stderr.setEncoding("utf8").on("data", (data: string) => {
		stderr += data;
	});
	let stopped = false;
	const outcome = new Promise<AutoRunOutcome>((resolve) => {
		child.on("error", (error) => resolve({ kind: "failed", reason: error.message }));
		child.on("close", (code, signal) => {
			const report = parseReport(stdout);
			if (report) resolve(report);
			else if (stopped) resolve({ kind: "failed", reason: "stopped" });
			else if (signal) resolve({ kind: "failed", reason: `stopped by ${signal}` });
			else resolve({ kind: "failed", reason: failureOf(stderr) || `exited with code ${code}` });
		});
	});
	return {
		outcome,
		stop: () => {
			if (child.exitCode !== null || child.signalCode !== null) return;
			stopped = true;
			child.kill("SIGTERM");
		},
	};
}
