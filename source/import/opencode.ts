import type {
	AssistantMessage,
	ImageContent,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
	ToolResultMessage,
} from "@mariozechner/pi-ai";
import {
	IMPORT_CUSTOM_TYPE,
	type ImportPlan,
	type ParseOptions,
	type PlanBody,
	type PlanItem,
	SkipError,
} from "./import-plan.js";
import { assistantOf, toolResultOf, userOf, withModelChanges } from "./message-build.js";
import {
	isOpencodeDatabase,
	OPENCODE_DB_AS_TEXT,
	type OpencodeSession,
	readStorageSession,
} from "./opencode-storage.js";
import { isoTime, isRecord, str } from "./source-lines.js";

/*
 * opencode sessions, from `opencode export` (one JSON object), from a session file of its older
 * storage tree, or from its SQLite database (read by opencode-db.ts): all three hold the same
 * session info, message infos and parts. A message is its info plus parts: a user message's text and file parts are its
 * content (synthetic text is context opencode injected: sent, not shown); an assistant message's
 * reasoning, text and tool parts are split into pi messages so each tool call's result (the
 * tool part's state) follows the assistant message that made it. A summary message is a
 * compaction, a revert point leaves the undone messages on a branch, and every other part
 * (step boundaries, patches, snapshots, subtasks…) is kept whole.
 *
 * What is sent follows opencode's own `toModelMessages` and `filterCompacted`
 * (packages/opencode/src/session/message-v2.ts in anomalyco/opencode): a tool output its pruning
 * cleared (`state.time.compacted`) is "[Old tool result content cleared]" (the output is kept in
 * the result's details), a call that never finished is the error "[Tool execution was
 * interrupted]", an interrupted call's partial output is its result, text/plain and directory file
 * parts are not sent (their text came in as synthetic parts), and a compaction keeps the messages
 * from its `tail_start_id` on.
 */

type Json = Record<string, unknown>;

/** The pi-ai API family of an opencode provider, for the context's model. */
function apiOf(provider: string): string {
	if (provider === "anthropic") return "anthropic-messages";
	if (provider === "google") return "google-generative-ai";
	if (provider === "openai") return "openai-responses";
	return "openai-completions";
}

function dataUrlImage(url: unknown, mime: unknown): ImageContent | undefined {
	const match = typeof url === "string" ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
	if (!match || !match[1]!.startsWith("image/")) return undefined;
	return { type: "image", mimeType: str(mime) ?? match[1]!, data: match[2]! };
}

function timeOf(value: unknown, fallback: string): string {
	return isoTime(value) ?? fallback;
}

function tokensOf(tokens: unknown) {
	if (!isRecord(tokens)) return undefined;
	const cache = isRecord(tokens.cache) ? tokens.cache : {};
	const n = (v: unknown) => (typeof v === "number" ? v : undefined);
	return { input: n(tokens.input), output: n(tokens.output), cacheRead: n(cache.read), cacheWrite: n(cache.write) };
}

class OpencodeReader {
	readonly items: PlanItem[] = [];
	tip: string | null = null;
	/** The first item of each message, by message id (where a revert point cuts). */
	readonly firstOf = new Map<string, string>();
	/** The message a pending compaction keeps from (its user message's `tail_start_id`). */
	#tail: string | undefined;

	add(key: string, timestamp: string, body: PlanBody): void {
		this.items.push({ key, parent: this.tip, timestamp, body });
		this.tip = key;
	}

	keep(key: string, timestamp: string, record: unknown): void {
		this.add(key, timestamp, { kind: "custom", customType: IMPORT_CUSTOM_TYPE, data: record });
	}

	user(info: Json, parts: Json[], time: string): void {
		const content: (TextContent | ImageContent)[] = [];
		const later: Json[] = [];
		for (const part of parts) {
			if (part.type === "text" && typeof part.text === "string" && !part.ignored) {
				if (part.synthetic === true)
					this.add(str(part.id) ?? `${str(info.id)}#${this.items.length}`, time, {
						kind: "hidden",
						content: part.text,
						details: { synthetic: true },
					});
				else content.push({ type: "text", text: part.text });
			} else if (part.type === "file") {
				const image = dataUrlImage(part.url, part.mime);
				if (image) content.push(image);
				else if (part.mime === "text/plain" || part.mime === "application/x-directory") later.push(part);
				else {
					content.push({
						type: "text",
						text: `[file ${str(part.filename) ?? str(part.url) ?? ""} (${str(part.mime) ?? "?"})]`,
					});
					later.push(part);
				}
			} else {
				if (part.type === "compaction") this.#tail = str(part.tail_start_id);
				later.push(part);
			}
		}
		if (content.length > 0)
			this.add(str(info.id) ?? `user#${this.items.length}`, time, { kind: "message", message: userOf(content, time) });
		for (const part of later) this.keep(str(part.id) ?? `${str(info.id)}#${this.items.length}`, time, part);
	}

	assistant(info: Json, parts: Json[], time: string): void {
		const id = str(info.id) ?? `assistant#${this.items.length}`;
		const before = this.items.length;
		if (info.summary === true) {
			const summary = parts
				.filter((p) => p.type === "text" && typeof p.text === "string")
				.map((p) => p.text as string)
				.join("\n");
			const tokens = tokensOf(info.tokens);
			const kept = this.#tail === undefined ? undefined : this.firstOf.get(this.#tail);
			this.#tail = undefined;
			this.add(id, time, {
				kind: "compaction",
				summary,
				firstKeptKey: kept ?? null,
				tokensBefore: tokens?.input ?? 0,
				details: { source: "opencode" },
			});
			return;
		}
		const provider = str(info.providerID) ?? "";
		const model = str(info.modelID) ?? "";
		const error = isRecord(info.error) ? info.error : undefined;
		let blocks: (TextContent | ThinkingContent | ToolCall)[] = [];
		let results: { key: string; message: ToolResultMessage }[] = [];
		let later: Json[] = [];
		let chunkKey: string | undefined;
		let stepTokens: unknown;
		const flush = (last: boolean) => {
			if (blocks.length > 0) {
				const tokens = tokensOf(stepTokens ?? (last ? info.tokens : undefined));
				const stopReason: StopReason | undefined =
					last && error ? (error.name === "MessageAbortedError" ? "aborted" : "error") : undefined;
				const message: AssistantMessage = assistantOf({
					content: blocks,
					api: apiOf(provider),
					provider,
					model,
					...(tokens ? { tokens } : {}),
					...(stopReason ? { stopReason } : {}),
					...(stopReason ? { errorMessage: errorText(error) } : {}),
					timestamp: time,
				});
				this.add(chunkKey ?? id, time, { kind: "message", message });
				for (const result of results) this.add(result.key, time, { kind: "message", message: result.message });
			}
			for (const part of later) this.keep(str(part.id) ?? `${id}#${this.items.length}`, time, part);
			blocks = [];
			results = [];
			later = [];
			chunkKey = undefined;
			stepTokens = undefined;
		};
		for (const part of parts) {
			const partId = str(part.id);
			const startChunk = () => {
				// A text or thought after tool calls is the next request's answer: a new assistant message.
				if (results.length > 0) flush(false);
				chunkKey ??= partId;
			};
			switch (part.type) {
				case "step-start":
					flush(false);
					later.push(part);
					break;
				case "reasoning":
					startChunk();
					blocks.push({ type: "thinking", thinking: str(part.text) ?? "" });
					break;
				case "text":
					startChunk();
					blocks.push({ type: "text", text: str(part.text) ?? "" });
					break;
				case "tool": {
					chunkKey ??= partId;
					const state = isRecord(part.state) ? part.state : {};
					const callId = str(part.callID) ?? partId ?? "";
					const name = str(part.tool) ?? "unknown";
					blocks.push({ type: "toolCall", id: callId, name, arguments: isRecord(state.input) ? state.input : {} });
					const ended = isRecord(state.time) ? (state.time.end ?? state.time.start) : undefined;
					results.push({
						key: `${partId ?? callId}#result`,
						message: resultOf(callId, name, state, timeOf(ended, time)),
					});
					break;
				}
				case "step-finish":
					stepTokens = part.tokens;
					later.push(part);
					flush(false);
					break;
				default:
					later.push(part);
			}
		}
		flush(true);
		// A request that failed before it produced anything: its error is all there is to keep.
		if (error && this.items.length === before) this.keep(`${id}#error`, time, { error });
	}
}

function errorText(error: Json | undefined): string {
	const data = error && isRecord(error.data) ? error.data : undefined;
	return str(data?.message) ?? str(error?.name) ?? "error";
}

/** The result a tool part's state gives, as opencode sends it. */
function resultOf(callId: string, name: string, state: Json, time: string): ToolResultMessage {
	const metadata = isRecord(state.metadata) ? state.metadata : {};
	const partial = state.status === "error" && metadata.interrupted === true ? str(metadata.output) : undefined;
	if (partial !== undefined) return toolResultOf(callId, name, [{ type: "text", text: partial }], false, time);
	const cleared = state.status === "completed" && isRecord(state.time) && state.time.compacted !== undefined;
	if (!cleared) return toolResultOf(callId, name, resultContent(state), state.status !== "completed", time);
	const result = toolResultOf(callId, name, [{ type: "text", text: CLEARED }], false, time);
	result.details = { opencode: { clearedOutput: str(state.output) ?? "" } };
	return result;
}

/** What opencode sends in place of a tool output its pruning cleared. */
const CLEARED = "[Old tool result content cleared]";

/** What a tool part's state says the tool returned. */
function resultContent(state: Json): (TextContent | ImageContent)[] {
	switch (state.status) {
		case "completed": {
			const content: (TextContent | ImageContent)[] = [{ type: "text", text: str(state.output) ?? "" }];
			const attachments = Array.isArray(state.attachments) ? state.attachments.filter(isRecord) : [];
			for (const attachment of attachments) {
				const image = dataUrlImage(attachment.url, attachment.mime);
				if (image) content.push(image);
			}
			return content;
		}
		case "error":
			return [{ type: "text", text: str(state.error) ?? "error" }];
		default:
			return [{ type: "text", text: "[Tool execution was interrupted]" }];
	}
}

/** Reads an opencode export, or a session file of the storage tree (its messages read beside it). */
function sessionOf(text: string, sourcePath: string): OpencodeSession {
	// A database is read by its own reader (opencode-db.ts), never as text.
	if (isOpencodeDatabase(sourcePath, text)) throw new SkipError(OPENCODE_DB_AS_TEXT);
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new SkipError("not JSON (an opencode export is one JSON object)");
	}
	if (!isRecord(value)) throw new SkipError("not an opencode export or session file");
	if (isRecord(value.info) && Array.isArray(value.messages)) {
		const { info, messages, ...extra } = value;
		const list = messages.filter(isRecord).map((m) => ({
			info: isRecord(m.info) ? m.info : {},
			parts: Array.isArray(m.parts) ? m.parts.filter(isRecord) : [],
		}));
		return { info, messages: list, extra, unreadable: [] };
	}
	if (typeof value.id === "string" && "projectID" in value) return readStorageSession(sourcePath, value);
	throw new SkipError("not an opencode export or session file");
}

/** Reads an opencode session (export or storage tree) into a plan. */
export function parseOpencode(text: string, sourcePath: string, options: ParseOptions): ImportPlan {
	return planOpencode(sessionOf(text, sourcePath), sourcePath, options);
}

/** Maps an opencode session, however it was stored (export, storage tree, database), into a plan. */
export function planOpencode(session: OpencodeSession, sourcePath: string, options: ParseOptions): ImportPlan {
	const info = session.info;
	if (typeof info.id !== "string") throw new SkipError("an opencode session without an id");
	const created = isRecord(info.time) ? info.time.created : undefined;
	const startedAt = timeOf(created, timeOf(session.messages[0]?.info.time, new Date(0).toISOString()));
	const reader = new OpencodeReader();
	for (const { info: message, parts } of session.messages) {
		const time = timeOf(isRecord(message.time) ? message.time.created : undefined, startedAt);
		const before = reader.items.length;
		if (message.role === "user") reader.user(message, parts, time);
		else if (message.role === "assistant") reader.assistant(message, parts, time);
		else reader.keep(str(message.id) ?? `message#${before}`, time, { info: message, parts });
		const first = reader.items[before];
		if (first && typeof message.id === "string") reader.firstOf.set(message.id, first.key);
	}
	let leafKey: string | undefined;
	const revert = isRecord(info.revert) ? info.revert : undefined;
	const cut = revert && typeof revert.messageID === "string" ? reader.firstOf.get(revert.messageID) : undefined;
	if (revert && cut) {
		// What opencode undid stays on a branch; the session goes on from the message before it.
		const at = reader.items.findIndex((item) => item.key === cut);
		const parent = reader.items[at]!.parent;
		const time = reader.items.at(-1)!.timestamp;
		reader.items.push({
			key: `revert:${revert.messageID as string}`,
			parent,
			timestamp: time,
			body: {
				kind: "branchSummary",
				summary: "Reverted in opencode: the messages after this point were undone, and are kept on a branch.",
				details: { source: "opencode", revert },
			},
		});
		leafKey = `revert:${revert.messageID as string}`;
	}
	const cwd = str(info.directory);
	return {
		tool: "opencode",
		sourcePath,
		sourceId: info.id,
		cwd: cwd ?? options.fallbackCwd,
		cwdOrigin: cwd ? "source" : options.cwdGiven ? "--cwd" : "current directory",
		...(str(info.title) ? { title: str(info.title) } : {}),
		startedAt,
		items: withModelChanges(reader.items),
		...(leafKey ? { leafKey } : {}),
		badLines: [],
		...(typeof info.parentID === "string" ? { parentSourceId: info.parentID } : {}),
		sourceInfo: {
			session: info,
			...session.extra,
			...(session.unreadable.length > 0 ? { unreadableFiles: session.unreadable } : {}),
		},
	};
}
