import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "./messages.js";
import {
	type CompactionEntry,
	isKnownEntry,
	type ModelChangeEntry,
	type SessionContext,
	type SessionEntry,
	type UnknownSessionEntry,
} from "./types.js";

type StoredEntry = SessionEntry | UnknownSessionEntry;

/** A context with nothing in it (leaf null, or no entries). */
export function emptySessionContext(): SessionContext {
	return { messages: [], thinkingLevel: "off", models: {}, injectedTtsrRules: [], mode: "none" };
}

/** "provider/modelId" of a model_change entry, reading the old `{provider, modelId}` shape too. */
export function modelChangeTarget(entry: ModelChangeEntry): string | undefined {
	if (typeof entry.model === "string" && entry.model.length > 0) return entry.model;
	if (typeof entry.provider === "string" && typeof entry.modelId === "string")
		return `${entry.provider}/${entry.modelId}`;
	return undefined;
}

/**
 * The path root → `leaf`, built by walking parent links and reversing once (linear in path
 * length). A parent cycle in a damaged file stops the walk instead of looping forever.
 */
export function pathToEntry(leaf: StoredEntry, byId: ReadonlyMap<string, StoredEntry>): StoredEntry[] {
	const path: StoredEntry[] = [];
	// A path can be no longer than the number of entries; a longer walk means a parent cycle.
	let current: StoredEntry | undefined = leaf;
	for (let steps = byId.size; current && steps >= 0; steps--) {
		path.push(current);
		current = current.parentId === null ? undefined : byId.get(current.parentId);
	}
	if (current) return cutAtCycle(path).reverse();
	return path.reverse();
}

/** A damaged file's parent links loop: keep the walk up to the first entry seen twice. */
function cutAtCycle(path: StoredEntry[]): StoredEntry[] {
	const seen = new Set<string>();
	const kept: StoredEntry[] = [];
	for (const entry of path) {
		if (seen.has(entry.id)) break;
		seen.add(entry.id);
		kept.push(entry);
	}
	return kept;
}

function messageOf(entry: StoredEntry): AgentMessage | undefined {
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

/**
 * Resolves what is sent to the model for a leaf: the path's messages (compaction-aware) and the
 * runtime state (thinking level, models by role, TTSR rules, mode) derived along it.
 */
export function buildSessionContext(
	entries: readonly StoredEntry[],
	leafId?: string | null,
	byId?: ReadonlyMap<string, StoredEntry>,
): SessionContext {
	const index = byId ?? new Map(entries.map((e) => [e.id, e]));
	const leaf = resolveLeaf(entries, leafId, index);
	const context = emptySessionContext();
	if (!leaf) return context;
	const path = pathToEntry(leaf, index);

	let lastAssistantModel: string | undefined;
	let compactionIndex = -1;
	const rules = new Set<string>();
	for (let i = 0; i < path.length; i++) {
		const entry = path[i]!;
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
			case "message":
				if (entry.message.role === "assistant") {
					lastAssistantModel = `${entry.message.provider}/${entry.message.model}`;
				}
				break;
			case "ttsr_injection":
				for (const rule of entry.injectedRules) rules.add(rule);
				break;
			case "mode_change":
				context.mode = entry.mode;
				context.modeData = entry.data;
				break;
			case "compaction":
				compactionIndex = i;
				break;
			default:
				break;
		}
	}
	if (context.models.default === undefined && lastAssistantModel) context.models.default = lastAssistantModel;
	context.injectedTtsrRules = [...rules];
	if (context.modeData === undefined) delete context.modeData;

	const messages = context.messages;
	let start = 0;
	if (compactionIndex >= 0) {
		const compaction = path[compactionIndex] as CompactionEntry;
		messages.push(createCompactionSummaryMessage(compaction.summary, compaction.tokensBefore, compaction.timestamp));
		let kept = false;
		for (let i = 0; i < compactionIndex; i++) {
			const entry = path[i]!;
			if (entry.id === compaction.firstKeptEntryId) kept = true;
			if (!kept) continue;
			const message = messageOf(entry);
			if (message) messages.push(message);
		}
		start = compactionIndex + 1;
	}
	for (let i = start; i < path.length; i++) {
		const message = messageOf(path[i]!);
		if (message) messages.push(message);
	}
	return context;
}
