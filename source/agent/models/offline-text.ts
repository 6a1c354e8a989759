import type { Context, Message } from "@mariozechner/pi-ai";

/** The plain text of a user or tool-result message; images become `[image]` so they still count. */
export function messageText(message: Message): string {
	if (typeof message.content === "string") return message.content;
	if (message.role === "assistant") {
		return message.content
			.map((block) => {
				if (block.type === "text") return block.text;
				if (block.type === "thinking") return block.thinking;
				return `${block.name}(${JSON.stringify(block.arguments)})`;
			})
			.join("\n");
	}
	return message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
}

/** How many images a user message carries. */
export function imageCount(message: Message): number {
	if (message.role !== "user" || typeof message.content === "string") return 0;
	return message.content.filter((block) => block.type === "image").length;
}

/** `text` on one line, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 120): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** "1 line" / "3 lines": the offline model's replies are read by people, so get plurals right. */
export function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The whole context as one string: the basis of token estimates and deterministic ids. */
export function serializeContext(context: Context): string {
	const parts = context.systemPrompt ? [`system:${context.systemPrompt}`] : [];
	for (const message of context.messages) parts.push(`${message.role}:${messageText(message)}`);
	if (context.tools?.length) parts.push(`tools:${context.tools.map((tool) => tool.name).join(",")}`);
	return parts.join("\n\n");
}

/** Rough token count (4 characters a token), the same rule pi-ai's faux provider uses. */
export function estimateTokens(text: string): number {
	return Math.ceil(text.length / 4);
}

/** FNV-1a, hex: a stable short hash so the same context always yields the same tool-call id. */
export function stableHash(text: string): string {
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16).padStart(8, "0");
}

/** Splits text into word-aligned chunks (three words each) so deltas look like a real model's. */
export function chunkText(text: string): string[] {
	const words = text.match(/\s*\S+\s*/g) ?? [];
	const chunks: string[] = [];
	for (let index = 0; index < words.length; index += 3) chunks.push(words.slice(index, index + 3).join(""));
	return chunks.length > 0 ? chunks : [text];
}
