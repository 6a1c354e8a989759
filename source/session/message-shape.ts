import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "@mariozechner/pi-ai";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "./messages.js";
import type { StoredEntry } from "./types.js";

/*
 * The loader accepts any entry with a type (and, from v2 on, an id): a damaged or hand-edited file
 * can hold content that is a number, a summary that is an object, a tool call without a name. The
 * readers that show messages (Markdown, JSON, /dump, --collapse-tools) take them through here once,
 * so each can trust the types; a well-formed message comes out equal to what went in.
 */

type Block = TextContent | ImageContent | ThinkingContent | ToolCall;
type UserBlock = TextContent | ImageContent;
type AssistantBlock = TextContent | ThinkingContent | ToolCall;

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Any JSON value as display text: strings as they are, null and missing as "", the rest as JSON. */
export function asText(value: unknown): string {
	if (typeof value === "string") return value;
	if (value === undefined || value === null) return "";
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	// Never `${value}`: a parsed `{"toString":1}` throws when turned into a primitive.
	return JSON.stringify(value) ?? "";
}

function asBlock(value: unknown): Block | undefined {
	if (typeof value === "string") return { type: "text", text: value };
	if (typeof value === "number" || typeof value === "boolean") return { type: "text", text: String(value) };
	if (!isRecord(value) || typeof value.type !== "string") return undefined;
	switch (value.type) {
		case "text":
			return { ...value, type: "text", text: asText(value.text) };
		case "thinking":
			return { ...value, type: "thinking", thinking: asText(value.thinking) };
		case "toolCall":
			return {
				...value,
				type: "toolCall",
				id: asText(value.id),
				name: asText(value.name),
				arguments: isRecord(value.arguments) ? value.arguments : { value: value.arguments ?? null },
			};
		case "image":
			return { ...value, type: "image", data: asText(value.data), mimeType: asText(value.mimeType) };
		default:
			return { type: "text", text: `[${value.type}]` };
	}
}

function asBlocks(value: unknown): Block[] {
	const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
	return items.map(asBlock).filter((block): block is Block => block !== undefined);
}

function userBlocks(value: unknown): UserBlock[] {
	return asBlocks(value).map((b): UserBlock => (b.type === "text" || b.type === "image" ? b : blockAsText(b)));
}

function assistantBlocks(value: unknown): AssistantBlock[] {
	return asBlocks(value).map((b): AssistantBlock => (b.type === "image" ? blockAsText(b) : b));
}

function blockAsText(block: Block): TextContent {
	if (block.type === "thinking") return { type: "text", text: block.thinking };
	if (block.type === "toolCall") return { type: "text", text: `[tool call ${block.name}]` };
	return { type: "text", text: `[${block.type}]` };
}

/** Content of any shape: a string stays a string, anything else becomes blocks. */
function userContent(value: unknown): string | UserBlock[] {
	return typeof value === "string" ? value : userBlocks(value);
}

/** A message of any shape with the field types every reader relies on, or undefined for no known role. */
export function normalizeMessage(value: unknown): AgentMessage | undefined {
	if (!isRecord(value)) return undefined;
	const timestamp = typeof value.timestamp === "number" ? value.timestamp : 0;
	switch (value.role) {
		case "user":
			return { ...value, role: "user", content: userContent(value.content), timestamp };
		case "assistant":
			return {
				...(value as object as AgentMessage & { role: "assistant" }),
				content: assistantBlocks(value.content),
				provider: asText(value.provider),
				model: asText(value.model),
				...(value.errorMessage === undefined ? {} : { errorMessage: asText(value.errorMessage) }),
				timestamp,
			};
		case "toolResult":
			return {
				...value,
				role: "toolResult",
				toolCallId: asText(value.toolCallId),
				toolName: asText(value.toolName),
				content: userBlocks(value.content),
				isError: value.isError === true,
				timestamp,
			};
		case "bashExecution":
			return {
				...value,
				role: "bashExecution",
				command: asText(value.command),
				output: asText(value.output),
				exitCode: typeof value.exitCode === "number" ? value.exitCode : undefined,
				cancelled: value.cancelled === true,
				truncated: value.truncated === true,
				...(value.excludeFromContext === undefined ? {} : { excludeFromContext: value.excludeFromContext === true }),
				timestamp,
			};
		case "custom":
			return {
				...value,
				role: "custom",
				customType: asText(value.customType),
				content: userContent(value.content),
				display: value.display === true,
				timestamp,
			};
		case "branchSummary":
			return {
				...value,
				role: "branchSummary",
				summary: asText(value.summary),
				fromId: asText(value.fromId),
				timestamp,
			};
		case "compactionSummary":
			return {
				...value,
				role: "compactionSummary",
				summary: asText(value.summary),
				tokensBefore: typeof value.tokensBefore === "number" ? value.tokensBefore : 0,
				timestamp,
			};
		default:
			return undefined;
	}
}

/** The message an entry stands for, as the agent saw it (summaries and custom messages included), normalised. */
export function entryMessage(entry: StoredEntry): AgentMessage | undefined {
	const e = entry as StoredEntry & Record<string, unknown>;
	const timestamp = asText(e.timestamp);
	switch (entry.type) {
		case "message":
			return normalizeMessage(e.message);
		case "custom_message":
			return normalizeMessage(
				createCustomMessage(asText(e.customType), userContent(e.content), e.display === true, e.details, timestamp),
			);
		case "branch_summary":
			return normalizeMessage(createBranchSummaryMessage(asText(e.summary), asText(e.fromId), timestamp));
		case "compaction":
			return normalizeMessage(
				createCompactionSummaryMessage(
					asText(e.summary),
					typeof e.tokensBefore === "number" ? e.tokensBefore : 0,
					timestamp,
				),
			);
		default:
			return undefined;
	}
}
