/// <reference lib="dom" />
import { arr, type Rec, rec, str } from "./data.js";

/** One block of message content, normalised. */
export type Block =
	| { readonly kind: "text"; readonly text: string }
	| { readonly kind: "thinking"; readonly text: string; readonly redacted: boolean }
	| { readonly kind: "toolCall"; readonly id: string; readonly name: string; readonly args: unknown }
	| { readonly kind: "image"; readonly mimeType: string; readonly data: string };

/** `content` as blocks: a bare string is one text block, unknown blocks are dropped. */
export function blocksOf(content: unknown): Block[] {
	if (typeof content === "string") return [{ kind: "text", text: content }];
	const blocks: Block[] = [];
	for (const item of arr(content)) {
		const block = rec(item);
		if (!block) continue;
		switch (block.type) {
			case "text":
				blocks.push({ kind: "text", text: str(block.text) ?? "" });
				break;
			case "thinking":
				blocks.push({ kind: "thinking", text: str(block.thinking) ?? "", redacted: block.redacted === true });
				break;
			case "toolCall":
				blocks.push({
					kind: "toolCall",
					id: str(block.id) ?? "",
					name: str(block.name) ?? "tool",
					args: block.arguments,
				});
				break;
			case "image":
				blocks.push({ kind: "image", mimeType: str(block.mimeType) ?? "", data: str(block.data) ?? "" });
				break;
		}
	}
	return blocks;
}

/** The plain text of `content` (text blocks only), for previews and search. */
export function plainText(content: unknown): string {
	if (typeof content === "string") return content;
	let text = "";
	for (const item of arr(content)) {
		const block = rec(item);
		if (block?.type === "text" && typeof block.text === "string") text += text ? `\n${block.text}` : block.text;
	}
	return text;
}

/** The message of a `message` entry. */
export function messageOf(entry: { readonly type: string; readonly raw: Rec }): Rec | undefined {
	return entry.type === "message" ? rec(entry.raw.message) : undefined;
}

/** The role of a `message` entry ("" for other entries). */
export function roleOf(entry: { readonly type: string; readonly raw: Rec }): string {
	return str(messageOf(entry)?.role) ?? "";
}

const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A data: URL for an image block, only for raster types and real base64 (an SVG could carry script). */
export function imageDataUrl(mimeType: string, data: string): string | undefined {
	if (!IMAGE_TYPES.has(mimeType) || !BASE64.test(data)) return undefined;
	return `data:${mimeType};base64,${data}`;
}

/** Arguments of a tool call as text: JSON, pretty-printed. */
export function argsText(args: unknown): string {
	if (args === undefined) return "";
	try {
		return JSON.stringify(args, null, 2) ?? "";
	} catch {
		return String(args);
	}
}

/** A one-line summary of tool arguments: the usual path/command field, else compact JSON. */
export function argsSummary(args: unknown): string {
	const record = rec(args);
	if (record) {
		for (const key of ["command", "path", "file_path", "pattern", "url", "query"]) {
			const value = str(record[key]);
			if (value !== undefined) return value;
		}
	}
	try {
		return JSON.stringify(args) ?? "";
	} catch {
		return "";
	}
}
