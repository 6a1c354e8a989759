/** Session lines with big tool results and inline images, as older or imported sessions hold them. */
import { imageBlock } from "../helpers/messages.js";

const T = "2026-02-16T10:21:00.000Z";

/** A message entry line. */
export function messageLine(id: string, parentId: string | null, message: Record<string, unknown>): string {
	return JSON.stringify({ type: "message", id, parentId, timestamp: T, message });
}

/** A tool result whose content is the given blocks. */
export function toolResult(content: unknown[], seq = 1): Record<string, unknown> {
	return { role: "toolResult", toolCallId: `call_${seq}`, toolName: "read", content, isError: false, timestamp: seq };
}

/** A text of `bytes` UTF-8 bytes or a little more, different for each seed (accents and an emoji included). */
export function bigText(bytes: number, seed: number): string {
	const unit = `line ${seed}: déjà vu ✓ 😀 ${"abcdefghij".repeat(6)}\n`;
	return unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)));
}

/** An inline (not yet externalised) image block. */
export function inlineImage(bytes: number, seed: number): Record<string, unknown> {
	return { ...imageBlock(bytes, seed) };
}

/** A user message with text. */
export function userLine(id: string, parentId: string | null, text: string): string {
	return messageLine(id, parentId, { role: "user", content: [{ type: "text", text }], timestamp: 1 });
}
