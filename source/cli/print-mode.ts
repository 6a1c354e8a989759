import type { AgentMessage, ThinkingLevel } from "@mariozechner/pi-agent-core";
import { loadExtensions } from "../agent/extensions/loader.js";
import { ModelRegistry } from "../agent/models/model-registry.js";
import { parseThinkingLevel } from "../agent/models/thinking-levels.js";
import { buildSystemPrompt } from "../agent/system-prompt.js";
import { createCodingTools } from "../agent/tools/index.js";
import { AgentSession } from "../session/agent-session.js";
import { HistoryStorage } from "../session/history-storage.js";
import { createSessionManager, type SessionFlags } from "./session-setup.js";
import type { CliIo } from "./sessions-command.js";

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
		io.stderr(`Unknown model: ${flags.model}. Run xcsh --list-models to see the available ones.\n`);
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
	});
	if (flags.model) session.setModel(model);
	if (thinkingLevel) session.setThinkingLevel(thinkingLevel);
	let endsWithNewline = true;
	session.subscribe((event) => {
		if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
			io.stdout(event.assistantMessageEvent.delta);
			endsWithNewline = event.assistantMessageEvent.delta.endsWith("\n");
		} else if (event.type === "tool_execution_start") {
			io.stderr(`${describeToolCall(event.toolName, event.args as Record<string, unknown>)}\n`);
		} else if (event.type === "message_end" && event.message.role === "assistant" && !endsWithNewline) {
			io.stdout("\n");
			endsWithNewline = true;
		} else if (event.type === "error") {
			io.stderr(`xcsh: ${event.message}\n`);
		}
	});
	if (sessionManager.isPersisted()) {
		const history = HistoryStorage.open();
		history.add(prompt, io.cwd);
		await history.close();
	}
	try {
		await session.prompt(prompt);
	} finally {
		await session.dispose();
	}
	const answer = lastAssistant(session.messages);
	if (answer?.stopReason === "error") {
		io.stderr(`xcsh: ${answer.errorMessage ?? "the model returned an error"}\n`);
		return 1;
	}
	return 0;
}
