import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "@mariozechner/pi-ai";
import { isRecord, str } from "./source-lines.js";

// Claude Code's content blocks (Anthropic Messages API blocks) as pi-ai content.

/** One content block of a Claude Code message, as read. */
export type Block = Record<string, unknown>;

/** Assistant content in pi-ai's shape. */
export type AssistantBlock = TextContent | ThinkingContent | ToolCall;

/** A message's content as blocks (a string is one text block). */
export function blocksOf(content: unknown): Block[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? content.filter(isRecord) : [];
}

function imageOf(block: Block): ImageContent | undefined {
	const source = isRecord(block.source) ? block.source : undefined;
	if (source?.type !== "base64" || typeof source.data !== "string") return undefined;
	return { type: "image", data: source.data, mimeType: str(source.media_type) ?? "image/png" };
}

/** The text and image blocks of a user message (tool results are read on their own). */
export function userBlocksOf(blocks: Block[]): (TextContent | ImageContent)[] {
	const out: (TextContent | ImageContent)[] = [];
	for (const block of blocks) {
		if (block.type === "text" && typeof block.text === "string") out.push({ type: "text", text: block.text });
		else if (block.type === "image") {
			const image = imageOf(block);
			if (image) out.push(image);
		}
	}
	return out;
}

/** A tool result's content (a string, or text and image blocks). */
export function toolResultContent(content: unknown): (TextContent | ImageContent)[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return userBlocksOf(blocksOf(content));
}

/** The text of a message's content (its text blocks, joined). */
export function textOfContent(content: unknown): string {
	return userBlocksOf(blocksOf(content))
		.map((block) => (block.type === "text" ? block.text : ""))
		.join("\n");
}

/** An assistant line's blocks in pi-ai's shape. */
export function assistantBlocksOf(blocks: Block[]): AssistantBlock[] {
	const out: AssistantBlock[] = [];
	for (const block of blocks) {
		switch (block.type) {
			case "text":
				out.push({ type: "text", text: str(block.text) ?? "" });
				break;
			case "thinking": {
				const thinking: ThinkingContent = { type: "thinking", thinking: str(block.thinking) ?? "" };
				if (typeof block.signature === "string") thinking.thinkingSignature = block.signature;
				out.push(thinking);
				break;
			}
			case "redacted_thinking":
				out.push({ type: "thinking", thinking: "", thinkingSignature: str(block.data) ?? "", redacted: true });
				break;
			case "tool_use":
				out.push({
					type: "toolCall",
					id: str(block.id) ?? "",
					name: str(block.name) ?? "",
					arguments: isRecord(block.input) ? block.input : {},
				});
				break;
		}
	}
	return out;
}

/** Claude Code's stop reasons in pi-ai's terms. */
export const STOP: Readonly<Record<string, "stop" | "length" | "toolUse">> = {
	end_turn: "stop",
	stop_sequence: "stop",
	max_tokens: "length",
	tool_use: "toolUse",
};
