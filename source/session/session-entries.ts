import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ImageContent, TextContent } from "@mariozechner/pi-ai";
import {
	type StreamedItem,
	streamContextOfPath,
	streamedBytesOfPath,
	type WindowedContext,
	windowedContextOfPath,
} from "./context-window.js";
import type { EntryBodies } from "./entry-bodies.js";
import {
	type EntryShape,
	type EntryShapes,
	isoNow,
	type NewEntry,
	type PathShapes,
	type SessionInitOptions,
	withoutUndefined,
} from "./entry-fields.js";
import { EntryTable, NO_POSITION } from "./entry-table.js";
import { createEntryId } from "./ids.js";
import { type EntrySlot, isLazy, residentEntry, type UsageFacts } from "./lazy-entry.js";
import { pinContext } from "./pinned-context.js";
import {
	type ContextItems,
	contextItemsOfPath,
	contextStateOfPath,
	countContextMessages,
	sessionContextOfPath,
} from "./session-context.js";
import { SessionTally } from "./session-tally.js";
import { buildTree, ChildIndex } from "./session-tree.js";
import type { SkeletonColumns } from "./skeleton-columns.js";
import { SlotPath } from "./slot-path.js";
import { buildSummaryTree, type SummaryTreeNode } from "./summary-tree.js";
import type { SessionContext, SessionEntry, SessionTreeNode, StoredEntry } from "./types.js";

export type { EntryShape, EntryShapes, PathShapes, SessionInitOptions };

/**
 * The in-memory session tree: entries in insertion order, an id index, labels and the movable
 * leaf. Every append creates one entry under the leaf and moves the leaf to it; subclasses persist
 * through `onAppend`.
 */
export abstract class SessionEntries {
	#table = new EntryTable([]);
	#tally = new SessionTally();
	#children: ChildIndex<EntrySlot> | undefined;
	#leafId: string | null = null;
	/** Position of the leaf in `#table` (`NO_POSITION` when the leaf is null). */
	#leafAt = NO_POSITION;
	#bodies: EntryBodies | undefined;
	#lastPath: { id: string; path: SlotPath } | undefined;
	/** Bumped whenever entries are added or replaced. */
	#edition = 0;
	#summaryTree: { edition: number; roots: WeakRef<SummaryTreeNode[]> } | undefined;
	#clock: () => string = isoNow;

	/**
	 * Where new entries' timestamps come from (default: now). An importer replays another tool's
	 * session with the times it happened at, so search by date and the picker tell the truth.
	 */
	setClock(clock: (() => string) | undefined): void {
		this.#clock = clock ?? isoNow;
	}

	/** The timestamp the next entry (or a new header) gets. */
	protected now(): string {
		return this.#clock();
	}

	/** Called after each append, with the entry already in memory. */
	protected abstract onAppend(entry: SessionEntry): void;

	/**
	 * Replaces every entry (load, new session); the leaf becomes the last entry. Skeletons among
	 * them are read through `bodies` when asked for; the active path's context is read at once.
	 */
	protected adoptEntries(entries: EntrySlot[] | SkeletonColumns, bodies?: EntryBodies): void {
		this.#bodies?.close();
		this.#bodies = bodies;
		this.#lastPath = undefined;
		this.#edition++;
		this.#table = new EntryTable(entries);
		this.#children = undefined;
		this.#tally = Array.isArray(entries) ? SessionTally.of(entries) : SessionTally.ofRows(entries as SkeletonColumns);
		const size = this.#table.size;
		this.#leafAt = size - 1;
		this.#leafId = size > 0 ? this.#table.id(size - 1) : null;
		if (bodies) this.#keepContextResident();
	}

	/** Where skeletons' bodies are read from (undefined: every entry is in memory). */
	protected get bodies(): EntryBodies | undefined {
		return this.#bodies;
	}

	/** Pins what the model is sent next (see `pinContext`). */
	#keepContextResident(): void {
		pinContext(this.#contextPath(), (slot) => this.#body(slot));
	}

	/** The entry of a slot, its body read from the file if it is a skeleton (and kept a while, unless `keep` is false). */
	#body(slot: EntrySlot, keep = true): StoredEntry {
		if (!isLazy(slot)) return slot;
		if (slot.pinned) return slot.pinned;
		if (!this.#bodies) throw new Error(`Entry ${slot.id} has no file to read it from`);
		return this.#bodies.read(slot, keep);
	}

	/** The path root → `fromId`; the last one asked for is kept (entries never move, so it stays right). */
	#pathSlots(fromId: string | null): SlotPath {
		if (fromId === null) return new SlotPath(this.#table, new Int32Array(0));
		if (this.#lastPath?.id === fromId) return this.#lastPath.path;
		const at = fromId === this.#leafId ? this.#leafAt : this.#table.position(fromId);
		if (at === undefined) return new SlotPath(this.#table, new Int32Array(0));
		const path = this.#table.path(at);
		this.#lastPath = { id: fromId, path };
		return path;
	}

	/** Totals of every assistant message's usage in the session (all branches). */
	getUsageTotals(): UsageFacts {
		return { ...this.#tally.usage };
	}

	/** True once any assistant message exists (persistence starts then). */
	protected get hasAssistantMessage(): boolean {
		return this.#tally.hasAssistant;
	}

	/** The live entry array, for persistence snapshots (never handed out). */
	protected get entriesView(): readonly EntrySlot[] {
		return this.#table.slots();
	}

	#append(fields: NewEntry): string {
		// Object.assign keeps the target's key order: type, id, parentId, timestamp lead every line.
		const id = createEntryId({ has: (taken) => this.#table.position(taken) !== undefined });
		const base = { type: fields.type, id, parentId: this.#leafId, timestamp: this.#clock() };
		const entry = withoutUndefined(Object.assign(base, fields)) as SessionEntry;
		const at = this.#table.push(entry, this.#leafAt);
		this.#children?.add(entry);
		this.#tally.add(entry);
		// The new leaf's path is its parent's plus itself: a 100k-entry path is not walked again.
		if (this.#lastPath && this.#lastPath.id === this.#leafId)
			this.#lastPath = { id: entry.id, path: this.#lastPath.path.with(at) };
		this.#leafId = entry.id;
		this.#leafAt = at;
		this.#edition++;
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
		if (this.#table.position(targetId) === undefined) throw new Error(`Entry ${targetId} not found`);
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
		const at = this.#table.position(entryId);
		if (at === undefined) throw new Error(`Entry ${entryId} not found`);
		this.#leafId = entryId;
		this.#leafAt = at;
	}

	/** Sets the leaf to null: the next append starts a new root. */
	resetLeaf(): void {
		this.#leafId = null;
		this.#leafAt = NO_POSITION;
	}

	/** Moves the leaf to `fromId` (null: the root) and appends a summary of the branch left behind. */
	branchWithSummary<T = unknown>(fromId: string | null, summary: string, details?: T, fromExtension?: boolean): string {
		if (fromId === null) this.resetLeaf();
		else this.branch(fromId);
		return this.#append({ type: "branch_summary", fromId: fromId ?? "root", summary, details, fromExtension });
	}

	/** All entries (header excluded) in insertion order (a big session's bodies are all read: prefer narrower calls). */
	getEntries(): StoredEntry[] {
		const entries: StoredEntry[] = new Array(this.#table.size);
		for (let i = 0; i < entries.length; i++) entries[i] = this.#body(this.#table.slot(i));
		return entries;
	}

	/**
	 * Every entry in insertion order, one at a time: a big session's bodies are read as the loop
	 * reaches them and can be dropped after, so memory stays that of one entry.
	 */
	*iterateEntries(): Generator<StoredEntry> {
		for (let i = 0; i < this.#table.size; i++) yield this.#body(this.#table.slot(i));
	}

	/** The tree's shape without bodies: id, parent, type and time of every entry, in insertion order. */
	getSkeleton(): EntryShapes {
		return SlotPath.all(this.#table);
	}

	/** `getSkeleton()`'s shapes of the entries of type `type` only. */
	getSkeletonOfType(type: string): readonly EntryShape[] {
		return this.#table.positionsOfType(type).map((at) => this.#table.slot(at));
	}

	/** One entry by id. */
	getEntry(id: string): StoredEntry | undefined {
		const slot = this.#slot(id);
		return slot && this.#body(slot);
	}

	/** The entry of a shape from `getSkeleton()` or `getBranchSkeleton()`, read from disk if need be (no id lookup). */
	entryOf(shape: EntryShape): StoredEntry {
		return this.#body(shape as EntrySlot);
	}

	/** The entry of a shape from `getSkeleton()` or `getBranchSkeleton()` if its body is in memory now. */
	residentOf(shape: EntryShape): StoredEntry | undefined {
		return residentEntry(shape as EntrySlot);
	}

	#slot(id: string): EntrySlot | undefined {
		const at = this.#table.position(id);
		return at === undefined ? undefined : this.#table.slot(at);
	}

	/** The current leaf (null before the first entry or after resetLeaf). */
	getLeafId(): string | null {
		return this.#leafId;
	}

	/** The whole tree, built iteratively; entries with a missing parent are roots. */
	getTree(): SessionTreeNode[] {
		return buildTree(this.getEntries(), this.#tally.labels);
	}

	/** The tree as `/tree` draws it: kinds at once, each entry's text read when first asked for. */
	getSummaryTree(): readonly SummaryTreeNode[] {
		// The same tree until an entry is added: every frame of `/tree` asks for it, and half a million
		// nodes are not rebuilt per frame. Held weakly, so a closed `/tree` leaves nothing behind.
		const cached = this.#summaryTree?.edition === this.#edition ? this.#summaryTree.roots.deref() : undefined;
		if (cached) return cached;
		// The leaf's path is found from its known position: `/tree` opens without building the id index.
		const positionOf = (id: string) => (id === this.#leafId ? this.#leafAt : this.#table.position(id));
		const roots = buildSummaryTree(this.#table, this.#tally.labels, (slot) => this.#body(slot), positionOf);
		this.#summaryTree = { edition: this.#edition, roots: new WeakRef(roots) };
		return roots;
	}

	/** The path root → `fromId` (default: the leaf). */
	getBranch(fromId?: string): StoredEntry[] {
		return this.#pathSlots(fromId ?? this.#leafId).map((slot) => this.#body(slot));
	}

	/** `getBranch` without bodies: the shape of each entry on the path root → `fromId` (default: the leaf). */
	getBranchSkeleton(fromId?: string): PathShapes {
		return this.#pathSlots(fromId ?? this.#leafId);
	}

	/** The entry if its body is in memory now (undefined when it would have to be read from disk). */
	peekEntry(id: string): StoredEntry | undefined {
		const slot = this.#slot(id);
		return slot && residentEntry(slot);
	}

	/** Direct children of an entry, in insertion order. */
	getChildren(id: string): StoredEntry[] {
		this.#children ??= new ChildIndex(this.#table.slots());
		return this.#children.get(id).map((slot) => this.#body(slot));
	}

	/** The current label of an entry. */
	getLabel(id: string): string | undefined {
		return this.#tally.labels.get(id);
	}

	/** What is sent to the model at the current leaf. */
	buildSessionContext(): SessionContext {
		return sessionContextOfPath(this.#contextPath(), (slot) => this.#body(slot));
	}

	/**
	 * `buildSessionContext()` with only its newest messages up to `maxTokens` read (a model's window):
	 * a context bigger than that says how much was left on disk, to be compacted before it is sent.
	 */
	buildSessionContextWithin(maxTokens: number): WindowedContext {
		return windowedContextOfPath(this.#contextPath(), (slot) => this.#body(slot), maxTokens);
	}

	/** The context's messages before the entry `untilId`, read from disk one at a time (what a compaction summarises). */
	streamContext(untilId: string): Generator<StreamedItem> {
		return streamContextOfPath(this.#contextPath(), (slot) => this.#body(slot, false), untilId);
	}

	/** The bytes `streamContext(untilId)` reads, from the skeleton. */
	streamedContextBytes(untilId: string): number {
		return streamedBytesOfPath(this.#contextPath(), (slot) => this.#body(slot), untilId);
	}

	/** The path `buildSessionContext` reads: root → leaf. */
	#contextPath(): SlotPath {
		return this.#pathSlots(this.#leafId);
	}

	/** `buildSessionContext()`'s state and message count, without reading any message body. */
	describeContext(): { messages: number; models: Record<string, string>; thinkingLevel: string } {
		const path = this.#contextPath();
		const { models, thinkingLevel } = contextStateOfPath(path);
		return { messages: countContextMessages(path, (slot) => this.#body(slot)), models, thinkingLevel };
	}

	/** The messages of `buildSessionContext()` with the entries they come from (what compaction plans over). */
	buildContextItems(): ContextItems {
		return contextItemsOfPath(this.#contextPath(), (slot) => this.#body(slot));
	}
}
