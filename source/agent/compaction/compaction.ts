import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { collectFileOperations, type FileOperations, isFileOperations } from "./file-operations.js";
import { estimateContextTokens, estimateTokens } from "./token-estimate.js";

/** Compaction settings. */
export interface CompactionSettings {
	/** Recent context kept verbatim after the summary. */
	keepRecentTokens: number;
	/** Headroom below the context window that triggers automatic compaction. */
	reserveTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { keepRecentTokens: 20_000, reserveTokens: 16_384 };

/**
 * The settings scaled to a context window: the reserve is at most a quarter of it and the kept
 * tail at most half. Unscaled, a window smaller than reserve + kept tail (the defaults: 36,384
 * tokens) is "near its end" from the first turn on, and compaction ran (or failed) after every
 * turn; scaled, a compaction leaves at least a quarter of the window to grow into. Large windows
 * keep the settings as they are.
 */
export function compactionSettingsFor(contextWindow: number, settings: CompactionSettings): CompactionSettings {
	if (contextWindow <= 0) return settings;
	return {
		reserveTokens: Math.min(settings.reserveTokens, Math.floor(contextWindow / 4)),
		keepRecentTokens: Math.min(settings.keepRecentTokens, Math.floor(contextWindow / 2)),
	};
}

/** What a compaction will summarise and keep. */
export interface CompactionPlan {
	firstKeptEntryId: string;
	messagesToSummarize: AgentMessage[];
	previousSummary?: string;
	tokensBefore: number;
	fileOperations: FileOperations;
}

/** One message of the model's context and the id of the entry it comes from. */
export interface PlannedItem {
	entryId: string;
	message: AgentMessage;
}

/** The previous compaction a new one builds on: its summary and the file operations it recorded. */
export interface PreviousCompaction {
	summary: string;
	details?: unknown;
}

/**
 * What compaction plans over: the model's context as the session resolves it (the session's
 * `buildContextItems()`), so the two can never disagree on what is in it.
 */
export interface PlanningContext {
	items: readonly PlannedItem[];
	compaction?: PreviousCompaction;
}

function isTurnStart(item: PlannedItem): boolean {
	return item.message.role === "user" || item.message.role === "bashExecution" || item.message.role === "custom";
}

/** A compaction to run, or why there is none (said after "Nothing to compact yet: "). */
export type CompactionPlanning = { kind: "plan"; plan: CompactionPlan } | { kind: "nothing"; reason: string };

const count = (n: number, word: string): string => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** Why `items` (the context since `previous`) cannot be compacted; `fits` when it is within the kept tail. */
function nothingReason(
	items: readonly PlannedItem[],
	previous: PreviousCompaction | undefined,
	fits: boolean,
	keep: number,
): string {
	const since = previous ? " since the last compaction" : "";
	if (items.length === 0) return previous ? "no messages since the last compaction" : "the session has no messages";
	if (items.length === 1) return `the context holds only 1 message${since}`;
	const tokens = `~${estimateContextTokens(items.map((i) => i.message)).toLocaleString("en-US")} tokens`;
	if (fits)
		return `the ${count(items.length, "message")} in the context${since} (${tokens}) fit in the recent part kept as it is (~${keep.toLocaleString("en-US")} tokens)`;
	return `the context${since} is one turn (${count(items.length, "message")}, ${tokens}) and a compaction only cuts where a prompt starts`;
}

/**
 * Plans a compaction of the model's context: keep about `keepRecentTokens` of recent context,
 * starting at a user turn so no tool result loses its call; or says why there is nothing to summarise.
 */
export function planCompaction(context: PlanningContext, settings: CompactionSettings): CompactionPlanning {
	const { items, compaction: previous } = context;
	if (items.length < 2)
		return { kind: "nothing", reason: nothingReason(items, previous, true, settings.keepRecentTokens) };
	let kept = 0;
	let cut = items.length;
	while (cut > 0 && kept < settings.keepRecentTokens) {
		cut--;
		kept += estimateTokens(items[cut]!.message);
	}
	// Everything counted without reaching the budget: the whole context is the kept tail.
	const fits = cut === 0 && kept < settings.keepRecentTokens;
	while (cut < items.length && !isTurnStart(items[cut]!)) cut++;
	if (cut >= items.length) {
		cut = items.length - 1;
		while (cut > 0 && !isTurnStart(items[cut]!)) cut--;
	}
	if (cut <= 0) return { kind: "nothing", reason: nothingReason(items, previous, fits, settings.keepRecentTokens) };
	const messagesToSummarize = items.slice(0, cut).map((i) => i.message);
	const summaryTokens = previous ? Math.ceil(previous.summary.length / 4) : 0;
	const previousOps = previous && isFileOperations(previous.details) ? previous.details : undefined;
	const plan: CompactionPlan = {
		firstKeptEntryId: items[cut]!.entryId,
		messagesToSummarize,
		tokensBefore: estimateContextTokens(items.map((i) => i.message)) + summaryTokens,
		fileOperations: collectFileOperations(messagesToSummarize, previousOps),
	};
	if (previous) plan.previousSummary = previous.summary;
	return { kind: "plan", plan };
}

/** True when the context is close enough to the window that it should be compacted. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
	return contextWindow > 0 && contextTokens > contextWindow - settings.reserveTokens;
}
