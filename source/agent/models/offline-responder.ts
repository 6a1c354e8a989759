import type { Context, Message, ToolResultMessage } from "@mariozechner/pi-ai";
import { describeModelSetup } from "./model-setup.js";
import { isSummarizationRequest, summarizeConversation } from "./offline-summary.js";
import { imageCount, messageText, oneLine, plural, serializeContext, stableHash } from "./offline-text.js";

/** One block of the offline model's reply, in the order it is streamed. */
export type OfflineBlock =
	| { readonly type: "thinking"; readonly thinking: string }
	| { readonly type: "text"; readonly text: string }
	| {
			readonly type: "toolCall";
			readonly id: string;
			readonly name: string;
			readonly arguments: Record<string, unknown>;
	  };

/** The offline model's complete answer to a context. */
export interface OfflineReply {
	readonly blocks: readonly OfflineBlock[];
	readonly stopReason: "stop" | "toolUse";
}

/** A tool the user's words ask for. */
type ToolIntent =
	| { readonly tool: "bash"; readonly command: string }
	| { readonly tool: "read"; readonly path: string };

/** How many lines of a tool result the summary quotes. */
const QUOTED_LINES = 5;

/** `run <cmd>` or `$ <cmd>` at the start of the message. */
const RUN_COMMAND = /^\s*(?:run|\$)\s+(.+)$/is;
/** A read verb followed by something path-like: `read README.md`, `show the file src/a.ts`, `cat "a b.txt"`. */
const READ_PATH =
	/\b(?:read|show|open|cat|view|print)\s+(?:me\s+)?(?:the\s+)?(?:file\s+)?(?:`([^`]+)`|"([^"]+)"|'([^']+)'|(\S+))/i;
const LIST_FILES = /\b(?:list(?:\s+(?:the|all|my))?\s+files|what\s+files|which\s+files|ls)\b/i;

function looksLikePath(candidate: string): boolean {
	return /[./\\]/.test(candidate) && !/^https?:/i.test(candidate) && /[A-Za-z0-9]/.test(candidate);
}

/** Reads the user's words for a tool request; exported for tests. */
export function detectToolIntent(text: string): ToolIntent | undefined {
	const run = RUN_COMMAND.exec(text);
	if (run?.[1]) return { tool: "bash", command: run[1].trim() };
	const read = READ_PATH.exec(text);
	const raw = read ? (read[1] ?? read[2] ?? read[3] ?? read[4]) : undefined;
	// Trailing sentence punctuation belongs to the sentence, not the file name ("read README.md.").
	const path = raw?.trim().replace(/[.,;:!?)]+$/, "");
	if (path && looksLikePath(path)) return { tool: "read", path };
	if (LIST_FILES.test(text)) return { tool: "bash", command: /^\s*ls(\s|$)/.test(text) ? text.trim() : "ls -la" };
	return undefined;
}

function intentArguments(intent: ToolIntent): Record<string, unknown> {
	return intent.tool === "bash" ? { command: intent.command } : { path: intent.path };
}

function describeIntent(intent: ToolIntent): string {
	return intent.tool === "bash" ? `run \`${intent.command}\` with the bash tool` : `read \`${intent.path}\``;
}

function trailingToolResults(messages: readonly Message[]): ToolResultMessage[] {
	const results: ToolResultMessage[] = [];
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if (message?.role !== "toolResult") break;
		results.unshift(message);
	}
	return results;
}

function summarizeToolResult(result: ToolResultMessage): string {
	const text = messageText(result).replace(/\s+$/, "");
	const lines = text.length > 0 ? text.split("\n") : [];
	const head = `The \`${result.toolName}\` tool ${result.isError ? "failed" : "returned"} ${plural(lines.length, "line")}`;
	if (lines.length === 0) return `${head}.`;
	const quoted = lines.slice(0, QUOTED_LINES).join("\n");
	const rest = lines.length > QUOTED_LINES ? `\n… ${plural(lines.length - QUOTED_LINES, "more line")}.` : "";
	return `${head}:\n\n\`\`\`\n${quoted}\n\`\`\`${rest}`;
}

function promptSummary(message: Message | undefined): string {
	if (!message) return "You have not said anything yet.";
	const text = messageText(message);
	const words = text.split(/\s+/).filter(Boolean).length;
	const images = imageCount(message);
	const extra = images > 0 ? `, ${plural(images, "image")}` : "";
	return `You said: "${oneLine(text)}" (${plural(words, "word")}${extra}).`;
}

function offlineExplanation(lastUser: Message | undefined): string {
	return [
		"I'm the offline model built into xcsh. I run without a network or an API key and answer by rule, so I can't reason about your request.",
		"",
		promptSummary(lastUser),
		"",
		'I can still drive the tools: try "list files", "read README.md" or "run git status".',
		"",
		`${describeModelSetup()}.`,
	].join("\n");
}

function thinkingFor(context: Context, plan: string): OfflineBlock {
	const last = context.messages[context.messages.length - 1];
	const topic = last ? oneLine(messageText(last), 80) : "nothing yet";
	return {
		type: "thinking",
		thinking: `The latest message is about "${topic}". I am the offline model, so I will ${plan}.`,
	};
}

/** Decides, deterministically, how the offline model answers `context`. */
export function planOfflineReply(context: Context, options: { readonly thinking: boolean }): OfflineReply {
	const withThinking = (plan: string, blocks: OfflineBlock[], stopReason: OfflineReply["stopReason"] = "stop") => ({
		blocks: options.thinking ? [thinkingFor(context, plan), ...blocks] : blocks,
		stopReason,
	});
	const results = trailingToolResults(context.messages);
	if (results.length > 0) {
		return withThinking("summarise the tool output", [
			{ type: "text", text: results.map(summarizeToolResult).join("\n\n") },
		]);
	}
	if (isSummarizationRequest(context)) {
		return withThinking("list what was said", [{ type: "text", text: summarizeConversation(context) }]);
	}
	const lastUser = context.messages.findLast((message) => message.role === "user");
	const intent = lastUser ? detectToolIntent(messageText(lastUser)) : undefined;
	if (intent) {
		const available = context.tools?.some((tool) => tool.name === intent.tool) ?? false;
		if (!available) {
			const text = `I would ${describeIntent(intent)}, but this session has no \`${intent.tool}\` tool.`;
			return withThinking("explain that the tool is missing", [{ type: "text", text }]);
		}
		const id = `offline_${stableHash(serializeContext(context))}`;
		const call: OfflineBlock = { type: "toolCall", id, name: intent.tool, arguments: intentArguments(intent) };
		return withThinking(describeIntent(intent), [call], "toolUse");
	}
	return withThinking("explain what I am", [{ type: "text", text: offlineExplanation(lastUser) }]);
}
