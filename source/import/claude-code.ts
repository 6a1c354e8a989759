import { basename } from "node:path";
import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "@mariozechner/pi-ai";
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
import { assistantOf, ModelChanges, toolResultOf, userOf } from "./message-build.js";
import { forEachSourceLine, isoTime, isRecord, str } from "./source-lines.js";

/*
 * Claude Code (`~/.claude/projects/<encoded cwd>/<session>.jsonl`): one record per line, a tree by
 * `uuid`/`parentUuid`. One API response is split over several lines sharing `message.id`: they are
 * merged into one assistant message. Records with no conversational meaning (progress, hooks,
 * snapshots, system lines) are kept as `custom` entries placed on the line where they happened,
 * so they never become side branches of their own.
 */

type Block = Record<string, unknown>;

const CONVERSATION = new Set(["user", "assistant"]);

function blocksOf(content: unknown): Block[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? content.filter(isRecord) : [];
}

function imageOf(block: Block): ImageContent | undefined {
	const source = isRecord(block.source) ? block.source : undefined;
	if (source?.type !== "base64" || typeof source.data !== "string") return undefined;
	return { type: "image", data: source.data, mimeType: str(source.media_type) ?? "image/png" };
}

function userBlocksOf(blocks: Block[]): (TextContent | ImageContent)[] {
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

function toolResultContent(content: unknown): (TextContent | ImageContent)[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return userBlocksOf(blocksOf(content));
}

function assistantBlocksOf(blocks: Block[]): (TextContent | ThinkingContent | ToolCall)[] {
	const out: (TextContent | ThinkingContent | ToolCall)[] = [];
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

const STOP: Record<string, "stop" | "length" | "toolUse"> = {
	end_turn: "stop",
	stop_sequence: "stop",
	max_tokens: "length",
	tool_use: "toolUse",
};

/** Builds the items of one Claude Code transcript, keeping the tree and placing side records inline. */
class ClaudeTree {
	/** Items not yet sent on: an assistant message may still grow while a line of its response can follow. */
	#items: PlanItem[] = [];
	readonly #sink: ItemSink;
	readonly #models = new ModelChanges();
	readonly #send = (item: PlanItem) => this.#sink.item(item);
	/** A merged line's uuid → the item it was merged into. */
	readonly #redirect = new Map<string, string>();
	/** An item → the side record placed right after it (conversation continues through it). */
	readonly #through = new Map<string, string>();
	readonly #known = new Set<string>();
	/** message.id → the assistant item being assembled, with its content array. */
	readonly #open = new Map<string, { key: string; content: (TextContent | ThinkingContent | ToolCall)[] }>();
	readonly toolNames = new Map<string, string>();
	tip: string | null = null;
	mainLeaf: string | undefined;

	constructor(sink: ItemSink) {
		this.#sink = sink;
	}

	/** Sends on the items read so far, once no assistant message is open (none of them can change any more). */
	flush(): void {
		if (this.#open.size > 0 || this.#items.length === 0) return;
		const items = this.#items;
		this.#items = [];
		for (const item of items) this.#models.feed(item, this.#send);
	}

	/** Sends on every item left (the end of the source). */
	end(): void {
		this.#open.clear();
		this.flush();
	}

	/** Whether a uuid was already read (a resumed session copies records with a new sessionId). */
	has(uuid: string): boolean {
		return this.#known.has(uuid) || this.#redirect.has(uuid);
	}

	/** Results of parallel calls each point at their call's line: they chain one after another instead. */
	readonly #resultTip = new Map<string, string>();

	/** The item a tool result line goes under, and the assistant item its call belongs to. */
	resolveResult(parentUuid: unknown): { parent: string | null; call: string | undefined } {
		if (typeof parentUuid !== "string") return { parent: this.resolve(parentUuid), call: undefined };
		const call = this.#redirect.get(parentUuid) ?? parentUuid;
		const after = this.#resultTip.get(call);
		return { parent: this.resolve(after ?? parentUuid), call };
	}

	resultsAdded(call: string | undefined, last: string): void {
		if (call !== undefined) this.#resultTip.set(call, last);
	}

	resolve(parentUuid: unknown): string | null {
		if (typeof parentUuid !== "string") return null;
		let key = this.#redirect.get(parentUuid) ?? parentUuid;
		// A parent outside this file (a subagent's first line points into the main session) starts at the tip.
		if (!this.#known.has(key)) return this.tip;
		for (let next = this.#through.get(key); next !== undefined; next = this.#through.get(key)) key = next;
		return key;
	}

	add(item: PlanItem, sidechain: boolean): void {
		this.#items.push(item);
		this.#known.add(item.key);
		this.tip = item.key;
		if (!sidechain) this.mainLeaf = item.key;
	}

	/** A record with no conversational meaning, kept raw at the tip. */
	side(key: string, timestamp: string, record: Record<string, unknown>, sidechain: boolean): void {
		const parent = this.tip;
		this.add(
			{ key, parent, timestamp, body: { kind: "custom", customType: IMPORT_CUSTOM_TYPE, data: record } },
			sidechain,
		);
		if (parent !== null && !this.#through.has(parent)) this.#through.set(parent, key);
	}

	mergeInto(messageId: string, uuid: string, blocks: Block[]): boolean {
		const open = this.#open.get(messageId);
		if (!open) return false;
		open.content.push(...assistantBlocksOf(blocks));
		this.#redirect.set(uuid, open.key);
		return true;
	}

	openAssistant(messageId: string, key: string, content: (TextContent | ThinkingContent | ToolCall)[]): void {
		this.#open.set(messageId, { key, content });
	}

	/** A user line ends the assistant messages before it: a later line with their id starts a new message. */
	closeAssistants(): void {
		this.#open.clear();
	}
}

function userItems(tree: ClaudeTree, record: Record<string, unknown>, uuid: string, time: string, side: boolean): void {
	const message = isRecord(record.message) ? record.message : {};
	const blocks = blocksOf(message.content);
	const results = blocks.filter((b) => b.type === "tool_result");
	const resolved = results.length > 0 ? tree.resolveResult(record.parentUuid) : undefined;
	let parent = resolved ? resolved.parent : tree.resolve(record.parentUuid);
	const rest = userBlocksOf(blocks.filter((b) => b.type !== "tool_result"));
	let index = 0;
	const keyFor = () => (index++ === 0 ? uuid : `${uuid}#${index - 1}`);
	for (const result of results) {
		const callId = str(result.tool_use_id) ?? "";
		const body: PlanBody = {
			kind: "message",
			message: toolResultOf(
				callId,
				tree.toolNames.get(callId) ?? "unknown",
				toolResultContent(result.content),
				result.is_error === true,
				time,
			),
		};
		const key = keyFor();
		tree.add({ key, parent, timestamp: time, body }, side);
		parent = key;
	}
	if (resolved && parent !== null) tree.resultsAdded(resolved.call, parent);
	if (rest.length === 0 && results.length > 0) return;
	const body: PlanBody =
		record.isMeta === true || record.isCompactSummary === true
			? { kind: "hidden", content: rest, details: { isMeta: record.isMeta, isCompactSummary: record.isCompactSummary } }
			: { kind: "message", message: userOf(rest, time) };
	tree.add({ key: keyFor(), parent, timestamp: time, body }, side);
}

function assistantItem(
	tree: ClaudeTree,
	record: Record<string, unknown>,
	uuid: string,
	time: string,
	side: boolean,
): void {
	const message = isRecord(record.message) ? record.message : {};
	const blocks = blocksOf(message.content);
	for (const block of blocks)
		if (block.type === "tool_use") tree.toolNames.set(str(block.id) ?? "", str(block.name) ?? "");
	const messageId = str(message.id);
	if (messageId && tree.mergeInto(messageId, uuid, blocks)) return;
	const usage = isRecord(message.usage) ? message.usage : {};
	const content = assistantBlocksOf(blocks);
	const assistant = assistantOf({
		content,
		api: "anthropic-messages",
		provider: "anthropic",
		model: str(message.model) ?? "",
		tokens: {
			input: usage.input_tokens as number,
			output: usage.output_tokens as number,
			cacheRead: usage.cache_read_input_tokens as number,
			cacheWrite: usage.cache_creation_input_tokens as number,
		},
		...(STOP[str(message.stop_reason) ?? ""] ? { stopReason: STOP[str(message.stop_reason) ?? ""] } : {}),
		...(record.isApiErrorMessage === true ? { stopReason: "error" as const, errorMessage: "API error" } : {}),
		timestamp: time,
	});
	tree.add(
		{
			key: uuid,
			parent: tree.resolve(record.parentUuid),
			timestamp: time,
			body: { kind: "message", message: assistant },
		},
		side,
	);
	// The blocks array is the message's own: later lines of the same response add to it in place.
	if (messageId) tree.openAssistant(messageId, uuid, assistant.content);
}

/** Reads a Claude Code transcript (main session or `subagents/agent-*.jsonl`) into a plan. */
export function parseClaudeCode(text: string, sourcePath: string, options: ParseOptions): ImportPlan {
	return collectPlan((sink) => readClaudeCode(text, sourcePath, options, sink));
}

/** Reads a Claude Code transcript, sending its items to `sink` as they are final; returns the rest of its plan. */
export function readClaudeCode(text: string, sourcePath: string, options: ParseOptions, sink: ItemSink): PlanHead {
	const tree = new ClaudeTree(sink);
	let sessionId: string | undefined;
	let agentId: string | undefined;
	let cwd: string | undefined;
	let title: string | undefined;
	let started: string | undefined;
	let lastTime = new Date(0).toISOString();
	const badLines = forEachSourceLine(text, (record, line) => {
		const time = isoTime(record.timestamp) ?? lastTime;
		lastTime = time;
		started ??= isoTime(record.timestamp);
		agentId ??= str(record.agentId);
		if (sessionId === undefined) {
			sessionId = str(record.sessionId);
			if (sessionId !== undefined) sink.sourceId?.(agentId ? `${sessionId}/agent-${agentId}` : sessionId);
		}
		cwd ??= str(record.cwd);
		const uuid = str(record.uuid);
		const side = record.isSidechain === true && agentId === undefined;
		if (record.type === "summary" && typeof record.summary === "string") title = record.summary;
		if (!uuid || !CONVERSATION.has(str(record.type) ?? "") || tree.has(uuid)) {
			tree.side(uuid && !tree.has(uuid) ? uuid : `line:${line}`, time, record, side);
			tree.flush();
			return;
		}
		if (record.type === "user") {
			tree.closeAssistants();
			userItems(tree, record, uuid, time, side);
		} else assistantItem(tree, record, uuid, time, side);
		tree.flush();
	});
	tree.end();
	if (!sessionId) throw new SkipError("no Claude Code session id in the file");
	const file = basename(sourcePath, ".jsonl");
	const sourceId = agentId ? `${sessionId}/agent-${agentId}` : sessionId;
	return {
		tool: "claude-code",
		sourcePath,
		sourceId,
		cwd: cwd ?? options.fallbackCwd,
		cwdOrigin: cwd ? "source" : options.cwdGiven ? "--cwd" : "current directory",
		title: title ?? (agentId ? `Claude Code subagent ${agentId} (${file})` : undefined),
		startedAt: started ?? lastTime,
		...(tree.mainLeaf ? { leafKey: tree.mainLeaf } : {}),
		badLines,
	};
}
