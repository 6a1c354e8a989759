import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ImageContent, Message, TextContent } from "@mariozechner/pi-ai";

/** A shell command the person ran directly (`!cmd`), recorded with its output. */
export interface BashExecutionMessage {
	role: "bashExecution";
	command: string;
	output: string;
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
	/** Kept in the session for the person, but never sent to the model. */
	excludeFromContext?: boolean;
	timestamp: number;
}

/** A message injected by an extension (also the migrated legacy `hookMessage`). */
export interface CustomMessage<T = unknown> {
	role: "custom";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
	timestamp: number;
}

/** The summary of a branch the person navigated away from. */
export interface BranchSummaryMessage {
	role: "branchSummary";
	summary: string;
	fromId: string;
	timestamp: number;
}

/** The summary that stands in for everything before a compaction's kept range. */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore: number;
	timestamp: number;
}

declare module "@mariozechner/pi-agent-core" {
	interface CustomAgentMessages {
		bashExecution: BashExecutionMessage;
		custom: CustomMessage;
		branchSummary: BranchSummaryMessage;
		compactionSummary: CompactionSummaryMessage;
	}
}

export const COMPACTION_SUMMARY_PREFIX =
	"The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
const BRANCH_SUMMARY_PREFIX =
	"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
const BRANCH_SUMMARY_SUFFIX = "</summary>";

function toEpochMs(timestamp: string): number {
	const ms = Date.parse(timestamp);
	return Number.isNaN(ms) ? 0 : ms;
}

/** A prompt the person typed, with any images pasted into it. */
export function createUserMessage(text: string, images: readonly ImageContent[] = []): AgentMessage {
	return { role: "user", content: [{ type: "text", text }, ...images], timestamp: Date.now() };
}

/** Builds the agent message for a `custom_message` entry. */
export function createCustomMessage<T>(
	customType: string,
	content: string | (TextContent | ImageContent)[],
	display: boolean,
	details: T | undefined,
	timestamp: string,
): CustomMessage<T> {
	const message: CustomMessage<T> = { role: "custom", customType, content, display, timestamp: toEpochMs(timestamp) };
	if (details !== undefined) message.details = details;
	return message;
}

/** Builds the agent message for a `branch_summary` entry. */
export function createBranchSummaryMessage(summary: string, fromId: string, timestamp: string): BranchSummaryMessage {
	return { role: "branchSummary", summary, fromId, timestamp: toEpochMs(timestamp) };
}

/** Builds the agent message that opens a compacted context. */
export function createCompactionSummaryMessage(
	summary: string,
	tokensBefore: number,
	timestamp: string,
): CompactionSummaryMessage {
	return { role: "compactionSummary", summary, tokensBefore, timestamp: toEpochMs(timestamp) };
}

/** Text the model sees for a direct shell execution. */
export function bashExecutionToText(message: BashExecutionMessage): string {
	let text = `Ran \`${message.command}\`\n`;
	text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
	if (message.cancelled) text += "\n\n(command cancelled)";
	else if (message.exitCode !== undefined && message.exitCode !== 0) {
		text += `\n\nCommand exited with code ${message.exitCode}`;
	}
	if (message.truncated && message.fullOutputPath)
		text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
	return text;
}

/** Converts session-level agent messages into the LLM message format. */
export function convertToLlm(messages: readonly AgentMessage[]): Message[] {
	const result: Message[] = [];
	for (const message of messages) {
		switch (message.role) {
			case "user":
			case "assistant":
			case "toolResult":
				result.push(message);
				break;
			case "bashExecution":
				if (!message.excludeFromContext) {
					result.push({
						role: "user",
						content: [{ type: "text", text: bashExecutionToText(message) }],
						timestamp: message.timestamp,
					});
				}
				break;
			case "custom": {
				const content =
					typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
				result.push({ role: "user", content, timestamp: message.timestamp });
				break;
			}
			case "branchSummary":
				result.push({
					role: "user",
					content: [{ type: "text", text: BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX }],
					timestamp: message.timestamp,
				});
				break;
			case "compactionSummary":
				result.push({
					role: "user",
					content: [{ type: "text", text: COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX }],
					timestamp: message.timestamp,
				});
				break;
			default: {
				const exhaustive: never = message;
				void exhaustive;
			}
		}
	}
	return result;
}

/** Anything shaped like a message, as read from a session line. */
export interface UserLike {
	role?: unknown;
	content?: unknown;
}

/** The text of a user message (string content, or its text blocks joined), or undefined. */
export function userMessageText(message: UserLike | undefined): string | undefined {
	if (message?.role !== "user") return undefined;
	if (typeof message.content === "string") return message.content;
	if (!Array.isArray(message.content)) return undefined;
	const parts: string[] = [];
	for (const block of message.content as { type?: unknown; text?: unknown }[]) {
		if (block?.type === "text" && typeof block.text === "string") parts.push(block.text);
	}
	return parts.length > 0 ? parts.join(" ") : undefined;
}
