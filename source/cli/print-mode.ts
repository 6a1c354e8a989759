import { statfsSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentMessage, ThinkingLevel } from "@mariozechner/pi-agent-core";
import { loadExtensions } from "../agent/extensions/loader.js";
import { ModelRegistry } from "../agent/models/model-registry.js";
import { parseThinkingLevel } from "../agent/models/thinking-levels.js";
import { buildSystemPrompt } from "../agent/system-prompt.js";
import { createCodingTools } from "../agent/tools/index.js";
import { TurnCheckpoints } from "../checkpoints/turn-checkpoints.js";
import { safeLine, safeText } from "../render/safe-text.js";
import { AgentSession } from "../session/agent-session.js";
import { getHistoryDbPath, HistoryStorage } from "../session/history-storage.js";
import type { CliIo } from "./cli-io.js";
import { printCompaction } from "./print-compaction.js";
import { processTerminal } from "./read-progress.js";
import { createSessionManager, type SessionFlags } from "./session-setup.js";

/** Flags of `xcsh -p`. */
export interface PrintFlags extends SessionFlags {
	model: string | undefined;
	thinking: string | undefined;
	extension: string[];
}

function describeToolCall(name: string, args: Record<string, unknown>): string {
	if (name === "bash" && typeof args.command === "string") return `$ ${args.command}`;
	if (typeof args.path === "string") return `${name} ${args.path}`;
	return name;
}

function lastAssistant(messages: readonly AgentMessage[]): Extract<AgentMessage, { role: "assistant" }> | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i]!;
		if (m.role === "assistant") return m;
	}
	return undefined;
}

/** Why the history database could not be written: SQLite says "disk I/O error" for a full disk. */
function historyFailure(path: string, error: unknown): string {
	let cause = error instanceof Error ? error.message : String(error);
	try {
		const fs = statfsSync(dirname(path));
		if (fs.bavail === 0) cause = `no space left on device (${cause})`;
	} catch {
		// the folder itself is missing or unreadable: SQLite's words stand
	}
	return `prompt history is off for this run: cannot write ${path}: ${cause}`;
}

/** Adds the prompt to history.db; a history that cannot be written is said once and skipped, never fatal. */
async function recordPrompt(prompt: string, io: CliIo): Promise<void> {
	const path = getHistoryDbPath();
	let history: HistoryStorage | undefined;
	try {
		history = HistoryStorage.open(path);
		history.add(prompt, io.cwd);
		await history.close();
	} catch (error) {
		io.stderr(`xcsh: ${historyFailure(path, error)}\n`);
		try {
			await history?.close();
		} catch {
			// already reported
		}
	}
}

/**
 * Runs one agent turn for a prompt (`xcsh -p`), streaming the answer to stdout and tool activity
 * to stderr, and persists the session like the TUI does. Returns the exit code.
 */
export async function runPrintMode(prompt: string, flags: PrintFlags, io: CliIo): Promise<number> {
	if (!prompt.trim()) {
		io.stderr('Nothing to send: give a prompt (xcsh -p "…") or pipe one on stdin.\n');
		return 2;
	}
	const registry = await ModelRegistry.load();
	for (const error of registry.configErrors()) io.stderr(`xcsh: ${error}\n`);
	const model = flags.model ? registry.find(flags.model) : registry.getDefault();
	if (!model) {
		const why = registry.missingKey(flags.model ?? "") ?? `Unknown model: ${flags.model}`;
		io.stderr(`${why}. Run xcsh --list-models to see the available ones.\n`);
		return 2;
	}
	let thinkingLevel: ThinkingLevel | undefined;
	if (flags.thinking !== undefined) {
		const parsed = parseThinkingLevel(flags.thinking);
		if (!parsed.ok) {
			io.stderr(`${parsed.error}\n`);
			return 2;
		}
		thinkingLevel = parsed.level;
	}
	const sessionManager = await createSessionManager(flags, io.cwd, undefined, (text) => io.stderr(`xcsh: ${text}\n`));
	const extensions = await loadExtensions(flags.extension, io.cwd);
	for (const error of extensions.errors) io.stderr(`xcsh: extension ${error.extension}: ${error.message}\n`);
	const tools = createCodingTools(sessionManager.getCwd());
	const session = await AgentSession.create({
		sessionManager,
		models: registry,
		model,
		...(thinkingLevel ? { thinkingLevel } : {}),
		tools,
		extensions,
		systemPrompt: buildSystemPrompt({ cwd: sessionManager.getCwd(), tools }),
		turnHooks: new TurnCheckpoints(sessionManager, (text) => io.stderr(`xcsh: ${text}\n`)),
	});
	if (flags.model) session.setModel(model);
	if (thinkingLevel) session.setThinkingLevel(thinkingLevel);
	let endsWithNewline = true;
	session.subscribe(
		printCompaction(
			processTerminal(),
			(line) => io.stderr(`xcsh: ${line}\n`),
			() => void session.abort(),
		),
	);
	session.subscribe((event) => {
		if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
			// The model can repeat what a tool read: controls in it must not drive the terminal.
			io.stdout(safeText(event.assistantMessageEvent.delta));
			endsWithNewline = event.assistantMessageEvent.delta.endsWith("\n");
		} else if (event.type === "tool_execution_start") {
			io.stderr(`${safeLine(describeToolCall(event.toolName, event.args as Record<string, unknown>))}\n`);
		} else if (event.type === "message_end" && event.message.role === "assistant" && !endsWithNewline) {
			io.stdout("\n");
			endsWithNewline = true;
		} else if (event.type === "error") {
			io.stderr(`xcsh: ${safeText(event.message)}\n`);
		}
	});
	if (sessionManager.isPersisted()) await recordPrompt(prompt, io);
	try {
		await session.prompt(prompt);
	} finally {
		await session.dispose();
	}
	const answer = lastAssistant(session.messages);
	if (answer?.stopReason === "error") {
		io.stderr(`xcsh: ${safeText(answer.errorMessage ?? "the model returned an error")}\n`);
		return 1;
	}
	return 0;
}
