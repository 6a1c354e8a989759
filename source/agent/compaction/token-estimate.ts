import type { AgentMessage } from "@mariozechner/pi-agent-core";

/** Images cost roughly this much in most providers' accounting. */
const IMAGE_TOKENS = 1200;

function textTokens(text: string): number {
	return Math.ceil(text.length / 4);
}

/** A rough token count for a message (chars / 4, images at a flat rate), good enough to plan compaction. */
export function estimateTokens(message: AgentMessage): number {
	switch (message.role) {
		case "user":
		case "toolResult":
		case "custom": {
			if (typeof message.content === "string") return textTokens(message.content);
			let total = 0;
			for (const block of message.content) total += block.type === "text" ? textTokens(block.text) : IMAGE_TOKENS;
			return total;
		}
		case "assistant": {
			let total = 0;
			for (const block of message.content) {
				if (block.type === "text") total += textTokens(block.text);
				else if (block.type === "thinking") total += textTokens(block.thinking);
				else total += textTokens(block.name + JSON.stringify(block.arguments));
			}
			return total;
		}
		case "bashExecution":
			return textTokens(message.command + message.output);
		case "branchSummary":
		case "compactionSummary":
			return textTokens(message.summary);
		default:
			return 0;
	}
}

/** Tokens the model saw for the context that produced this assistant message, when the provider reported them. */
function reportedContextTokens(message: AgentMessage): number | undefined {
	if (message.role !== "assistant" || message.stopReason === "error" || message.stopReason === "aborted")
		return undefined;
	const usage = message.usage;
	const total = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	return total > 0 ? total : undefined;
}

/**
 * The context size: the last reported usage plus estimates for what came after it. Usage reported
 * before the latest compaction measured the context the summary replaced, so it is not used.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): number {
	let compactedAt = Number.NEGATIVE_INFINITY;
	for (const message of messages) if (message.role === "compactionSummary") compactedAt = message.timestamp;
	let trailing = 0;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i]!;
		const reported = message.timestamp >= compactedAt ? reportedContextTokens(message) : undefined;
		if (reported !== undefined) return reported + trailing;
		trailing += estimateTokens(message);
	}
	return trailing;
}
