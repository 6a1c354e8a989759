import type { AgentMessage } from "@mariozechner/pi-agent-core";

const TOOL_RESULT_CHARS = 2000;

function clip(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max)}\n[… ${text.length - max} more characters]`;
}

function blocksText(content: string | readonly { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content.map((b) => (b.type === "text" ? (b.text ?? "") : `[${b.type}]`)).join("\n");
}

/** Renders messages as plain text for a summarising model, with tool output clipped. */
export function serializeConversation(messages: readonly AgentMessage[]): string {
	const parts: string[] = [];
	for (const message of messages) {
		switch (message.role) {
			case "user":
				parts.push(`[User]: ${blocksText(message.content)}`);
				break;
			case "assistant":
				for (const block of message.content) {
					if (block.type === "text") parts.push(`[Assistant]: ${block.text}`);
					else if (block.type === "thinking") parts.push(`[Assistant thinking]: ${block.thinking}`);
					else parts.push(`[Assistant tool call]: ${block.name}(${JSON.stringify(block.arguments)})`);
				}
				break;
			case "toolResult":
				parts.push(
					`[Tool result${message.isError ? " (error)" : ""}]: ${clip(blocksText(message.content), TOOL_RESULT_CHARS)}`,
				);
				break;
			case "bashExecution":
				parts.push(`[User ran]: $ ${message.command}\n${clip(message.output, TOOL_RESULT_CHARS)}`);
				break;
			case "custom":
				parts.push(`[Context from ${message.customType}]: ${blocksText(message.content)}`);
				break;
			case "branchSummary":
				parts.push(`[Summary of another branch]: ${message.summary}`);
				break;
			case "compactionSummary":
				parts.push(`[Summary of earlier conversation]: ${message.summary}`);
				break;
		}
	}
	return parts.join("\n\n");
}
