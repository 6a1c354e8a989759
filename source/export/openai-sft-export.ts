import { convertToLlm } from "../session/messages.js";
import { messageOfEntry } from "../session/session-context.js";
import type { StoredEntry } from "../session/types.js";
import {
	type AssistantParts,
	assistantParts,
	type ContentPart,
	contentParts,
	partsText,
	recordOf,
} from "./message-parts.js";

/** A function the model may call, as the fine-tuning format lists it. */
export interface SftTool {
	type: "function";
	function: { name: string; description: string; parameters: Record<string, unknown> };
}

type UserContent = string | ({ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } })[];

/** A message of a fine-tuning example. */
export type SftMessage =
	| { role: "system"; content: string }
	| { role: "user"; content: UserContent }
	| {
			role: "assistant";
			content?: string;
			/** With `--thinking`: the model's reasoning, under the name open chat templates read it by. */
			reasoning_content?: string;
			tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
	  }
	| { role: "tool"; tool_call_id: string; content: string };

/** How one example is written. */
export interface SftOptions {
	/** The system prompt to put first, already redacted (`--system`), or undefined for none. */
	systemPrompt: string | undefined;
	/** `--thinking`: keep the assistant's reasoning. */
	thinking: boolean;
	/** The tool definitions the agent had, by name; a tool not among them gets a schema from its calls. */
	knownTools: ReadonlyMap<string, SftTool>;
}

type Call = NonNullable<Extract<SftMessage, { role: "assistant" }>["tool_calls"]>[number];

function userContent(parts: readonly ContentPart[]): UserContent {
	if (parts.every((part) => part.kind === "text")) return partsText(parts);
	return parts.map((part) =>
		part.kind === "text"
			? { type: "text" as const, text: part.text }
			: { type: "image_url" as const, image_url: { url: `data:${part.mimeType};base64,${part.data}` } },
	);
}

/** JSON Schema type names of the values a tool was called with. */
function schemaType(value: unknown): string {
	if (Array.isArray(value)) return "array";
	if (value === null) return "null";
	if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
	return typeof value === "object" ? "object" : typeof value;
}

/** Tools seen in calls; those the agent did not define get parameters from the arguments given. */
class ToolCatalog {
	readonly #seen = new Map<string, Map<string, Set<string>>>();

	constructor(private readonly known: ReadonlyMap<string, SftTool>) {}

	note(name: string, args: Record<string, unknown>): void {
		let fields = this.#seen.get(name);
		if (!fields) {
			fields = new Map();
			this.#seen.set(name, fields);
		}
		for (const [key, value] of Object.entries(args)) {
			const types = fields.get(key) ?? new Set<string>();
			types.add(schemaType(value));
			fields.set(key, types);
		}
	}

	/** The tools of the example: every one called, the agent's definition where it has one. */
	tools(): SftTool[] {
		return [...this.#seen].map(([name, fields]) => {
			const known = this.known.get(name);
			if (known) return known;
			const properties = Object.fromEntries(
				[...fields].map(([key, types]) => [key, types.size === 1 ? { type: [...types][0] } : { type: [...types] }]),
			);
			return { type: "function", function: { name, description: "", parameters: { type: "object", properties } } };
		});
	}
}

/**
 * Walks a path into chat messages. An assistant turn is held with its tool results until the turn
 * ends, so that only calls with a result and results with a call are written (an aborted call has
 * none; the format needs every `tool_call_id` answered, and answered once).
 */
class MessageWalker {
	#turn:
		| {
				assistant: Extract<SftMessage, { role: "assistant" }>;
				args: ReadonlyMap<string, Record<string, unknown>>;
				results: Map<string, string>;
		  }
		| undefined;

	constructor(
		private readonly options: SftOptions,
		private readonly catalog: ToolCatalog,
	) {}

	*add(entry: StoredEntry): Generator<SftMessage> {
		// The full path is the conversation: a compaction's summary stands for messages that are here.
		if (entry.type === "compaction") return;
		if (entry.type === "session_init") {
			const tools = (entry as { tools?: unknown }).tools;
			for (const name of Array.isArray(tools) ? tools : []) if (typeof name === "string") this.catalog.note(name, {});
			return;
		}
		const message = messageOfEntry(entry);
		if (!message) return;
		if (message.role === "toolResult") {
			const turn = this.#turn;
			const called = turn?.assistant.tool_calls?.some((call) => call.id === message.toolCallId);
			if (turn && called && !turn.results.has(message.toolCallId))
				turn.results.set(message.toolCallId, partsText(contentParts(message.content)));
			return;
		}
		yield* this.flush();
		for (const llm of convertToLlm([message])) {
			if (llm.role === "user") yield { role: "user", content: userContent(contentParts(llm.content)) };
			else if (llm.role === "assistant") {
				const parts = assistantParts(llm.content);
				const args = new Map(parts.calls.map((call) => [call.id, call.arguments]));
				this.#turn = { assistant: this.#assistant(parts), args, results: new Map() };
			}
		}
	}

	/** The held turn: the assistant's answered calls, then their results in call order. */
	*flush(): Generator<SftMessage> {
		const turn = this.#turn;
		if (!turn) return;
		this.#turn = undefined;
		const { assistant, args, results } = turn;
		const calls = (assistant.tool_calls ?? []).filter((call) => results.has(call.id));
		const { tool_calls: _all, ...rest } = assistant;
		const kept: Extract<SftMessage, { role: "assistant" }> = calls.length > 0 ? { ...rest, tool_calls: calls } : rest;
		if (kept.content === undefined && calls.length === 0) return;
		for (const call of calls) this.catalog.note(call.function.name, args.get(call.id) ?? {});
		yield kept;
		for (const call of calls) yield { role: "tool", tool_call_id: call.id, content: results.get(call.id) ?? "" };
	}

	#assistant(parts: AssistantParts): Extract<SftMessage, { role: "assistant" }> {
		const calls: Call[] = parts.calls.map((call) => ({
			id: call.id,
			type: "function",
			function: { name: call.name, arguments: JSON.stringify(call.arguments) },
		}));
		return {
			role: "assistant",
			...(parts.text ? { content: parts.text } : {}),
			...(this.options.thinking && parts.thinking ? { reasoning_content: parts.thinking } : {}),
			...(calls.length > 0 ? { tool_calls: calls } : {}),
		};
	}
}

/**
 * One path as one line of OpenAI chat fine-tuning JSONL, streamed message by message:
 * `{"messages":[…],"tools":[…]}`. The tools come last because they are known once the calls are.
 * An example ends at its last assistant message (the last thing it trains; its calls, if it has
 * any, are the target, as in OpenAI's function-calling examples): what follows is held and
 * dropped, and a path with no assistant message writes nothing.
 */
export function* sftLine(entries: Iterable<StoredEntry>, options: SftOptions): Generator<string> {
	const catalog = new ToolCatalog(options.knownTools);
	const walker = new MessageWalker(options, catalog);
	const held: SftMessage[] =
		options.systemPrompt !== undefined ? [{ role: "system", content: options.systemPrompt }] : [];
	let first = true;
	const out = function* (message: SftMessage): Generator<string> {
		if (message.role !== "assistant") {
			held.push(message);
			return;
		}
		for (const next of [...held.splice(0), message]) {
			yield `${first ? '{"messages":[' : ","}${JSON.stringify(next)}`;
			first = false;
		}
	};
	for (const entry of entries) for (const message of walker.add(entry)) yield* out(message);
	for (const message of walker.flush()) yield* out(message);
	if (first) return;
	const tools = catalog.tools();
	yield `]${tools.length > 0 ? `,"tools":${JSON.stringify(tools)}` : ""}}\n`;
}

/** The tool definitions of xcsh's agent (read, bash, edit, write) as fine-tuning tools. */
export async function xcshToolDefinitions(cwd: string): Promise<Map<string, SftTool>> {
	const { createCodingTools } = await import("../agent/tools/index.js");
	return new Map(
		createCodingTools(cwd).map((tool) => [
			tool.name,
			{
				type: "function",
				function: {
					name: tool.name,
					description: tool.description,
					// A TypeBox schema is JSON Schema with symbol-keyed extras, which JSON drops.
					parameters: recordOf(JSON.parse(JSON.stringify(tool.parameters))) ?? {},
				},
			},
		]),
	);
}
