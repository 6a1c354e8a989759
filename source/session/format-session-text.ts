import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { entryMessage } from "./message-shape.js";
import type { StoredEntry } from "./types.js";

/** A tool as the dump shows it. */
export interface DumpTool {
	name: string;
	description: string;
	parameters: unknown;
}

/** What `formatSessionAsText` needs besides the entries. */
export interface DumpState {
	systemPrompt: string;
	model: string;
	thinkingLevel: string;
	tools: readonly DumpTool[];
}

function contentText(content: string | readonly { type: string; text?: string; mimeType?: string }[]): string {
	if (typeof content === "string") return content;
	return content.map((b) => (b.type === "text" ? (b.text ?? "") : `[image ${b.mimeType ?? ""}]`.trim())).join("\n");
}

function formatMessage(message: AgentMessage): string | undefined {
	switch (message.role) {
		case "user":
			return `## User\n\n${contentText(message.content)}`;
		case "assistant": {
			const parts = [`## Assistant (${message.provider}/${message.model})`];
			for (const block of message.content) {
				if (block.type === "text") parts.push(block.text);
				else if (block.type === "thinking") parts.push(`<thinking>\n${block.thinking}\n</thinking>`);
				else parts.push(`Tool call ${block.name} (${block.id}):\n${JSON.stringify(block.arguments, null, 2)}`);
			}
			if (message.stopReason === "aborted") parts.push("(aborted)");
			if (message.stopReason === "error") parts.push(`(error: ${message.errorMessage ?? "unknown"})`);
			return parts.join("\n\n");
		}
		case "toolResult":
			return `## Tool result: ${message.toolName}${message.isError ? " (error)" : ""}\n\n${contentText(message.content)}`;
		case "bashExecution":
			if (message.excludeFromContext) return undefined;
			return `## Bash\n\n$ ${message.command}\n${message.output}${message.exitCode ? `\n(exit code ${message.exitCode})` : ""}`;
		case "custom":
			return `## Custom (${message.customType})\n\n${contentText(message.content)}`;
		case "branchSummary":
			return `## Branch summary\n\n${message.summary}`;
		case "compactionSummary":
			return `## Compaction summary\n\n${message.summary}`;
		default:
			return undefined;
	}
}

function formatEntry(entry: StoredEntry): string | undefined {
	const message = entryMessage(entry);
	return message && formatMessage(message);
}

/**
 * The session as plain text for /dump: system prompt, model and thinking level, tools with their
 * parameters, then every message of the path. Empty when the path has no messages yet.
 */
export function formatSessionAsText(path: readonly StoredEntry[], state: DumpState): string {
	const body = path.map(formatEntry).filter((s): s is string => s !== undefined);
	if (body.length === 0) return "";
	const tools = state.tools.map(
		(t) => `### ${t.name}\n\n${t.description}\n\nParameters:\n${JSON.stringify(t.parameters, null, 2)}`,
	);
	return [
		`# System prompt\n\n${state.systemPrompt}`,
		`# Model\n\n${state.model} (thinking: ${state.thinkingLevel})`,
		`# Tools\n\n${tools.join("\n\n") || "(none)"}`,
		`# Conversation\n\n${body.join("\n\n")}`,
	].join("\n\n");
}
