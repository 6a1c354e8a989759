/** Tolerant readers of message content: a session file may hold shapes an older or foreign writer made. */

/** A text or image block of a message, as the trajectory formats need it. */
export type ContentPart = { kind: "text"; text: string } | { kind: "image"; data: string; mimeType: string };

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The text and image parts of a message's content (a plain string is one text part). */
export function contentParts(content: unknown): ContentPart[] {
	if (typeof content === "string") return content.length > 0 ? [{ kind: "text", text: content }] : [];
	if (!Array.isArray(content)) return [];
	const parts: ContentPart[] = [];
	for (const block of content) {
		if (!isRecord(block)) continue;
		if (block.type === "text" && typeof block.text === "string") parts.push({ kind: "text", text: block.text });
		else if (block.type === "image" && typeof block.data === "string")
			parts.push({
				kind: "image",
				data: block.data,
				mimeType: typeof block.mimeType === "string" ? block.mimeType : "image/png",
			});
	}
	return parts;
}

/** The parts as one text, an image as `[image: <type>]` where the format has no place for it. */
export function partsText(parts: readonly ContentPart[]): string {
	return parts.map((part) => (part.kind === "text" ? part.text : `[image: ${part.mimeType}]`)).join("\n");
}

/** A tool call of an assistant message. */
export interface CallPart {
	id: string;
	name: string;
	arguments: Record<string, unknown>;
}

/** An assistant message's text, thinking and tool calls. */
export interface AssistantParts {
	text: string;
	thinking: string;
	calls: CallPart[];
}

/** Splits an assistant message's content blocks into its text, its thinking and its tool calls. */
export function assistantParts(content: unknown): AssistantParts {
	const texts: string[] = [];
	const thinking: string[] = [];
	const calls: CallPart[] = [];
	for (const block of Array.isArray(content) ? content : []) {
		if (!isRecord(block)) continue;
		if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
		else if (block.type === "thinking" && typeof block.thinking === "string" && block.redacted !== true)
			thinking.push(block.thinking);
		else if (block.type === "toolCall" && typeof block.id === "string" && typeof block.name === "string")
			calls.push({ id: block.id, name: block.name, arguments: isRecord(block.arguments) ? block.arguments : {} });
	}
	if (typeof content === "string") texts.push(content);
	return { text: texts.join("\n\n"), thinking: thinking.join("\n\n"), calls };
}

/** A number field of a record, 0 when absent or not a finite number. */
export function numberOf(record: unknown, key: string): number {
	const value = isRecord(record) ? record[key] : undefined;
	return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** The record itself when it is a plain object. */
export function recordOf(value: unknown): Record<string, unknown> | undefined {
	return isRecord(value) ? value : undefined;
}
