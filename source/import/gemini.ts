import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "@mariozechner/pi-ai";
import { IMPORT_CUSTOM_TYPE, type ImportPlan, type ParseOptions, type PlanItem, SkipError } from "./import-plan.js";
import { argumentsOf, assistantOf, toolResultOf, userOf, withModelChanges } from "./message-build.js";
import { isoTime, isRecord, parseSourceLines, str } from "./source-lines.js";

/*
 * Gemini CLI chats (`~/.gemini/tmp/<sha256 of cwd>/chats/session-*.json|.jsonl`). The `.json` form is
 * one object with `messages[]`; the `.jsonl` form is a header line, message lines (a message id
 * seen again replaces the earlier snapshot) and `{"$set": …}` header patches. Linear. Tool calls
 * and their results live together on the `gemini` message. Gemini keeps no cwd, only its hash.
 *
 * The context follows Gemini CLI's own resume (`convertSessionToClientHistory` in
 * packages/core/src/utils/sessionUtils.ts of google-gemini/gemini-cli): info, error and warning
 * records and user lines that are slash commands or `?` help are not sent (kept as `custom`), and
 * a reply whose `content` repeats its `toolCalls` as `functionCall` parts sends each call once.
 */

type Json = Record<string, unknown>;

function partsOf(content: unknown): (TextContent | ImageContent)[] {
	if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
	if (!Array.isArray(content)) return [];
	const out: (TextContent | ImageContent)[] = [];
	for (const part of content.filter(isRecord)) {
		if (typeof part.text === "string") out.push({ type: "text", text: part.text });
		else if (isRecord(part.inlineData) && typeof part.inlineData.data === "string")
			out.push({ type: "image", data: part.inlineData.data, mimeType: str(part.inlineData.mimeType) ?? "image/png" });
		else out.push({ type: "text", text: JSON.stringify(part) });
	}
	return out;
}

/** A user line Gemini CLI never sends back on resume: a slash command or `?` help. */
function isCommandLine(content: unknown): boolean {
	const text = partsOf(content)
		.map((part) => (part.type === "text" ? part.text : ""))
		.join("")
		.trim();
	return text.startsWith("/") || text.startsWith("?");
}

/** A call's identity when `content` repeats it without an id (name and arguments). */
function callPrint(name: unknown, args: unknown): string {
	return `${str(name) ?? ""}:${JSON.stringify(args ?? {})}`;
}

/**
 * A reply's `content` parts: text, thoughts (`thought: true`) as thinking, and `functionCall`
 * parts that its `toolCalls` do not already hold (those are sent once, from `toolCalls`).
 */
function replyParts(content: unknown, calls: Json[]): (TextContent | ThinkingContent | ToolCall)[] {
	if (!Array.isArray(content)) return partsOf(content).filter((part) => part.type === "text");
	const ids = new Set(calls.map((call) => str(call.id)).filter((id) => id !== undefined));
	const prints = new Set(calls.map((call) => callPrint(call.name, call.args)));
	const out: (TextContent | ThinkingContent | ToolCall)[] = [];
	for (const part of content) {
		if (isRecord(part) && isRecord(part.functionCall)) {
			const call = part.functionCall;
			const id = str(call.id);
			if ((id !== undefined && ids.has(id)) || prints.has(callPrint(call.name, call.args))) continue;
			out.push({ type: "toolCall", id: id ?? "", name: str(call.name) ?? "", arguments: argumentsOf(call.args) });
		} else if (isRecord(part) && part.thought === true && typeof part.text === "string")
			out.push({ type: "thinking", thinking: part.text });
		else for (const block of partsOf([part])) if (block.type === "text") out.push(block);
	}
	return out;
}

function resultText(call: Json): string {
	const results = Array.isArray(call.result) ? call.result.filter(isRecord) : [];
	const texts: string[] = [];
	for (const result of results) {
		const response = isRecord(result.functionResponse) ? result.functionResponse.response : undefined;
		if (isRecord(response) && typeof response.output === "string") texts.push(response.output);
		else if (isRecord(response)) texts.push(JSON.stringify(response));
		else if (typeof result.text === "string") texts.push(result.text);
	}
	if (texts.length === 0 && typeof call.resultDisplay === "string") texts.push(call.resultDisplay);
	return texts.join("\n");
}

function messageItems(message: Json, tip: string | null, items: PlanItem[]): string | null {
	const key = str(message.id) ?? `M${items.length}`;
	const time = isoTime(message.timestamp) ?? new Date(0).toISOString();
	if (message.type === "user" && !isCommandLine(message.content)) {
		items.push({
			key,
			parent: tip,
			timestamp: time,
			body: { kind: "message", message: userOf(partsOf(message.content), time) },
		});
		return key;
	}
	if (message.type !== "gemini") {
		items.push({
			key,
			parent: tip,
			timestamp: time,
			body: { kind: "custom", customType: IMPORT_CUSTOM_TYPE, data: message },
		});
		return key;
	}
	const content: (TextContent | ThinkingContent | ToolCall)[] = [];
	for (const thought of Array.isArray(message.thoughts) ? message.thoughts.filter(isRecord) : []) {
		const subject = str(thought.subject);
		const text = [subject ? `**${subject}**` : undefined, str(thought.description)].filter(Boolean).join("\n");
		content.push({ type: "thinking", thinking: text });
	}
	const calls = Array.isArray(message.toolCalls) ? message.toolCalls.filter(isRecord) : [];
	content.push(...replyParts(message.content, calls));
	for (const call of calls)
		content.push({
			type: "toolCall",
			id: str(call.id) ?? "",
			name: str(call.name) ?? "",
			arguments: argumentsOf(call.args),
		});
	const tokens = isRecord(message.tokens) ? message.tokens : {};
	const input = typeof tokens.input === "number" ? tokens.input : 0;
	const cached = typeof tokens.cached === "number" ? tokens.cached : 0;
	const assistant = assistantOf({
		content,
		api: "google-generative-ai",
		provider: "google",
		model: str(message.model) ?? "",
		tokens: { input: input - cached, output: tokens.output as number, cacheRead: cached },
		timestamp: time,
	});
	items.push({ key, parent: tip, timestamp: time, body: { kind: "message", message: assistant } });
	let parent = key;
	for (const [i, call] of calls.entries()) {
		const resultKey = `${key}#${i}`;
		const at = isoTime(call.timestamp) ?? time;
		const result = toolResultOf(
			str(call.id) ?? "",
			str(call.name) ?? "",
			[{ type: "text", text: resultText(call) }],
			call.status === "error",
			at,
		);
		items.push({ key: resultKey, parent, timestamp: at, body: { kind: "message", message: result } });
		parent = resultKey;
	}
	return parent;
}

function readChat(text: string): { header: Json; messages: Json[]; badLines: number[] } {
	const trimmed = text.trimStart();
	if (trimmed.startsWith("{") && !trimmed.includes("\n{")) {
		// The single-object .json form (pretty-printed: no line starts with a brace).
		const parsed: unknown = JSON.parse(trimmed);
		if (!isRecord(parsed)) throw new SkipError("not a Gemini chat object");
		const messages = Array.isArray(parsed.messages) ? parsed.messages.filter(isRecord) : [];
		return { header: parsed, messages, badLines: [] };
	}
	const { lines, badLines } = parseSourceLines(text);
	const header: Json = { ...(lines[0]?.value ?? {}) };
	const byId = new Map<string, Json>();
	for (const { value } of lines.slice(1)) {
		if (isRecord(value.$set)) Object.assign(header, value.$set);
		else if (typeof value.id === "string") {
			// A later snapshot of a message replaces it, in the place the message first took.
			byId.set(value.id, value);
		}
	}
	return { header, messages: [...byId.values()], badLines };
}

/** Reads a Gemini CLI chat (`.json` or `.jsonl`) into a plan; the project is `--cwd` or the current directory. */
export function parseGemini(text: string, sourcePath: string, options: ParseOptions): ImportPlan {
	let chat: ReturnType<typeof readChat>;
	try {
		chat = readChat(text);
	} catch (error) {
		if (error instanceof SkipError) throw error;
		throw new SkipError("not valid JSON");
	}
	const { header, messages, badLines } = chat;
	if (typeof header.sessionId !== "string") throw new SkipError("no Gemini sessionId");
	const items: PlanItem[] = [];
	let tip: string | null = null;
	for (const message of messages) tip = messageItems(message, tip, items);
	const startedAt = isoTime(header.startTime) ?? items[0]?.timestamp ?? new Date(0).toISOString();
	return {
		tool: "gemini",
		sourcePath,
		sourceId: header.sessionId,
		cwd: options.fallbackCwd,
		cwdOrigin: options.cwdGiven ? "--cwd" : "current directory",
		...(typeof header.summary === "string" ? { title: header.summary } : {}),
		startedAt,
		items: withModelChanges(items),
		badLines,
	};
}
