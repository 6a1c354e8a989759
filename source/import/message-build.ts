import type {
	AssistantMessage,
	ImageContent,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
	ToolResultMessage,
	Usage,
	UserMessage,
} from "@mariozechner/pi-ai";
import type { PlanItem } from "./import-plan.js";
import { Interned, KeyColumn, KeyTable } from "./key-table.js";
import { epochMs } from "./source-lines.js";

/** Token counts as the source gave them (missing ones are 0). */
export interface TokenCounts {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
}

function count(value: number | undefined): number {
	return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** pi-ai usage from token counts (the source never says what they cost, so cost is 0). */
export function usageOf(tokens: TokenCounts = {}): Usage {
	const input = count(tokens.input);
	const output = count(tokens.output);
	const cacheRead = count(tokens.cacheRead);
	const cacheWrite = count(tokens.cacheWrite);
	return {
		input,
		output,
		cacheRead,
		cacheWrite,
		totalTokens: input + output + cacheRead + cacheWrite,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** A user message with the given blocks (a lone text block stays a block, as xcsh writes them). */
export function userOf(content: (TextContent | ImageContent)[], timestamp: string): UserMessage {
	return { role: "user", content, timestamp: epochMs(timestamp) };
}

/** What an assistant message is built from. */
export interface AssistantParts {
	content: (TextContent | ThinkingContent | ToolCall)[];
	api: string;
	provider: string;
	model: string;
	tokens?: TokenCounts;
	stopReason?: StopReason;
	errorMessage?: string;
	timestamp: string;
}

/** An assistant message in pi-ai's shape. */
export function assistantOf(parts: AssistantParts): AssistantMessage {
	const message: AssistantMessage = {
		role: "assistant",
		content: parts.content,
		api: parts.api,
		provider: parts.provider,
		model: parts.model,
		usage: usageOf(parts.tokens),
		stopReason: parts.stopReason ?? (parts.content.some((b) => b.type === "toolCall") ? "toolUse" : "stop"),
		timestamp: epochMs(parts.timestamp),
	};
	if (parts.errorMessage !== undefined) message.errorMessage = parts.errorMessage;
	return message;
}

/** A tool result answering `toolCallId`. */
export function toolResultOf(
	toolCallId: string,
	toolName: string,
	content: (TextContent | ImageContent)[],
	isError: boolean,
	timestamp: string,
): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content, isError, timestamp: epochMs(timestamp) };
}

/** Text as a text block list ([] for empty text). */
export function textBlocks(text: string): TextContent[] {
	return text === "" ? [] : [{ type: "text", text }];
}

/** Tool arguments as an object: JSON strings are parsed, anything else is wrapped. */
export function argumentsOf(value: unknown): Record<string, unknown> {
	// Only text that opens an object can parse to one (a throw per free-form input cost as much as the line's parse).
	if (typeof value === "string") {
		if (!/^\s*\{/.test(value)) return { input: value };
		try {
			const parsed: unknown = JSON.parse(value);
			if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
				return parsed as Record<string, unknown>;
		} catch {
			// not JSON: a custom tool's free-form input
		}
		return { input: value };
	}
	if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
	return value === undefined ? {} : { value };
}

/**
 * Adds a `model_change` before each assistant message whose provider/model differs from the one
 * in effect on its branch (the first assistant message of a branch included), so the context
 * model is right wherever the person resumes. Items are fed in the source's order, all at once
 * (`withModelChanges`) or as they are read (a parent is always fed before its children).
 */
export class ModelChanges {
	/** The items' keys (a table the sink may number the same keys in). */
	readonly #keys: KeyTable;
	/** key → the model in effect there (a number of `#models`). */
	readonly #effective = new KeyColumn();
	readonly #models = new Interned();

	constructor(keys: KeyTable = new KeyTable()) {
		this.#keys = keys;
	}

	/** Sends the item to `out`, after the `model_change` it needs, if any. */
	feed(item: PlanItem, out: (item: PlanItem) => void): void {
		const number = item.parent === null ? -1 : this.#effective.get(this.#keys.indexOf(item.parent));
		const inherited = number < 0 ? undefined : this.#models.at(number);
		let parent = item.parent;
		let model = inherited;
		if (item.body.kind === "model") model = item.body.model;
		else if (item.body.kind === "message" && item.body.message.role === "assistant") {
			const message = item.body.message;
			const wanted = `${message.provider}/${message.model}`;
			if (wanted !== inherited && message.model !== "") {
				const key = `${item.key}#model`;
				out({ key, parent, timestamp: item.timestamp, body: { kind: "model", model: wanted } });
				this.#effective.set(this.#keys.add(key), this.#models.numberOf(wanted));
				parent = key;
				model = wanted;
			}
		}
		out(parent === item.parent ? item : { ...item, parent });
		if (model !== undefined) this.#effective.set(this.#keys.add(item.key), this.#models.numberOf(model));
	}
}

/** The items with the `model_change`s they need (see `ModelChanges`). */
export function withModelChanges(items: readonly PlanItem[]): PlanItem[] {
	const changes = new ModelChanges();
	const out: PlanItem[] = [];
	const push = (item: PlanItem) => {
		out.push(item);
	};
	for (const item of items) changes.feed(item, push);
	return out;
}
