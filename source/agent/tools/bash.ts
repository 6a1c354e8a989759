import { stat } from "node:fs/promises";
import type { AgentTool, AgentToolResult, AgentToolUpdateCallback } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "@mariozechner/pi-ai";
import type { IPty } from "node-pty";
import { COMMAND_ENV, ExitMarkerScanner, WRAPPER_SCRIPT } from "./exit-marker.js";
import { OutputCollector, type OutputSnapshot } from "./output-collector.js";
import { killProcessTree } from "./process-tree.js";
import { TerminalTextCleaner } from "./terminal-text.js";
import { throttle } from "./throttle.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "./truncate.js";

/** Seconds a command may run when the model gives no timeout. */
export const DEFAULT_BASH_TIMEOUT_SECONDS = 120;

// Streaming every pty read would re-render the tail thousands of times for chatty commands.
const UPDATE_INTERVAL_MS = 50;
const MAX_TIMER_MS = 2 ** 31 - 1;

const bashSchema = Type.Object({
	command: Type.String({ description: "Bash command line to run" }),
	timeout: Type.Optional(
		Type.Number({
			exclusiveMinimum: 0,
			description: `Seconds before the command is killed (default ${DEFAULT_BASH_TIMEOUT_SECONDS})`,
		}),
	),
});

/** Arguments of the bash tool. */
export type BashParams = Static<typeof bashSchema>;

interface BashOutputDetails {
	readonly truncated: boolean;
	readonly totalLines: number;
	readonly totalBytes: number;
	/** Temp file with the complete output, present only when the output was truncated. */
	readonly fullOutputPath?: string;
}

/** Progress (`running`, in updates) or outcome (`exited`, in the result) of a command. */
export type BashDetails =
	| (BashOutputDetails & { readonly state: "running" })
	| (BashOutputDetails & { readonly state: "exited"; readonly exitCode: number; readonly signal?: number });

const DESCRIPTION = [
	"Run a command with /bin/bash -c in the working directory, in a pseudo-terminal.",
	"Returns combined stdout and stderr with colours stripped, and the exit code when it is not 0.",
	`Output over ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)} keeps only the end;`,
	"the full output is saved to a file you can read.",
	`The command is killed after timeout seconds (default ${DEFAULT_BASH_TIMEOUT_SECONDS}).`,
	"Nothing is ever typed into the terminal, so interactive programs and prompts wait until the timeout:",
	"pass flags like -y or --no-edit instead. Pagers are disabled (PAGER=cat).",
].join(" ");

type PtyModule = typeof import("node-pty");
let ptyModule: Promise<PtyModule> | undefined;

// node-pty is a native addon: load it on the first command, not when the CLI starts.
function loadPty(): Promise<PtyModule> {
	ptyModule ??= import("node-pty").catch((error: unknown) => {
		ptyModule = undefined;
		throw error;
	});
	return ptyModule;
}

/** The `bash` tool, running commands in `cwd`. */
export function createBashTool(cwd: string): AgentTool<typeof bashSchema, BashDetails> {
	return {
		name: "bash",
		label: "Bash",
		description: DESCRIPTION,
		parameters: bashSchema,
		execute: async (_toolCallId, params, signal, onUpdate) => {
			const seconds = params.timeout ?? DEFAULT_BASH_TIMEOUT_SECONDS;
			if (!Number.isFinite(seconds) || seconds <= 0) throw new Error("timeout must be a positive number of seconds");
			if (signal?.aborted) throw new Error("Command aborted");
			const isDirectory = await stat(cwd).then(
				(s) => s.isDirectory(),
				() => false,
			);
			if (!isDirectory) throw new Error(`Working directory does not exist: ${cwd}`);
			const { spawn } = await loadPty();
			if (signal?.aborted) throw new Error("Command aborted");
			const child = spawn("/bin/bash", ["-c", WRAPPER_SCRIPT], {
				name: "dumb",
				cols: 200,
				rows: 50,
				cwd,
				env: commandEnv(params.command),
			});
			return runToCompletion(child, seconds, signal, onUpdate);
		},
	};
}

function commandEnv(command: string): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
	// Nobody can answer a pager or a credential prompt: make tools print and fail instead of waiting.
	const safe = { TERM: "dumb", PAGER: "cat", GIT_PAGER: "cat", MANPAGER: "cat", GIT_TERMINAL_PROMPT: "0" };
	return { ...env, ...safe, [COMMAND_ENV]: command };
}

type Stop = "timeout" | "abort";

async function runToCompletion(
	child: IPty,
	seconds: number,
	signal: AbortSignal | undefined,
	onUpdate: AgentToolUpdateCallback<BashDetails> | undefined,
): Promise<AgentToolResult<BashDetails>> {
	const marker = new ExitMarkerScanner();
	const cleaner = new TerminalTextCleaner();
	const output = new OutputCollector();
	const updates = throttle(() => onUpdate?.(running(output.snapshot())), UPDATE_INTERVAL_MS);
	// Set once the shell has been told it may exit, or is being killed and must not be written to.
	let released = false;
	const dataListener = child.onData((data) => {
		const scan = marker.push(data);
		output.push(cleaner.push(scan.text));
		if (scan.done && !released) {
			released = true;
			// Everything before the marker has been read: the shell may exit now.
			child.write("\n");
		}
		if (onUpdate !== undefined && scan.text !== "") updates.request();
	});
	let exitListener: { dispose(): void } | undefined;
	const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => {
		exitListener = child.onExit(resolve);
	});

	const stops = new AbortController();
	const stopped = new Promise<Stop>((resolve) => {
		// setTimeout fires at once for delays past 2^31-1 ms; clamp so a huge timeout means "very long".
		const timer = setTimeout(() => resolve("timeout"), Math.min(seconds * 1000, MAX_TIMER_MS));
		const onAbort = () => resolve("abort");
		signal?.addEventListener("abort", onAbort, { once: true });
		stops.signal.addEventListener("abort", () => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
		});
	});
	const first = await Promise.race([exited, stopped]);
	stops.abort();
	if (typeof first === "string") {
		released = true;
		await killProcessTree(child.pid, () => child.kill(), exited);
	}

	updates.cancel();
	dataListener.dispose();
	exitListener?.dispose();
	output.push(cleaner.push(marker.flush()) + cleaner.flush());
	output.close();
	const snapshot = output.snapshot();
	const text = joinParts(snapshot.text.replace(/\n+$/, ""), snapshot.note);

	if (first === "timeout") throw new Error(joinParts(text, `Command timed out after ${plural(seconds, "second")}`));
	if (first === "abort") throw new Error(joinParts(text, "Command aborted"));
	const failure = exitMessage(first.exitCode, first.signal);
	const body = joinParts(text === "" ? "(no output)" : text, failure);
	const withSignal = first.signal ? { signal: first.signal } : {};
	return {
		content: [{ type: "text", text: body }],
		details: { ...details(snapshot), state: "exited", exitCode: first.exitCode, ...withSignal },
	};
}

function exitMessage(exitCode: number, signal: number | undefined): string {
	if (signal) return `Command killed by signal ${signal}`;
	return exitCode === 0 ? "" : `Command exited with code ${exitCode}`;
}

function joinParts(...parts: string[]): string {
	return parts.filter((part) => part !== "").join("\n\n");
}

function running(snapshot: OutputSnapshot): AgentToolResult<BashDetails> {
	const text = joinParts(snapshot.text, snapshot.note);
	return { content: [{ type: "text", text }], details: { ...details(snapshot), state: "running" } };
}

function details(snapshot: OutputSnapshot): BashOutputDetails {
	const { truncated, totalLines, totalBytes, fullOutputPath } = snapshot;
	return fullOutputPath === undefined
		? { truncated, totalLines, totalBytes }
		: { truncated, totalLines, totalBytes, fullOutputPath };
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
