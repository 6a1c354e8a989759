import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ImageContent, TextContent } from "@mariozechner/pi-ai";
import { createEntryId } from "./ids.js";
import { buildContextItems, buildSessionContext, type ContextItems, pathToEntry } from "./session-context.js";
import { buildTree, ChildIndex } from "./session-tree.js";
import type { SessionContext, SessionEntry, SessionTreeNode, StoredEntry } from "./types.js";

/** An entry as stored: one of the taxonomy, or an unknown type kept verbatim. */
type NewEntry<T extends SessionEntry = SessionEntry> = T extends SessionEntry
	? Omit<T, "id" | "parentId" | "timestamp">
	: never;

/** Options for `appendSessionInit`. */
export interface SessionInitOptions {
	systemPrompt: string;
	task?: string;
	tools: string[];
	outputSchema?: unknown;
}

function withoutUndefined<T extends object>(value: T): T {
	for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
	return value;
}

/**
 * The in-memory session tree: entries in insertion order, an id index, labels and the movable
 * leaf. Every append creates one entry under the leaf and moves the leaf to it; subclasses persist
 * through `onAppend`.
 */
export abstract class SessionEntries {
	#entries: StoredEntry[] = [];
	#byId = new Map<string, StoredEntry>();
	#labels = new Map<string, string>();
	#children: ChildIndex | undefined;
	#leafId: string | null = null;
	#hasAssistant = false;

	/** Called after each append, with the entry already in memory. */
	protected abstract onAppend(entry: SessionEntry): void;

	/** Replaces every entry (load, new session); the leaf becomes the last entry. */
	protected adoptEntries(entries: StoredEntry[]): void {
		this.#entries = entries;
		this.#byId = new Map();
		this.#labels = new Map();
		this.#children = undefined;
		this.#hasAssistant = false;
		for (const entry of entries) this.#index(entry);
		this.#leafId = entries.length > 0 ? entries[entries.length - 1]!.id : null;
	}

	/** True once any assistant message exists (persistence starts then). */
	protected get hasAssistantMessage(): boolean {
		return this.#hasAssistant;
	}

	/** The live entry array, for persistence snapshots (never handed out). */
	protected get entriesView(): readonly StoredEntry[] {
		return this.#entries;
	}

	#index(entry: StoredEntry): void {
		this.#byId.set(entry.id, entry);
		this.#children?.add(entry);
		if (entry.type === "label") {
			const { targetId, label } = entry as SessionEntry & { type: "label" };
			if (label === undefined) this.#labels.delete(targetId);
			else this.#labels.set(targetId, label);
		} else if (!this.#hasAssistant && entry.type === "message") {
			this.#hasAssistant = (entry as SessionEntry & { type: "message" }).message.role === "assistant";
		}
	}

	#append(fields: NewEntry): string {
		// Object.assign keeps the target's key order: type, id, parentId, timestamp lead every line.
		const id = createEntryId(this.#byId);
		const base = { type: fields.type, id, parentId: this.#leafId, timestamp: new Date().toISOString() };
		const entry = withoutUndefined(Object.assign(base, fields)) as SessionEntry;
		this.#entries.push(entry);
		this.#index(entry);
		this.#leafId = entry.id;
		this.onAppend(entry);
		return entry.id;
	}

	/** Appends a message (user, assistant, tool result or custom agent message). */
	appendMessage(message: AgentMessage): string {
		return this.#append({ type: "message", message });
	}

	/** Records a thinking-level change. */
	appendThinkingLevelChange(thinkingLevel: string): string {
		return this.#append({ type: "thinking_level_change", thinkingLevel });
	}

	/** Records a model change; `model` is "provider/modelId", `role` defaults to "default" when read. */
	appendModelChange(model: string, role?: string): string {
		return this.#append({ type: "model_change", model, role });
	}

	/** Records a compaction: the summary stands in for everything before `firstKeptEntryId`. */
	appendCompaction<T = unknown>(
		summary: string,
		shortSummary: string | undefined,
		firstKeptEntryId: string,
		tokensBefore: number,
		details?: T,
		preserveData?: Record<string, unknown>,
		fromExtension?: boolean,
	): string {
		return this.#append({
			type: "compaction",
			summary,
			shortSummary,
			firstKeptEntryId,
			tokensBefore,
			details,
			preserveData,
			fromExtension,
		});
	}

	/** Persists extension state (never part of the model's context). */
	appendCustomEntry<T = unknown>(customType: string, data?: T): string {
		return this.#append({ type: "custom", customType, data });
	}

	/** Appends an extension message that is part of the model's context. */
	appendCustomMessageEntry<T = unknown>(
		customType: string,
		content: string | (TextContent | ImageContent)[],
		display: boolean,
		details?: T,
	): string {
		return this.#append({ type: "custom_message", customType, content, display, details });
	}

	/** Sets (or, with no label, clears) the label of an entry. */
	appendLabelChange(targetId: string, label?: string): string {
		if (!this.#byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
		return this.#append({ type: "label", targetId, label });
	}

	/** Records TTSR rules injected into the context. */
	appendTtsrInjection(rules: readonly string[]): string {
		return this.#append({ type: "ttsr_injection", injectedRules: [...rules] });
	}

	/** Records the system prompt, task and tools a session started with. */
	appendSessionInit(init: SessionInitOptions): string {
		return this.#append({
			type: "session_init",
			systemPrompt: init.systemPrompt,
			task: init.task,
			tools: [...init.tools],
			outputSchema: init.outputSchema,
		});
	}

	/** Records an agent mode change (plan, …). */
	appendModeChange(mode: string, data?: Record<string, unknown>): string {
		return this.#append({ type: "mode_change", mode, data });
	}

	/** Moves the leaf to an existing entry; entries are untouched. */
	branch(entryId: string): void {
		if (!this.#byId.has(entryId)) throw new Error(`Entry ${entryId} not found`);
		this.#leafId = entryId;
	}

	/** Sets the leaf to null: the next append starts a new root. */
	resetLeaf(): void {
		this.#leafId = null;
	}

	/** Moves the leaf to `fromId` (null: the root) and appends a summary of the branch left behind. */
	branchWithSummary<T = unknown>(fromId: string | null, summary: string, details?: T, fromExtension?: boolean): string {
		if (fromId === null) this.resetLeaf();
		else this.branch(fromId);
		return this.#append({ type: "branch_summary", fromId: fromId ?? "root", summary, details, fromExtension });
	}

	/** All entries (header excluded) in insertion order. */
	getEntries(): StoredEntry[] {
		return this.#entries.slice();
	}

	/** One entry by id. */
	getEntry(id: string): StoredEntry | undefined {
		return this.#byId.get(id);
	}

	/** The current leaf (null before the first entry or after resetLeaf). */
	getLeafId(): string | null {
		return this.#leafId;
	}

	/** The whole tree, built iteratively; entries with a missing parent are roots. */
	getTree(): SessionTreeNode[] {
		return buildTree(this.#entries, this.#byId, this.#labels);
	}

	/** The path root → `fromId` (default: the leaf). */
	getBranch(fromId?: string): StoredEntry[] {
		const start = fromId ?? this.#leafId;
		if (start === null) return [];
		const leaf = this.#byId.get(start);
		return leaf ? pathToEntry(leaf, this.#byId) : [];
	}

	/** Direct children of an entry, in insertion order. */
	getChildren(id: string): StoredEntry[] {
		this.#children ??= new ChildIndex(this.#entries);
		return this.#children.get(id).slice();
	}

	/** The current label of an entry. */
	getLabel(id: string): string | undefined {
		return this.#labels.get(id);
	}

	/** What is sent to the model at the current leaf. */
	buildSessionContext(): SessionContext {
		return buildSessionContext(this.#entries, this.#leafId, this.#byId);
	}

	/** The messages of `buildSessionContext()` with the entries they come from (what compaction plans over). */
	buildContextItems(): ContextItems {
		return buildContextItems(this.#entries, this.#leafId, this.#byId);
	}
}
