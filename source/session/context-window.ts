import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { Api, Model } from "@mariozechner/pi-ai";
import { estimateTokens } from "../agent/compaction/token-estimate.js";
import { type EntrySlot, hasId, isLazy } from "./lazy-entry.js";
import { createCompactionSummaryMessage } from "./messages.js";
import { type BodyOf, type ContextItem, contextRange, contextStateOfPath, messageOfEntry } from "./session-context.js";
import type { EntrySlots } from "./slot-path.js";
import type { CompactionEntry, SessionContext } from "./types.js";

/** The part of a path's context that was left on disk (older than what was read). */
export interface OmittedContext {
	/** Messages of the context not read. */
	messages: number;
	/** Their lines' bytes in the file (a token estimate is about a quarter of it). */
	bytes: number;
}

/**
 * A path's context read back from its end up to a token budget: what a model with that window can
 * take. When `omitted.messages` is above 0 the context is bigger than the budget, and it must be
 * compacted before it is sent (the older part is streamed from disk then, see `streamContext`).
 */
export interface WindowedContext {
	/** State as `buildSessionContext` gives it; messages: the compaction's summary, then `items`. */
	context: SessionContext;
	compaction?: CompactionEntry;
	/** The newest context items, oldest first, that fit in the budget. */
	items: ContextItem[];
	omitted: OmittedContext;
	/** The estimated tokens of `items`. */
	tokens: number;
}

const MESSAGE_TYPES = new Set(["message", "custom_message", "branch_summary"]);

/** Bytes an entry takes in its file, or an estimate for one held in memory only. */
export function slotBytes(slot: EntrySlot): number {
	return isLazy(slot) ? slot.length : JSON.stringify(slot).length + 1;
}

/**
 * `sessionContextOfPath`, but only the newest messages up to `maxTokens` are read; the older ones
 * are counted from the skeleton (no body read), so a path of gigabytes costs what the window does.
 */
export function windowedContextOfPath(path: EntrySlots, body: BodyOf, maxTokens: number): WindowedContext {
	const context = contextStateOfPath(path);
	const { compaction, from } = contextRange(path, body);
	const compactionEntry = compaction >= 0 ? (body(path.at(compaction)!) as CompactionEntry) : undefined;
	const reversed: ContextItem[] = [];
	let tokens = compactionEntry ? Math.ceil(compactionEntry.summary.length / 4) : 0;
	let i = path.length - 1;
	for (; i >= from; i--) {
		if (i === compaction) continue;
		const slot = path.at(i)!;
		if (!MESSAGE_TYPES.has(slot.type)) continue;
		const entry = body(slot);
		const message = messageOfEntry(entry);
		if (!message) continue;
		const cost = estimateTokens(message);
		if (tokens + cost > maxTokens) break;
		tokens += cost;
		reversed.push({ entryId: entry.id, message });
	}
	const omitted: OmittedContext = { messages: 0, bytes: 0 };
	for (; i >= from; i--) {
		if (i === compaction) continue;
		const slot = path.at(i)!;
		if (!MESSAGE_TYPES.has(slot.type)) continue;
		omitted.messages++;
		omitted.bytes += slotBytes(slot);
	}
	const items = reversed.reverse();
	if (compactionEntry)
		context.messages.push(
			createCompactionSummaryMessage(compactionEntry.summary, compactionEntry.tokensBefore, compactionEntry.timestamp),
		);
	for (const item of items) context.messages.push(item.message);
	const windowed: WindowedContext = { context, items, omitted, tokens };
	if (compactionEntry) windowed.compaction = compactionEntry;
	return windowed;
}

/** One message of a streamed context, with its line's size (for progress). */
export interface StreamedItem {
	entryId: string;
	message: AgentMessage;
	bytes: number;
}

/**
 * The context's messages from its start (the compaction's first kept entry) up to, not including,
 * the entry `untilId`, read one at a time: a caller that drops each keeps one body in memory.
 */
export function* streamContextOfPath(path: EntrySlots, body: BodyOf, untilId: string): Generator<StreamedItem> {
	const { compaction, from } = contextRange(path, body);
	for (let i = from; i < path.length; i++) {
		if (i === compaction) continue;
		const slot = path.at(i)!;
		if (hasId(slot, untilId)) return;
		if (!MESSAGE_TYPES.has(slot.type)) continue;
		const entry = body(slot);
		const message = messageOfEntry(entry);
		if (message) yield { entryId: entry.id, message, bytes: slotBytes(slot) };
	}
}

/** The bytes of the context's messages before `untilId` (what `streamContextOfPath` will read). */
export function streamedBytesOfPath(path: EntrySlots, body: BodyOf, untilId: string): number {
	const { compaction, from } = contextRange(path, body);
	let bytes = 0;
	for (let i = from; i < path.length; i++) {
		if (i === compaction) continue;
		const slot = path.at(i)!;
		if (hasId(slot, untilId)) break;
		if (MESSAGE_TYPES.has(slot.type)) bytes += slotBytes(slot);
	}
	return bytes;
}

/** A model that does not say its window is read back this far (the context is then never cut short of it). */
const UNKNOWN_WINDOW_TOKENS = 1_000_000;

/**
 * How far past the window a context is read back: the read counts characters over four, which can
 * say twice what the provider counts (its reported usage decides the rest, before the prompt).
 */
const ESTIMATE_SLACK = 2;

/** The tokens of context read back at load for a model: its window, with the estimate's slack. */
export function readBackTokens(model: Pick<Model<Api>, "contextWindow">): number {
	return (model.contextWindow > 0 ? model.contextWindow : UNKNOWN_WINDOW_TOKENS) * ESTIMATE_SLACK;
}
