import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { Api, Model } from "@mariozechner/pi-ai";
import { isOfflineModel } from "../models/offline-provider.js";
import { type FileOperations, FileOperationsTally } from "./file-operations.js";
import { RuleDigest } from "./rule-digest.js";
import { serializeConversation } from "./serialize-conversation.js";
import { SUMMARY_MAX_TOKENS, summarize } from "./summarizer.js";
import { estimateTokens } from "./token-estimate.js";

/** Where a streamed compaction is: reading the older part, or asking the model about piece `piece`. */
export type CompactionStep =
	| { kind: "reading"; read: number; total: number }
	| { kind: "summarising"; piece: number; pieces: number };

/** What to summarise: a stream of messages (each dropped once read), with the model to ask. */
export interface StreamedSummaryRequest {
	model: Model<Api>;
	apiKey?: string;
	signal: AbortSignal;
	items: Iterable<{ message: AgentMessage; bytes: number }>;
	/** The bytes `items` will read, for progress. */
	totalBytes: number;
	previousSummary?: string;
	previousFileOperations?: FileOperations;
	instructions?: string;
	onProgress?: (step: CompactionStep) => void;
}

/** The summary of a stream, with what it covered. */
export interface StreamedSummary {
	summary: string;
	fileOperations: FileOperations;
	/** Estimated tokens of the messages summarised. */
	tokens: number;
}

/**
 * Model requests one compaction may make: the newest pieces of the older part. What comes before
 * them is outlined by rule (a path of gigabytes would be thousands of requests otherwise).
 */
export const MAX_MODEL_PIECES = 8;
/** Characters per token assumed for a piece's size: fewer than the estimate's 4, so a piece never overflows. */
const CHARS_PER_TOKEN = 3;
/** Room in a piece's request for the instructions, the system prompt and the wrapping. */
const PROMPT_OVERHEAD_TOKENS = 2_000;
/** Between reads, the event loop runs (Escape, the progress line) at least this often. */
const YIELD_EVERY_BYTES = 2 * 1024 * 1024;

/** The characters of conversation one summary request may carry for a model with this window. */
export function pieceChars(contextWindow: number): number {
	const window = contextWindow > 0 ? contextWindow : 128_000;
	// Output and the running summary each take up to SUMMARY_MAX_TOKENS, a small window's share of them less.
	const room = Math.min(2 * SUMMARY_MAX_TOKENS, window / 4) + Math.min(PROMPT_OVERHEAD_TOKENS, window / 10);
	return Math.max(4_000, Math.floor((window - room) * CHARS_PER_TOKEN));
}

const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Thrown when the signal stops a streamed summary. */
export class SummaryStoppedError extends Error {
	constructor() {
		super("Summary cancelled");
		this.name = "SummaryStoppedError";
	}
}

/**
 * Summarises a stream of messages in bounded memory: each message is read, counted and cut into
 * pieces of what one request may carry, the newest `MAX_MODEL_PIECES` kept. The offline model's
 * summary is written by rule; a real model is asked piece by piece, each answer the next one's
 * previous summary, starting from a rule-written outline when older pieces were left out. One
 * piece in all is one request, the same as an unstreamed compaction's.
 */
export async function summarizeStream(request: StreamedSummaryRequest): Promise<StreamedSummary> {
	const limit = pieceChars(request.model.contextWindow);
	const digest = new RuleDigest();
	const files = new FileOperationsTally(request.previousFileOperations);
	const pieces: string[] = [];
	let dropped = 0;
	let current: string[] = [];
	let currentChars = 0;
	let tokens = 0;
	let read = 0;
	let sinceYield = 0;
	const closePiece = (): void => {
		if (current.length === 0) return;
		pieces.push(current.join("\n\n"));
		if (pieces.length > MAX_MODEL_PIECES) {
			pieces.shift();
			dropped++;
		}
		current = [];
		currentChars = 0;
	};
	for (const { message, bytes } of request.items) {
		digest.add(message);
		files.add(message);
		tokens += estimateTokens(message);
		let text = serializeConversation([message]);
		if (text.length > limit) text = `${text.slice(0, limit - 100)}\n[… ${text.length - limit + 100} more characters]`;
		if (text) {
			if (currentChars + text.length + 2 > limit) closePiece();
			current.push(text);
			currentChars += text.length + 2;
		}
		read += bytes;
		sinceYield += bytes;
		if (sinceYield >= YIELD_EVERY_BYTES) {
			sinceYield = 0;
			request.onProgress?.({ kind: "reading", read, total: request.totalBytes });
			await pause();
			if (request.signal.aborted) throw new SummaryStoppedError();
		}
	}
	closePiece();
	const fileOperations = files.result();
	if (isOfflineModel(request.model) && (pieces.length > 1 || dropped > 0))
		return { summary: digest.text(request.previousSummary), fileOperations, tokens };
	let summary = request.previousSummary;
	if (dropped > 0) summary = digest.text(request.previousSummary);
	for (const [index, conversation] of pieces.entries()) {
		if (request.signal.aborted) throw new SummaryStoppedError();
		if (pieces.length > 1) request.onProgress?.({ kind: "summarising", piece: index + 1, pieces: pieces.length });
		summary = await summarize({
			model: request.model,
			...(request.apiKey ? { apiKey: request.apiKey } : {}),
			signal: request.signal,
			kind: "compaction",
			messages: [],
			conversation,
			...(summary ? { previousSummary: summary } : {}),
			...(request.instructions ? { instructions: request.instructions } : {}),
		});
	}
	if (summary === undefined) throw new Error("Nothing to summarise");
	return { summary, fileOperations, tokens };
}
