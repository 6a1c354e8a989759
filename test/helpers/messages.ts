import type { AssistantMessage, ImageContent, ToolResultMessage, UserMessage } from "@mariozechner/pi-ai";

let clock = 1_760_000_000_000;

/** A user message with text content. */
export function userMessage(text: string): UserMessage {
	return { role: "user", content: [{ type: "text", text }], timestamp: clock++ };
}

/** An assistant message as pi-ai produces it. */
export function assistantMessage(text: string, model = "claude-sonnet-4-5", provider = "anthropic"): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "anthropic-messages",
		provider,
		model,
		usage: {
			input: 100,
			output: 20,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 120,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: clock++,
	};
}

/** A tool result with text (and optionally image) content. */
export function toolResultMessage(text: string, images: ImageContent[] = []): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: `call_${clock}`,
		toolName: "read",
		content: [{ type: "text", text }, ...images],
		isError: false,
		timestamp: clock++,
	};
}

/** A PNG-looking image block whose base64 is `bytes` long-ish (deterministic content). */
export function imageBlock(byteLength: number, seed = 1): ImageContent {
	const bytes = Buffer.alloc(byteLength);
	for (let i = 0; i < byteLength; i++) bytes[i] = (i * 31 + seed * 17) & 0xff;
	return { type: "image", data: bytes.toString("base64"), mimeType: "image/png" };
}
