import { userMessageText } from "../session/messages.js";

/** The message roles the index holds text for. */
export type IndexedRole = "user" | "assistant" | "toolResult";

/** One searchable piece of a session: the text of a message entry. */
export interface IndexedText {
	entryId: string | null;
	role: IndexedRole;
	/** Epoch milliseconds. */
	timestamp: number;
	text: string;
}

interface Block {
	type?: unknown;
	text?: unknown;
	name?: unknown;
	arguments?: unknown;
}

interface MessageLike {
	role?: unknown;
	content?: unknown;
	timestamp?: unknown;
	toolName?: unknown;
}

const FIRST_PROMPT_CHARS = 200;
/**
 * Tool results are indexed by their first 2 KB and last 1 KB (where commands print their errors),
 * tool calls by their name and first 1 KB of arguments (the path, the command, the pattern):
 * beyond that they are file dumps, logs and file contents being written, whose words the prompts
 * and answers around them repeat, and tokenising them whole would halve the index's build speed.
 */
const TOOL_RESULT_HEAD_CHARS = 2048;
const TOOL_RESULT_TAIL_CHARS = 1024;
const TOOL_CALL_ARGUMENT_CHARS = 1024;

function toolResultExcerpt(text: string): string {
	if (text.length <= TOOL_RESULT_HEAD_CHARS + TOOL_RESULT_TAIL_CHARS) return text;
	return `${text.slice(0, TOOL_RESULT_HEAD_CHARS)}\n…\n${text.slice(-TOOL_RESULT_TAIL_CHARS)}`;
}

function blocksOf(content: unknown): Block[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? (content as Block[]).filter((b) => typeof b === "object" && b !== null) : [];
}

function textOf(block: Block): string | undefined {
	return block.type === "text" && typeof block.text === "string" ? block.text : undefined;
}

// A tool call is searchable by its name and its arguments (file paths, commands, patterns).
function toolCallOf(block: Block): string | undefined {
	if (block.type !== "toolCall" || typeof block.name !== "string") return undefined;
	const args =
		block.arguments === undefined ? "" : ` ${JSON.stringify(block.arguments).slice(0, TOOL_CALL_ARGUMENT_CHARS)}`;
	return `${block.name}${args}`;
}

function messageText(message: MessageLike): string {
	const parts: string[] = [];
	for (const block of blocksOf(message.content)) {
		const part = message.role === "assistant" ? (textOf(block) ?? toolCallOf(block)) : textOf(block);
		if (part !== undefined && part.trim().length > 0) parts.push(part);
	}
	return parts.join("\n");
}

function isIndexedRole(role: unknown): role is IndexedRole {
	return role === "user" || role === "assistant" || role === "toolResult";
}

function timestampOf(entry: Record<string, unknown>, message: MessageLike): number {
	const parsed = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
	if (!Number.isNaN(parsed)) return parsed;
	return typeof message.timestamp === "number" ? message.timestamp : 0;
}

/** The searchable text of a parsed entry line, or undefined when it holds none (thinking is left out). */
export function indexedTextOf(entry: Record<string, unknown>): IndexedText | undefined {
	if (entry.type !== "message") return undefined;
	const message = entry.message as MessageLike | undefined;
	if (typeof message !== "object" || message === null || !isIndexedRole(message.role)) return undefined;
	const full = messageText(message);
	const text = message.role === "toolResult" ? toolResultExcerpt(full) : full;
	if (text.length === 0) return undefined;
	const entryId = typeof entry.id === "string" ? entry.id : null;
	return { entryId, role: message.role, timestamp: timestampOf(entry, message), text };
}

/** The first user prompt of an entry as one short line, for listings. */
export function promptOf(entry: Record<string, unknown>): string | undefined {
	if (entry.type !== "message") return undefined;
	const text = userMessageText(entry.message as MessageLike | undefined);
	if (text === undefined) return undefined;
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > 0 ? line.slice(0, FIRST_PROMPT_CHARS) : undefined;
}

/** The timestamp of any entry in epoch milliseconds, or undefined. */
export function entryTime(entry: Record<string, unknown>): number | undefined {
	if (typeof entry.timestamp !== "string") return undefined;
	const ms = Date.parse(entry.timestamp);
	return Number.isNaN(ms) ? undefined : ms;
}
