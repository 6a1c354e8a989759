import { dirname, join, resolve } from "node:path";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ImageContent, TextContent } from "@mariozechner/pi-ai";
import { createEntryId, createSessionId } from "./ids.js";
import { MemorySessionStorage } from "./memory-session-storage.js";
import { migrateSessionEntries } from "./migrations.js";
import { resolveBlobRefs } from "./persist-transform.js";
import { buildSessionContext } from "./session-context.js";
import { resolveContinueTarget } from "./session-continue.js";
import { allSessionDirs, listSessionsIn } from "./session-discovery.js";
import { readSessionFile, type SessionFileRead } from "./session-loader.js";
import { getDefaultSessionDir, sessionFileName } from "./session-paths.js";
import { SessionPersistence } from "./session-persistence.js";
import { FileSessionStorage, type SessionStorage } from "./session-storage.js";
import { buildTree, ChildIndex } from "./session-tree.js";
import { writeTerminalBreadcrumb } from "./terminal-breadcrumb.js";
import {
	CURRENT_SESSION_VERSION,
	type FileEntry,
	type JsonlLineError,
	type SessionContext,
	type SessionEntry,
	type SessionHeader,
	type SessionInfo,
	type SessionTreeNode,
	type UnknownSessionEntry,
} from "./types.js";

type StoredEntry = SessionEntry | UnknownSessionEntry;
type NewEntry<T extends SessionEntry = SessionEntry> = T extends SessionEntry
	? Omit<T, "id" | "parentId" | "timestamp">
	: never;

/** What loading the current file found, for callers that want to tell the person. */
export interface SessionLoadReport {
	skippedLines: JsonlLineError[];
	tornTail: boolean;
	migratedFrom?: number;
	unresolvedBlobs: string[];
}

/** The result of `fork()`. */
export interface ForkResult {
	previousSessionFile: string | undefined;
	sessionFile: string;
}

/** Options for `appendSessionInit`. */
export interface SessionInitOptions {
	systemPrompt: string;
	task?: string;
	tools: string[];
	outputSchema?: unknown;
}

interface LoadedState {
	header: SessionHeader;
	entries: StoredEntry[];
	report: SessionLoadReport;
	migrated: boolean;
}

function withoutUndefined<T extends object>(value: T): T {
	for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
	return value;
}

function notASessionFile(path: string): Error {
	return new Error(`Not a session file: ${path}`);
}

/** Loads, migrates (in memory) and resolves blobs; throws `Not a session file` for foreign files. */
async function loadState(
	path: string,
	read: SessionFileRead,
	storage: SessionStorage,
): Promise<LoadedState | undefined> {
	if (read.kind === "invalid") throw notASessionFile(path);
	if (read.kind !== "ok") return undefined;
	const migratedFrom = migrateSessionEntries(read.entries);
	const unresolvedBlobs = await resolveBlobRefs(read.entries, storage.blobs);
	const report: SessionLoadReport = { skippedLines: read.skipped, tornTail: read.missingFinalNewline, unresolvedBlobs };
	if (migratedFrom !== undefined) report.migratedFrom = migratedFrom;
	return {
		header: read.entries[0] as SessionHeader,
		entries: read.entries.slice(1) as StoredEntry[],
		report,
		migrated: migratedFrom !== undefined,
	};
}

/**
 * The session: an append-only tree of entries plus a movable leaf, kept in memory first and
 * persisted to a JSONL file (deferred until the first assistant message, then appended).
 */
export class SessionManager {
	readonly #storage: SessionStorage;
	readonly #persist: boolean;
	readonly #persistence: SessionPersistence;
	#cwd: string;
	#sessionDir: string;
	#header!: SessionHeader;
	#entries: StoredEntry[] = [];
	#byId = new Map<string, StoredEntry>();
	#labels = new Map<string, string>();
	#children: ChildIndex | undefined;
	#leafId: string | null = null;
	#hasAssistant = false;
	#report: SessionLoadReport = { skippedLines: [], tornTail: false, unresolvedBlobs: [] };

	private constructor(cwd: string, sessionDir: string, storage: SessionStorage, persist: boolean) {
		this.#cwd = cwd;
		this.#sessionDir = sessionDir;
		this.#storage = storage;
		this.#persist = persist;
		this.#persistence = new SessionPersistence(storage);
	}

	/** A new persistent session for `cwd` (nothing is written before the first assistant message). */
	static async create(cwd: string, sessionDir?: string, storage?: SessionStorage): Promise<SessionManager> {
		const manager = new SessionManager(
			cwd,
			sessionDir ?? getDefaultSessionDir(cwd),
			storage ?? new FileSessionStorage(),
			true,
		);
		manager.#startNew(undefined);
		return manager;
	}

	/** Opens a session file (a missing or empty file starts a new session at that path). */
	static async open(path: string, sessionDir?: string, storage?: SessionStorage): Promise<SessionManager> {
		const file = resolve(path);
		const manager = new SessionManager(
			process.cwd(),
			sessionDir ?? dirname(file),
			storage ?? new FileSessionStorage(),
			true,
		);
		await manager.setSessionFile(file);
		return manager;
	}

	/** A session that is never written anywhere (`--no-session`). */
	static inMemory(cwd: string = process.cwd()): SessionManager {
		const manager = new SessionManager(cwd, "", new MemorySessionStorage(), false);
		manager.#startNew(undefined);
		return manager;
	}

	/** This terminal's last session for `cwd`, else the newest one there, else a new session. */
	static async continueRecent(cwd: string, sessionDir?: string, storage?: SessionStorage): Promise<SessionManager> {
		const store = storage ?? new FileSessionStorage();
		const dir = sessionDir ?? getDefaultSessionDir(cwd);
		const target = await resolveContinueTarget(cwd, dir, store);
		if (!target) return SessionManager.create(cwd, dir, store);
		const manager = await SessionManager.open(target, dir, store);
		manager.#cwd = cwd;
		return manager;
	}

	/** Copies another session (any project) into a new session for `targetCwd`; the source is untouched. */
	static async forkFrom(
		sourcePath: string,
		targetCwd: string,
		sessionDir?: string,
		storage?: SessionStorage,
	): Promise<SessionManager> {
		const store = storage ?? new FileSessionStorage();
		const source = resolve(sourcePath);
		const loaded = await loadState(source, await readSessionFile(source, store), store);
		if (!loaded) throw new Error(`File not found: ${source}`);
		const manager = new SessionManager(targetCwd, sessionDir ?? getDefaultSessionDir(targetCwd), store, true);
		manager.#startNew(source);
		manager.#adopt(manager.#header, loaded.entries);
		await manager.#persistence.rewrite(manager.#fileEntries());
		return manager;
	}

	/** Sessions of one project, newest first. */
	static async list(cwd: string, sessionDir?: string, storage?: SessionStorage): Promise<SessionInfo[]> {
		return listSessionsIn([sessionDir ?? getDefaultSessionDir(cwd)], storage ?? new FileSessionStorage());
	}

	/** Sessions of every project under the agent dir, newest first. */
	static async listAll(storage?: SessionStorage): Promise<SessionInfo[]> {
		const store = storage ?? new FileSessionStorage();
		return listSessionsIn(allSessionDirs(store), store);
	}

	// ── loading and identity ────────────────────────────────────────────────

	/**
	 * Switches to a session file: loads, migrates (rewriting the file atomically and keeping
	 * `<file>.v<old>.bak`), resolves blobs. A foreign file throws and leaves the current state as it was.
	 */
	async setSessionFile(path: string): Promise<void> {
		const file = resolve(path);
		const loaded = await loadState(file, await readSessionFile(file, this.#storage), this.#storage);
		await this.#persistence.detach();
		if (!loaded) {
			this.#startNew(undefined, file);
		} else {
			this.#adopt(loaded.header, loaded.entries);
			this.#report = loaded.report;
			if (typeof loaded.header.cwd === "string") this.#cwd = loaded.header.cwd;
			this.#persistence.attach(file, { onDisk: true, missingFinalNewline: loaded.report.tornTail });
			if (loaded.migrated && this.#persist) await this.#persistMigration(file, loaded.report.migratedFrom!);
		}
		if (this.#persist) writeTerminalBreadcrumb(this.#storage, this.#cwd, file);
	}

	async #persistMigration(file: string, from: number): Promise<void> {
		try {
			await this.#storage.copyFile(file, `${file}.v${from}.bak`);
		} catch (error) {
			// Without a backup the old file is left exactly as it was, and nothing may be appended to
			// it: v3 lines in a v1 file would be re-chained by the next migration.
			this.#persistence.fail(error);
			return;
		}
		await this.#persistence.rewrite(this.#fileEntries());
	}

	#startNew(parentSession: string | undefined, file?: string): void {
		const id = createSessionId();
		const timestamp = new Date().toISOString();
		const header: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id, timestamp, cwd: this.#cwd };
		if (parentSession !== undefined) header.parentSession = parentSession;
		this.#adopt(header, []);
		this.#report = { skippedLines: [], tornTail: false, unresolvedBlobs: [] };
		if (!this.#persist) return;
		const target = file ?? join(this.#sessionDir, sessionFileName(timestamp, id));
		this.#persistence.attach(target, { onDisk: false, missingFinalNewline: false });
		writeTerminalBreadcrumb(this.#storage, this.#cwd, target);
	}

	#adopt(header: SessionHeader, entries: StoredEntry[]): void {
		this.#header = header;
		this.#entries = entries;
		this.#byId = new Map();
		this.#labels = new Map();
		this.#children = undefined;
		this.#hasAssistant = false;
		for (const entry of entries) this.#index(entry);
		this.#leafId = entries.length > 0 ? entries[entries.length - 1]!.id : null;
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

	#fileEntries(): FileEntry[] {
		return [this.#header, ...this.#entries];
	}

	// ── appends ─────────────────────────────────────────────────────────────

	#append(fields: NewEntry): string {
		// Object.assign keeps the target's key order: type, id, parentId, timestamp lead every line.
		const id = createEntryId(this.#byId);
		const base = { type: fields.type, id, parentId: this.#leafId, timestamp: new Date().toISOString() };
		const entry = withoutUndefined(Object.assign(base, fields)) as SessionEntry;
		this.#entries.push(entry);
		this.#index(entry);
		this.#leafId = entry.id;
		if (this.#persist) {
			if (this.#persistence.onDisk) this.#persistence.append(entry);
			else if (this.#hasAssistant) this.#persistence.writeInitial(this.#fileEntries());
			this.#persistence.throwIfFailed();
		}
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

	// ── tree ────────────────────────────────────────────────────────────────

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

	/** The session header. */
	getHeader(): SessionHeader {
		return { ...this.#header };
	}

	/** The whole tree, built iteratively; entries with a missing parent are roots. */
	getTree(): SessionTreeNode[] {
		return buildTree(this.#entries, this.#byId, this.#labels);
	}

	/** The path root → `fromId` (default: the leaf). */
	getBranch(fromId?: string): StoredEntry[] {
		const start = fromId ?? this.#leafId;
		if (start === null) return [];
		const path: StoredEntry[] = [];
		const seen = new Set<string>();
		for (let e = this.#byId.get(start); e && !seen.has(e.id); e = e.parentId ? this.#byId.get(e.parentId) : undefined) {
			seen.add(e.id);
			path.push(e);
		}
		return path.reverse();
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

	// ── persistence and identity ────────────────────────────────────────────

	/** Waits for queued writes and fsyncs; throws the first persistence error. */
	async flush(): Promise<void> {
		if (this.#persist) await this.#persistence.flush();
	}

	/** Flushes and closes the file. */
	async close(): Promise<void> {
		if (this.#persist) await this.#persistence.detach();
	}

	/** Names the session (header `title`); an existing file is rewritten atomically. */
	async setSessionName(name: string): Promise<void> {
		this.#header = { ...this.#header, title: name };
		if (this.#persist && this.#persistence.onDisk) await this.#persistence.rewrite(this.#fileEntries());
		this.#persistence.throwIfFailed();
	}

	/** The session's name (header title), if set. */
	getSessionName(): string | undefined {
		return typeof this.#header.title === "string" ? this.#header.title : undefined;
	}

	/** Copies this session into a new file with a new id (parentSession = the old id) and switches to it. */
	async fork(): Promise<ForkResult | undefined> {
		if (!this.#persist) return undefined;
		await this.flush();
		const previousSessionFile = this.#persistence.file;
		await this.#persistence.detach();
		const id = createSessionId();
		const timestamp = new Date().toISOString();
		this.#header = { ...this.#header, id, timestamp, parentSession: this.#header.id };
		const sessionFile = join(this.#sessionDir, sessionFileName(timestamp, id));
		this.#persistence.attach(sessionFile, { onDisk: false, missingFinalNewline: false });
		await this.#persistence.rewrite(this.#fileEntries());
		this.#persistence.throwIfFailed();
		writeTerminalBreadcrumb(this.#storage, this.#cwd, sessionFile);
		return { previousSessionFile, sessionFile };
	}

	/** The session file (undefined in memory). */
	getSessionFile(): string | undefined {
		return this.#persist ? this.#persistence.file : undefined;
	}

	/** The session id (header id). */
	getSessionId(): string {
		return this.#header.id;
	}

	/** The working directory the session belongs to. */
	getCwd(): string {
		return this.#cwd;
	}

	/** The directory new session files of this project go to. */
	getSessionDir(): string {
		return this.#sessionDir;
	}

	/** False for in-memory sessions. */
	isPersisted(): boolean {
		return this.#persist;
	}

	/** The first persistence error, if one happened. */
	getPersistError(): Error | undefined {
		return this.#persistence.error;
	}

	/** Lines skipped, torn tail, migration and missing blobs found when the current file was loaded. */
	getLoadReport(): SessionLoadReport {
		return this.#report;
	}
}
