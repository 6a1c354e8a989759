import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { type EntrySlot, hasId, isLazy, residentEntry } from "./lazy-entry.js";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "./messages.js";
import { type EntrySlots, SlotPath } from "./slot-path.js";
import {
	type CompactionEntry,
	isKnownEntry,
	type ModelChangeEntry,
	type SessionContext,
	type StoredEntry,
} from "./types.js";

/** A context with nothing in it (leaf null, or no entries). */
function emptySessionContext(): SessionContext {
	return { messages: [], thinkingLevel: "off", models: {}, injectedTtsrRules: [], mode: "none" };
}

/** "provider/modelId" of a model_change entry, reading the old `{provider, modelId}` shape too. */
function modelChangeTarget(entry: ModelChangeEntry): string | undefined {
	if (typeof entry.model === "string" && entry.model.length > 0) return entry.model;
	if (typeof entry.provider === "string" && typeof entry.modelId === "string")
		return `${entry.provider}/${entry.modelId}`;
	return undefined;
}

/**
 * The path root → `leaf`, built by walking parent links and reversing once (linear in path
 * length). A parent cycle in a damaged file stops the walk instead of looping forever.
 */
export function pathToEntry<T extends { id: string; parentId: string | null }>(
	leaf: T,
	byId: ReadonlyMap<string, T>,
): T[] {
	const path: T[] = [];
	// A path can be no longer than the number of entries; a longer walk means a parent cycle.
	let current: T | undefined = leaf;
	for (let steps = byId.size; current && steps >= 0; steps--) {
		path.push(current);
		current = current.parentId === null ? undefined : byId.get(current.parentId);
	}
	if (current) return cutAtCycle(path).reverse();
	return path.reverse();
}

/** A damaged file's parent links loop: keep the walk up to the first entry seen twice. */
function cutAtCycle<T extends { id: string }>(path: T[]): T[] {
	const seen = new Set<string>();
	const kept: T[] = [];
	for (const entry of path) {
		if (seen.has(entry.id)) break;
		seen.add(entry.id);
		kept.push(entry);
	}
	return kept;
}

/** The message an entry puts in the model's context (message, custom_message, branch_summary), if any. */
export function messageOfEntry(entry: StoredEntry): AgentMessage | undefined {
	if (!isKnownEntry(entry)) return undefined;
	switch (entry.type) {
		case "message":
			return entry.message;
		case "custom_message":
			return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entry.timestamp);
		case "branch_summary":
			return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
		default:
			return undefined;
	}
}

/** One message of the model's context and the id of the entry it comes from. */
export interface ContextItem {
	entryId: string;
	message: AgentMessage;
}

/**
 * The model's context along a path, as items: the latest compaction on it (its summary is sent
 * first), then each message the compaction keeps — from its `firstKeptEntryId` up to it, and all
 * after it. The one rule both `buildSessionContext` and compaction planning read.
 */
export interface ContextItems {
	compaction?: CompactionEntry;
	items: ContextItem[];
}

/** How a path's skeletons become entries (identity for a path held in memory). */
export type BodyOf = (slot: EntrySlot) => StoredEntry;

const resident: BodyOf = (slot) => slot as StoredEntry;

/** Index of the latest compaction on a path, or -1. */
export function latestCompactionIndex(path: EntrySlots): number {
	for (let i = path.length - 1; i >= 0; i--) if (path.at(i)!.type === "compaction") return i;
	return -1;
}

/**
 * Which part of a path is in the model's context: the latest compaction (index, -1 for none), and
 * the index the messages start at (the compaction's first kept entry, or the compaction, or 0).
 */
export function contextRange(path: EntrySlots, body: BodyOf = resident): { compaction: number; from: number } {
	const compaction = latestCompactionIndex(path);
	if (compaction < 0) return { compaction, from: 0 };
	const firstKept = (body(path.at(compaction)!) as CompactionEntry).firstKeptEntryId;
	// Backwards from the compaction: what it keeps is just before it, and a path can be half a
	// million entries long (ids are unique, so the first match either way is the same entry).
	let kept = -1;
	for (let i = compaction - 1; i >= 0; i--) {
		if (hasId(path.at(i)!, firstKept)) {
			kept = i;
			break;
		}
	}
	return { compaction, from: kept >= 0 ? kept : compaction };
}

const MESSAGE_TYPES = new Set(["message", "custom_message", "branch_summary"]);

/** How many messages `buildSessionContext` sends for a path, counted without reading bodies. */
export function countContextMessages(path: EntrySlots, body: BodyOf = resident): number {
	const { compaction, from } = contextRange(path, body);
	let count = compaction >= 0 ? 1 : 0;
	for (let i = from; i < path.length; i++) if (i !== compaction && MESSAGE_TYPES.has(path.at(i)!.type)) count++;
	return count;
}

/** The context items of a path root → leaf (see `ContextItems`); only their entries' bodies are read. */
export function contextItemsOfPath(path: EntrySlots, body: BodyOf = resident): ContextItems {
	const { compaction, from } = contextRange(path, body);
	const items: ContextItem[] = [];
	for (let i = from; i < path.length; i++) {
		if (i === compaction) continue;
		const entry = body(path.at(i)!);
		const message = messageOfEntry(entry);
		if (message) items.push({ entryId: entry.id, message });
	}
	return compaction >= 0 ? { compaction: body(path.at(compaction)!) as CompactionEntry, items } : { items };
}

function resolveLeaf(
	entries: readonly StoredEntry[],
	leafId: string | null | undefined,
	byId: ReadonlyMap<string, StoredEntry>,
): StoredEntry | undefined {
	if (leafId === null) return undefined;
	if (leafId !== undefined) {
		const explicit = byId.get(leafId);
		if (explicit) return explicit;
	}
	return entries[entries.length - 1];
}

/** The path root → leaf that `buildSessionContext` reads (empty for leaf null or no entries). */
function contextPath(
	entries: readonly StoredEntry[],
	leafId: string | null | undefined,
	byId: ReadonlyMap<string, StoredEntry> | undefined,
): StoredEntry[] {
	const index = byId ?? new Map(entries.map((e) => [e.id, e]));
	const leaf = resolveLeaf(entries, leafId, index);
	return leaf ? pathToEntry(leaf, index) : [];
}

/** The context items of a leaf, resolved as `buildSessionContext` resolves it. */
export function buildContextItems(
	entries: readonly StoredEntry[],
	leafId?: string | null,
	byId?: ReadonlyMap<string, StoredEntry>,
): ContextItems {
	return contextItemsOfPath(contextPath(entries, leafId, byId));
}

/**
 * Resolves what is sent to the model for a leaf: the path's messages (compaction-aware) and the
 * runtime state (thinking level, models by role, TTSR rules, mode) derived along it.
 */
export function buildSessionContext(
	entries: readonly StoredEntry[],
	leafId?: string | null,
	byId?: ReadonlyMap<string, StoredEntry>,
): SessionContext {
	return sessionContextOfPath(contextPath(entries, leafId, byId));
}

/**
 * `buildSessionContext` over a path root → leaf whose entries may be skeletons: the state comes from
 * entries kept in memory (and an assistant skeleton's model), the messages from the bodies in context.
 */
export function sessionContextOfPath(path: EntrySlots, body: BodyOf = resident): SessionContext {
	const context = contextStateOfPath(path);
	const { compaction, items } = contextItemsOfPath(path, body);
	if (compaction)
		context.messages.push(
			createCompactionSummaryMessage(compaction.summary, compaction.tokensBefore, compaction.timestamp),
		);
	for (const item of items) context.messages.push(item.message);
	return context;
}

/** The runtime state along a path (thinking level, models by role, rules, mode), with no messages: no body is read. */
export function contextStateOfPath(path: EntrySlots): SessionContext {
	const context = emptySessionContext();
	if (path.length === 0) return context;

	const rules = new Set<string>();
	// Bodies left on disk are messages and the like: the state is in the entries kept in memory.
	const residents = path instanceof SlotPath ? path.residents() : residentsOf(path);
	for (const entry of residents) {
		if (!isKnownEntry(entry)) continue;
		switch (entry.type) {
			case "thinking_level_change":
				context.thinkingLevel = entry.thinkingLevel;
				break;
			case "model_change": {
				const target = modelChangeTarget(entry);
				if (target) context.models[entry.role ?? "default"] = target;
				break;
			}
			case "ttsr_injection":
				for (const rule of entry.injectedRules) rules.add(rule);
				break;
			case "mode_change":
				context.mode = entry.mode;
				context.modeData = entry.data;
				break;
			default:
				break;
		}
	}
	if (context.models.default === undefined) {
		const model = lastAssistantModel(path);
		if (model) context.models.default = model;
	}
	context.injectedTtsrRules = [...rules];
	if (context.modeData === undefined) delete context.modeData;
	return context;
}

function residentsOf(path: EntrySlots): StoredEntry[] {
	const found: StoredEntry[] = [];
	for (const slot of path) {
		const entry = residentEntry(slot);
		if (entry) found.push(entry);
	}
	return found;
}

/** "provider/model" of the path's last assistant message (in memory, or known from its skeleton). */
function lastAssistantModel(path: EntrySlots): string | undefined {
	for (let i = path.length - 1; i >= 0; i--) {
		const slot = path.at(i)!;
		const entry = residentEntry(slot);
		if (!entry) {
			if (isLazy(slot) && slot.model !== undefined) return slot.model;
			continue;
		}
		if (isKnownEntry(entry) && entry.type === "message" && entry.message.role === "assistant")
			return `${entry.message.provider}/${entry.message.model}`;
	}
	return undefined;
}
