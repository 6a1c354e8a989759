import type { AssistantMessage, ImageContent, TextContent, Usage } from "@mariozechner/pi-ai";
import { CodexTurns } from "./codex-turns.js";
import { CodexUsage } from "./codex-usage.js";
import {
	collectPlan,
	IMPORT_CUSTOM_TYPE,
	type ImportPlan,
	type ItemSink,
	type ParseOptions,
	type PlanBody,
	type PlanHead,
	type PlanItem,
	SkipError,
} from "./import-plan.js";
import { KeyToKey } from "./key-table.js";
import { argumentsOf, assistantOf, ModelChanges, toolResultOf, usageOf, userOf } from "./message-build.js";
import { isoTime, isRecord, type LineSource, str, textLines } from "./source-lines.js";

/*
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type, payload}`
 * lines, or (before ~0.3x) a bare meta line then bare Responses API items. The context follows
 * Codex's own resume (`reconstruct_history_from_rollout`, codex-rs/core/src/codex/
 * rollout_reconstruction.rs in openai/codex): the model's history is the `response_item`s in
 * order; a `compacted` record replaces it (a compaction entry, its replacement history as hidden
 * context); a `thread_rolled_back` event drops the last user turns (a branch, see CodexTurns); a
 * `turn_aborted` event changes nothing (the interrupted turn's items and the `<turn_aborted>` note
 * Codex records stay). `event_msg` agent messages and reasoning repeat response items for the UI
 * and are left out, a `user_message` event only when its prompt is in the history; every other
 * record is kept raw. Consecutive reasoning, assistant text and tool calls are one assistant
 * message; tool outputs pair with their calls by `call_id`; `token_count` events give the usage.
 */

/** Injected context Codex sends as user messages but never shows (and never counts as a turn). */
const INJECTED = /^\s*(<environment_context>|<user_instructions>|<turn_aborted>|# AGENTS\.md instructions)/;
/** UI echoes of response items (a `user_message` is one only when its prompt is in the history: see CodexTurns). */
const DUPLICATE_EVENTS = new Set(["agent_message", "agent_reasoning"]);
const OUTPUTS = new Set(["function_call_output", "custom_tool_call_output", "local_shell_call_output"]);

function contentParts(content: unknown): Record<string, unknown>[] {
	return Array.isArray(content) ? content.filter(isRecord) : [];
}

function dataUrlImage(url: unknown): ImageContent | undefined {
	const match = typeof url === "string" ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
	return match ? { type: "image", mimeType: match[1]!, data: match[2]! } : undefined;
}

function userContent(parts: Record<string, unknown>[]): (TextContent | ImageContent)[] {
	const out: (TextContent | ImageContent)[] = [];
	for (const part of parts) {
		if (typeof part.text === "string") out.push({ type: "text", text: part.text });
		else if (part.type === "input_image") {
			const image = dataUrlImage(part.image_url);
			out.push(image ?? { type: "text", text: `[image ${str(part.image_url)?.slice(0, 80) ?? ""}]` });
		}
	}
	return out;
}

/** A tool output: Codex wraps shell output as JSON `{output, metadata}`; the text is what the model read. */
function outputText(output: unknown): string {
	if (typeof output !== "string") return JSON.stringify(output ?? "");
	if (output.startsWith("{")) {
		try {
			const parsed: unknown = JSON.parse(output);
			if (isRecord(parsed) && typeof parsed.output === "string") return parsed.output;
		} catch {
			// plain text that starts with a brace
		}
	}
	return output;
}

function addUsage(a: Usage, b: Usage): Usage {
	return usageOf({
		input: a.input + b.input,
		output: a.output + b.output,
		cacheRead: a.cacheRead + b.cacheRead,
		cacheWrite: a.cacheWrite + b.cacheWrite,
	});
}

function cwdFromEnvironment(text: string): string | undefined {
	return /<cwd>([^<]+)<\/cwd>/.exec(text)?.[1]?.trim();
}

class CodexReader {
	/** Items not yet sent on: the open assistant message may still grow. */
	#items: PlanItem[] = [];
	readonly #sink: ItemSink;
	readonly #models: ModelChanges;
	readonly #send = (item: PlanItem) => this.#sink.item(item);
	tip: string | null = null;
	provider = "openai";
	model = "";
	cwd: string | undefined;
	#open: AssistantMessage | undefined;
	/** Whether the open assistant message has its response's usage yet. */
	#openCounted = false;
	/** A response's usage read before any of its items (Codex 0.39–0.58 write it first). */
	#pendingUsage: Usage | undefined;
	readonly #usage = new CodexUsage();
	readonly #toolNames = new KeyToKey();
	readonly #turns = new CodexTurns();

	constructor(sink: ItemSink) {
		this.#sink = sink;
		this.#models = new ModelChanges(sink.keys);
	}

	/** Sends on the items read so far, unless an assistant message is open (it may still change). */
	flush(): void {
		if (this.#open !== undefined || this.#items.length === 0) return;
		const items = this.#items;
		this.#items = [];
		for (const item of items) this.#models.feed(item, this.#send);
	}

	/** Sends on every item left (the end of the source). */
	end(): void {
		this.#open = undefined;
		this.flush();
	}

	add(key: string, timestamp: string, body: PlanBody): void {
		this.#items.push({ key, parent: this.tip, timestamp, body });
		this.#turns.added(key, this.tip, body);
		this.tip = key;
	}

	/** An `event_msg` record: the turn bounds and rollbacks Codex's resume reads, usage, UI echoes left out. */
	event(key: string, timestamp: string, record: unknown, payload: Record<string, unknown>): void {
		switch (payload.type) {
			case "token_count":
				this.tokenCount(payload);
				break;
			case "task_started":
				this.#turns.turnStarted();
				break;
			case "user_message":
				if (this.#turns.echo()) return;
				break;
			case "thread_rolled_back": {
				const tip = this.#turns.rollback(typeof payload.num_turns === "number" ? payload.num_turns : 0);
				if (tip !== undefined) {
					this.#open = undefined;
					this.tip = tip;
				}
				break;
			}
		}
		if (!DUPLICATE_EVENTS.has(str(payload.type) ?? "")) this.keep(key, timestamp, record);
	}

	keep(key: string, timestamp: string, record: unknown): void {
		this.add(key, timestamp, { kind: "custom", customType: IMPORT_CUSTOM_TYPE, data: record });
	}

	#assistant(key: string, timestamp: string): AssistantMessage {
		if (this.#open) return this.#open;
		const message = assistantOf({
			content: [],
			api: "openai-responses",
			provider: this.provider,
			model: this.model,
			stopReason: "stop",
			timestamp,
		});
		this.add(key, timestamp, { kind: "message", message });
		this.#open = message;
		this.#openCounted = this.#pendingUsage !== undefined;
		if (this.#pendingUsage) message.usage = this.#pendingUsage;
		this.#pendingUsage = undefined;
		return message;
	}

	/**
	 * A `token_count` event: the usage of the response whose items are open (Codex ≥ 0.10x writes
	 * it after them), else of the next one (older Codex writes it first). A usage no assistant
	 * message takes (a response with no items) goes to the next one, so the totals stay Codex's.
	 */
	tokenCount(payload: Record<string, unknown>): void {
		const usage = this.#usage.read(payload);
		if (!usage) return;
		if (this.#open && !this.#openCounted) {
			this.#open.usage = usage;
			this.#openCounted = true;
		} else if (this.#pendingUsage) this.#pendingUsage = addUsage(this.#pendingUsage, usage);
		else this.#pendingUsage = usage;
	}

	item(key: string, timestamp: string, item: Record<string, unknown>): void {
		const type = str(item.type);
		if (type === "message") {
			const parts = contentParts(item.content);
			if (item.role === "assistant") {
				const text = parts.map((p) => str(p.text) ?? "").join("");
				this.#assistant(key, timestamp).content.push({ type: "text", text });
				return;
			}
			this.#open = undefined;
			const content = userContent(parts);
			const first = content[0]?.type === "text" ? content[0].text : "";
			this.cwd ??= cwdFromEnvironment(first);
			if (item.role === "user" && !INJECTED.test(first))
				this.add(key, timestamp, { kind: "message", message: userOf(content, timestamp) });
			else this.add(key, timestamp, { kind: "hidden", content, details: { role: item.role } });
			return;
		}
		if (type === "reasoning") {
			const summary = contentParts(item.summary).map((p) => str(p.text) ?? "");
			const message = this.#assistant(key, timestamp);
			message.content.push({
				type: "thinking",
				thinking: summary.join("\n\n"),
				thinkingSignature: JSON.stringify(item),
			});
			return;
		}
		if (type === "function_call" || type === "custom_tool_call" || type === "local_shell_call") {
			const id = str(item.call_id) ?? str(item.id) ?? "";
			const name = str(item.name) ?? (type === "local_shell_call" ? "local_shell" : "");
			const args =
				type === "function_call"
					? argumentsOf(item.arguments)
					: type === "custom_tool_call"
						? { input: item.input }
						: argumentsOf(item.action);
			this.#toolNames.set(id, name);
			const message = this.#assistant(key, timestamp);
			message.content.push({ type: "toolCall", id, name, arguments: args });
			message.stopReason = "toolUse";
			return;
		}
		if (type !== undefined && OUTPUTS.has(type)) {
			this.#open = undefined;
			const id = str(item.call_id) ?? "";
			const text = outputText(item.output);
			const result = toolResultOf(id, this.#toolNames.get(id) ?? "unknown", [{ type: "text", text }], false, timestamp);
			this.add(key, timestamp, { kind: "message", message: result });
			return;
		}
		this.keep(key, timestamp, item);
	}

	compacted(key: string, timestamp: string, payload: Record<string, unknown>): void {
		this.#open = undefined;
		const replaced = Array.isArray(payload.replacement_history);
		const history = contentParts(payload.replacement_history);
		// Without a replacement history Codex rebuilds one: the recent user messages, then the summary.
		const prompts = replaced ? [] : this.#turns.keptPrompts();
		if (replaced)
			this.#turns.replaced(
				history.flatMap((item) => {
					if (item.role !== "user") return [];
					const text = userContent(contentParts(item.content))
						.flatMap((b) => (b.type === "text" ? [b.text] : []))
						.join("\n");
					return text === "" || INJECTED.test(text) ? [] : [text];
				}),
			);
		this.add(key, timestamp, {
			kind: "compaction",
			summary: str(payload.message) ?? "",
			firstKeptKey: null,
			tokensBefore: 0,
			details: { source: "codex" },
		});
		// What Codex sends after a compaction is its replacement history: kept as hidden context.
		const lines = history.map(
			(item) =>
				`[${str(item.role) ?? str(item.type) ?? "item"}] ${userContent(contentParts(item.content))
					.map((b) => (b.type === "text" ? b.text : "[image]"))
					.join("\n")}`,
		);
		if (lines.length > 0)
			this.add(`${key}#history`, timestamp, {
				kind: "hidden",
				content: lines.join("\n\n"),
				details: { replacement_history: history },
			});
		if (prompts.length > 0)
			this.add(`${key}#prompts`, timestamp, {
				kind: "hidden",
				content: prompts.map((text) => `[user] ${text}`).join("\n\n"),
				details: { kept_user_messages: prompts },
			});
	}
}

/**
 * The thread a rollout was started from: a fork names it (`forked_from_id`; Codex copies the
 * parent's history into the new file, which is its own session, not a branch of the parent), a
 * subagent its spawner (`source.subagent.thread_spawn.parent_thread_id`).
 */
function parentThreadOf(meta: Record<string, unknown>): string | undefined {
	const source = isRecord(meta.source) && isRecord(meta.source.subagent) ? meta.source.subagent : undefined;
	const spawn = source && isRecord(source.thread_spawn) ? source.thread_spawn : undefined;
	return str(spawn?.parent_thread_id) ?? str(meta.forked_from_id);
}

/** Reads a Codex rollout (current or legacy layout) into a plan. */
export function parseCodex(text: string, sourcePath: string, options: ParseOptions): ImportPlan {
	return collectPlan((sink) => readCodex(textLines(text), sourcePath, options, sink));
}

/** What the first line of a rollout says: its layout and its session meta. */
function metaOf(first: Record<string, unknown>): { legacy: boolean; meta: Record<string, unknown> & { id: string } } {
	const legacy = first.type === undefined && typeof first.id === "string";
	const meta = legacy ? first : isRecord(first.payload) && first.type === "session_meta" ? first.payload : undefined;
	if (!meta || typeof meta.id !== "string") throw new SkipError("no Codex session_meta on the first line");
	return { legacy, meta: meta as Record<string, unknown> & { id: string } };
}

/** Reads a Codex rollout, sending its items to `sink` as they are final; returns the rest of its plan. */
export function readCodex(lines: LineSource, sourcePath: string, options: ParseOptions, sink: ItemSink): PlanHead {
	const reader = new CodexReader(sink);
	let head: { legacy: boolean; meta: Record<string, unknown> & { id: string }; firstLine: number } | undefined;
	let lastTime = "";
	let startedAt = "";
	const badLines = lines((value, line) => {
		if (head === undefined) {
			const { legacy, meta } = metaOf(value);
			head = { legacy, meta, firstLine: line };
			sink.sourceId?.(meta.id);
			reader.cwd = str(meta.cwd);
			reader.provider = str(meta.model_provider) ?? "openai";
			lastTime = isoTime(meta.timestamp) ?? isoTime(value.timestamp) ?? new Date(0).toISOString();
			startedAt = lastTime;
		}
		const key = `L${line}`;
		const time = isoTime(value.timestamp) ?? lastTime;
		lastTime = time;
		if (head.legacy) {
			if (value.record_type === "state") return;
			if (line === head.firstLine) reader.keep(key, time, value);
			else reader.item(key, time, value);
			reader.flush();
			return;
		}
		const payload = isRecord(value.payload) ? value.payload : {};
		switch (value.type) {
			case "response_item":
				reader.item(key, time, payload);
				break;
			case "event_msg":
				reader.event(key, time, value, payload);
				break;
			case "turn_context":
				if (typeof payload.model === "string") reader.model = payload.model;
				reader.keep(key, time, value);
				break;
			case "compacted":
				reader.compacted(key, time, payload);
				break;
			default:
				reader.keep(key, time, value);
		}
		reader.flush();
	});
	if (head === undefined) throw new SkipError("empty Codex rollout");
	reader.end();
	const cwd = reader.cwd;
	const parent = parentThreadOf(head.meta);
	return {
		...(parent ? { parentSourceId: parent } : {}),
		tool: "codex",
		sourcePath,
		sourceId: head.meta.id,
		cwd: cwd ?? options.fallbackCwd,
		cwdOrigin: cwd ? "source" : options.cwdGiven ? "--cwd" : "current directory",
		startedAt,
		badLines,
	};
}
