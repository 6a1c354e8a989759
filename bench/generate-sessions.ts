import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { AssistantMessage, ImageContent, TextContent, ToolCall, ToolResultMessage } from "@mariozechner/pi-ai";

/**
 * What to generate; the same options give the same bytes. `entries` excludes the header; blob refs are
 * backed by files in `<agentDir>/blobs/<hash>`; `branches` (rewinds: an entry whose parent is an earlier
 * entry, abandoning the tail), `compactions` and `blobRefs` default to true; tool results ≤ 20,000 chars.
 */
export interface GenerateOptions {
	entries: number;
	agentDir: string;
	seed?: number;
	cwd?: string;
	branches?: boolean;
	compactions?: boolean;
	/**
	 * Also compact once the path since the last compaction holds this many bytes of lines, as an
	 * agent compacts when its window fills (default: only every 800–3,000 entries).
	 */
	compactEveryBytes?: number;
	blobRefs?: boolean;
	maxToolResultChars?: number;
	title?: string;
	sessionId?: string;
	/** Epoch ms of the header timestamp. */
	startMs?: number;
	/** Stops once about this many bytes are written (whichever of this and `entries` comes first). */
	targetBytes?: number;
	/** The text of one more assistant message written last, on the active path (a marker to wait for). */
	lastAnswer?: string;
	/** Called after each chunk (~4 MB) reaches the disk. */
	onProgress?: (bytes: number, entries: number) => void;
}

/** What was written; `pathDepth` is the number of entries on the path root → leaf. */
export interface GeneratedSession {
	path: string;
	sessionId: string;
	bytes: number;
	entries: number;
	leafId: string;
	pathDepth: number;
	blobRefs: number;
	endMs: number;
}

/** mulberry32: small, fast, deterministic. */
export class Random {
	#state: number;
	constructor(seed: number) {
		this.#state = seed >>> 0;
	}
	next(): number {
		this.#state = (this.#state + 0x6d2b79f5) | 0;
		let t = Math.imul(this.#state ^ (this.#state >>> 15), this.#state | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}
	/** Integer in [min, max]. */
	int = (min: number, max: number): number => min + Math.floor(this.next() * (max - min + 1));
	chance = (p: number): boolean => this.next() < p;
	pick = <T>(items: readonly T[]): T => items[Math.floor(this.next() * items.length)]!;
	hex = (chars: number): string =>
		Array.from({ length: chars }, () => ((this.next() * 16) >>> 0).toString(16)).join("");
	bytes = (count: number): Buffer => Buffer.from(Array.from({ length: count }, () => (this.next() * 256) >>> 0));
}

const WORDS = (
	"the a to of and in is it for session file entry parent leaf branch model tool result message context token " +
	"cache request function return value error path config build test module import export stream buffer handle " +
	"write read parse schema type interface async await promise update render state event queue worker — → ✓ café"
).split(" ");
const NAMES = ["entry", "result", "config", "handle", "session", "buffer", "options", "state", "index", "value"];
const FNS = ["loadSession", "parseEntry", "writeLine", "resolvePath", "buildContext", "readConfig", "flushQueue"];

let corpus: { prose: string; code: string } | undefined;

/** Two fixed text corpora (prose with markdown, code with quotes/tabs/escapes); messages are slices of them. */
function getCorpus(): { prose: string; code: string } {
	if (corpus) return corpus;
	const r = new Random(0xc0ffee);
	const prose: string[] = [];
	for (let chars = 0; chars < 160_000; ) {
		const words = Array.from({ length: r.int(6, 18) }, () => (r.chance(0.05) ? `\`${r.pick(NAMES)}\`` : r.pick(WORDS)));
		let sentence = `${words.join(" ")}.`;
		sentence = sentence[0]!.toUpperCase() + sentence.slice(1);
		if (r.chance(0.08)) sentence = `\n- ${sentence}`;
		else if (r.chance(0.1)) sentence = `\n\n${sentence}`;
		prose.push(sentence);
		chars += sentence.length + 1;
	}
	const code: string[] = [];
	for (let chars = 0; chars < 240_000; ) {
		const [indent, a, b, w] = ["\t".repeat(r.int(0, 3)), r.pick(NAMES), r.pick(NAMES), r.pick(WORDS)];
		const line = r.pick([
			`${indent}const ${a} = await ${r.pick(FNS)}("${w}", { ${b}: ${r.int(0, 9999)} });`,
			`${indent}if (${a}.${b} === "${w}") return ${a};`,
			`${indent}// ${w} ${r.pick(WORDS)} ${r.pick(WORDS)} ${r.pick(WORDS)} ${r.pick(WORDS)}`,
			`${indent}export function ${r.pick(FNS)}(${a}: string, ${b}?: number): Promise<void> {`,
			`${indent}throw new Error(\`${w} \${${a}} failed: "\${${b}}"\`);`,
			`${indent}"${a}": "${w}\\n${r.pick(WORDS)}",`,
			`${indent}}`,
			"",
		]);
		code.push(line);
		chars += line.length + 1;
	}
	corpus = { prose: prose.join(" "), code: code.join("\n") };
	return corpus;
}

function slice(r: Random, text: string, length: number): string {
	const start = r.int(0, text.length - length - 1);
	return text.slice(start, start + length);
}

const TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"] as const;
const MODELS = [
	{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
	{ api: "openai-responses", provider: "openai", model: "gpt-5" },
	{ api: "google-generative-ai", provider: "google", model: "gemini-2.5-pro" },
] as const;
const LEVELS = ["off", "minimal", "low", "medium", "high"] as const;

/** Realistic agent messages (user prompts, assistant turns, tool results), deterministic per seed. */
export class MessageFactory {
	readonly r: Random;
	model: (typeof MODELS)[number] = MODELS[0];
	#inputTokens = 4_000;

	constructor(
		seed: number,
		public now: number,
		readonly maxToolResultChars = 20_000,
	) {
		this.r = new Random(seed);
	}

	tick(): number {
		this.now += this.r.int(200, 40_000);
		return this.now;
	}

	smallImage(): ImageContent {
		return { type: "image", data: this.r.bytes(this.r.int(200, 760)).toString("base64"), mimeType: "image/png" };
	}

	user(extra?: ImageContent): AgentMessage {
		const text: TextContent = { type: "text", text: slice(this.r, getCorpus().prose, this.r.int(40, 800)) };
		const content: (TextContent | ImageContent)[] = [text];
		if (this.r.chance(0.03)) content.push(this.smallImage());
		if (extra) content.push(extra);
		return { role: "user", content, timestamp: this.tick() };
	}

	assistant(toolCalls: number): AssistantMessage {
		const { r } = this;
		const content: AssistantMessage["content"] = [];
		if (r.chance(0.5)) content.push({ type: "thinking", thinking: slice(r, getCorpus().prose, r.int(100, 1200)) });
		content.push({ type: "text", text: slice(r, getCorpus().prose, r.int(200, 2000)) });
		for (let i = 0; i < toolCalls; i++) content.push(this.toolCall());
		const output = r.int(50, 1500);
		const cacheRead = Math.max(0, this.#inputTokens - r.int(0, 3000));
		this.#inputTokens += r.int(200, 6000);
		const cost = { input: output * 3e-6, output: output * 1.5e-5, cacheRead: cacheRead * 3e-7, cacheWrite: 0.0012 };
		const costs = { ...cost, total: cost.input + cost.output + cost.cacheRead + cost.cacheWrite };
		const [totalTokens, stopReason] = [this.#inputTokens + output, toolCalls > 0 ? "toolUse" : "stop"] as const;
		const usage = { input: r.int(1, 3000), output, cacheRead, cacheWrite: r.int(0, 4000), totalTokens, cost: costs };
		return { role: "assistant", content, ...this.model, usage, stopReason, timestamp: this.tick() };
	}

	toolCall(): ToolCall {
		const { r } = this;
		const name = r.pick(TOOLS);
		const path = `source/${r.pick(NAMES)}/${r.pick(FNS)}.ts`;
		const code = getCorpus().code;
		const args: Record<string, Record<string, unknown>> = {
			bash: { command: `npm run ${r.pick(["test", "build", "lint"])} -- ${path}`, timeout: 120 },
			edit: { path, oldText: slice(r, code, r.int(40, 600)), newText: slice(r, code, r.int(40, 800)) },
			write: { path, content: slice(r, code, r.int(200, 3000)) },
		};
		const id = `toolu_${r.hex(24)}`;
		return { type: "toolCall", id, name, arguments: args[name] ?? { path, pattern: r.pick(WORDS) } };
	}

	/** Most results are small, some large; the largest is `maxToolResultChars`. */
	toolResult(call: ToolCall, extra?: ImageContent): ToolResultMessage {
		const [r, max, roll] = [this.r, this.maxToolResultChars, this.r.next()];
		const length = roll < 0.5 ? r.int(50, 1500) : roll < 0.85 ? r.int(1500, 8000) : r.int(8000, max);
		const source = call.name === "grep" || call.name === "ls" ? getCorpus().prose : getCorpus().code;
		// Results longer than the corpus (tool results up to 200 KB) are capped at its size.
		const chars = Math.min(length, max, source.length - 2);
		const content: (TextContent | ImageContent)[] = [{ type: "text", text: slice(r, source, chars) }];
		if (r.chance(0.02)) content.push(this.smallImage());
		if (extra) content.push(extra);
		const [toolCallId, toolName, isError, timestamp] = [call.id, call.name, r.chance(0.05), this.tick()];
		return { role: "toolResult", toolCallId, toolName, content, isError, timestamp };
	}
}

/** `count` messages as an agent loop appends them: assistant turns with their tool results, user prompts. */
export function generateMessages(count: number, seed = 7, maxToolResultChars = 20_000): AgentMessage[] {
	const factory = new MessageFactory(seed, Date.UTC(2025, 0, 1), maxToolResultChars);
	const messages: AgentMessage[] = [];
	while (messages.length < count) {
		const message = factory.r.chance(0.1) ? factory.user() : factory.assistant(factory.r.int(0, 2));
		messages.push(message);
		if (message.role !== "assistant") continue;
		for (const block of message.content) if (block.type === "toolCall") messages.push(factory.toolResult(block));
	}
	return messages.slice(0, count);
}

/** Writes (once) a few PNG-like blobs to `<agentDir>/blobs/<sha256>` and returns their image blocks. */
export function blobImages(agentDir: string): ImageContent[] {
	const r = new Random(0xb10b);
	const dir = join(agentDir, "blobs");
	mkdirSync(dir, { recursive: true });
	const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	return [6_000, 14_000, 28_000].map((size) => {
		const bytes = Buffer.concat([png, r.bytes(size)]);
		const hash = createHash("sha256").update(bytes).digest("hex");
		const file = join(dir, hash);
		if (!existsSync(file)) writeFileSync(file, bytes);
		return { type: "image", data: `blob:sha256:${hash}`, mimeType: "image/png" };
	});
}

/** Generates a v3 session file (header + `entries` entries) at `path`, streaming it to disk in chunks. */
export function writeSessionFile(path: string, options: GenerateOptions): GeneratedSession {
	const seed = options.seed ?? 1;
	const startMs = options.startMs ?? Date.UTC(2025, 0, 1);
	const f = new MessageFactory(seed, startMs, options.maxToolResultChars);
	const { r } = f;
	const sessionId = options.sessionId ?? startMs.toString(16).padStart(12, "0") + r.hex(4);
	const [timestamp, cwd, title] = [new Date(startMs).toISOString(), options.cwd ?? "/home/dev/project", options.title];
	const header = { type: "session", version: 3, id: sessionId, timestamp, cwd, title };
	const fd = openSync(path, "w");
	let chunk: string[] = [JSON.stringify(header)];
	let chunkChars = 0;
	let bytes = 0;
	const flush = (): void => {
		bytes += writeSync(fd, `${chunk.join("\n")}\n`);
		chunk = [];
		chunkChars = 0;
		options.onProgress?.(bytes, written);
	};
	const ids = new Set<string>();
	const path_: string[] = [];
	let written = 0;
	let sinceCompaction = 0;
	const windowFull = (): boolean => sinceCompaction >= (options.compactEveryBytes ?? Number.POSITIVE_INFINITY);
	const emit = (fields: Record<string, unknown>): string => {
		let id = r.hex(8);
		while (ids.has(id)) id = r.hex(8);
		ids.add(id);
		const parentId = path_[path_.length - 1] ?? null;
		const { type, ...rest } = fields;
		const line = JSON.stringify({ type, id, parentId, timestamp: new Date(f.tick()).toISOString(), ...rest });
		path_.push(id);
		sinceCompaction += line.length;
		chunk.push(line);
		chunkChars += line.length;
		if (chunkChars >= 4 << 20) flush();
		written++;
		return id;
	};
	const targetBytes = options.targetBytes ?? Number.POSITIVE_INFINITY;
	const full = (): boolean => written >= options.entries || bytes + chunkChars >= targetBytes;
	const blobs = options.blobRefs === false ? [] : blobImages(options.agentDir);
	// With only a byte target, the entry count is estimated (3.1 KB per entry is the mean at the default mix).
	const planned = Number.isFinite(options.entries) ? options.entries : Math.ceil(targetBytes / 3_100);
	if (!Number.isFinite(planned)) throw new Error("writeSessionFile needs a finite entries or targetBytes");
	const blobEvery = blobs.length > 0 ? Math.max(50, Math.floor(planned / (2 + planned / 10_000))) : 0;
	let nextBlobAt = blobEvery;
	let blobRefs = 0;
	const maybeBlob = (): ImageContent | undefined => {
		if (blobEvery === 0 || written < nextBlobAt) return undefined;
		nextBlobAt += blobEvery;
		return blobs[blobRefs++ % blobs.length];
	};
	let nextCompaction = r.int(800, 3000);

	while (!full()) {
		if (r.chance(0.01)) emit({ type: "thinking_level_change", thinkingLevel: r.pick(LEVELS) });
		if (!full() && r.chance(0.007)) {
			f.model = r.pick(MODELS);
			emit({ type: "model_change", model: `${f.model.provider}/${f.model.model}`, role: "default" });
		}
		if (!full() && options.compactions !== false && (written >= nextCompaction || windowFull()) && path_.length > 60) {
			const firstKeptEntryId = path_[path_.length - r.int(10, 40)]!;
			const summary = slice(r, getCorpus().prose, r.int(1500, 4000));
			emit({ type: "compaction", summary, firstKeptEntryId, tokensBefore: r.int(120_000, 190_000) });
			nextCompaction = written + r.int(800, 3000);
			sinceCompaction = 0;
		}
		if (!full() && options.branches !== false && path_.length > 20 && r.chance(0.02)) {
			// Rewind: the next prompt continues from an earlier entry; the tail becomes an abandoned branch.
			path_.length -= r.int(2, 15);
		}
		if (full()) break;
		emit({ type: "message", message: f.user(maybeBlob()) });
		for (let step = r.int(0, 7); step >= 0 && !full(); step--) {
			const assistant = f.assistant(step === 0 ? 0 : r.chance(0.15) ? 2 : 1);
			emit({ type: "message", message: assistant });
			for (const block of assistant.content) {
				if (block.type !== "toolCall" || full()) continue;
				emit({ type: "message", message: f.toolResult(block, maybeBlob()) });
			}
		}
	}
	if (options.lastAnswer !== undefined) {
		const answer = f.assistant(0);
		answer.content = [{ type: "text", text: options.lastAnswer }];
		emit({ type: "message", message: answer });
	}
	flush();
	closeSync(fd);
	const [leafId, pathDepth] = [path_.at(-1) ?? "", path_.length];
	return { path, sessionId, bytes, entries: written, leafId, pathDepth, blobRefs, endMs: f.now };
}
