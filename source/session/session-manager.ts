import { dirname, join, resolve } from "node:path";
import type { EntryBodies } from "./entry-bodies.js";
import { createSessionId } from "./ids.js";
import type { EntrySlot } from "./lazy-entry.js";
import { MemorySessionStorage } from "./memory-session-storage.js";
import { resolveContinueTarget } from "./session-continue.js";
import { listAllSessionFiles, listProjectSessionFiles } from "./session-discovery.js";
import { SessionEntries } from "./session-entries.js";
import { lockForWriting, readOnlyReasonOf, refuseIfHeld } from "./session-file-access.js";
import { SessionFileLock } from "./session-file-lock.js";
import type { SessionLoadReport } from "./session-load-state.js";
import type { ReadProgress } from "./session-loader.js";
import type { LockInfo } from "./session-lock.js";
import type {
	ContinueOptions,
	CreateOptions,
	ForkResult,
	OpenFileOptions,
	OpenOptions,
	ReadOnlyReason,
	StorageOptions,
} from "./session-manager-types.js";
import { openSessionFile } from "./session-open.js";
import { getDefaultSessionDir, sessionFileName } from "./session-paths.js";
import { type PersistedSlot, SessionPersistence } from "./session-persistence.js";
import { FileSessionStorage, type SessionStorage } from "./session-storage.js";
import type { SkeletonColumns } from "./skeleton-columns.js";
import { skeletonLinesFor } from "./skeleton-lines.js";
import { writeTerminalBreadcrumb } from "./terminal-breadcrumb.js";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader, type SessionInfo } from "./types.js";

export type { SessionInitOptions } from "./session-entries.js";
export type { SessionLoadReport };

/**
 * The session: an append-only tree of entries plus a movable leaf, kept in memory first and
 * persisted to a JSONL file (deferred until the first assistant message, then appended).
 */
export class SessionManager extends SessionEntries {
	readonly #storage: SessionStorage;
	readonly #persist: boolean;
	readonly #persistence: SessionPersistence;
	#cwd: string;
	#sessionDir: string;
	#header!: SessionHeader;
	#report: SessionLoadReport = { skippedLines: [], tornTail: false, unresolvedBlobs: [] };
	#readOnlyReason: ReadOnlyReason | undefined;
	#skippedLocked: { path: string; holder: LockInfo }[] = [];
	readonly #lock: SessionFileLock;

	readonly #lazyAbove: number | undefined;

	private constructor(
		cwd: string,
		sessionDir: string,
		storage: SessionStorage,
		persist: boolean,
		lazyAboveBytes?: number,
	) {
		super();
		this.#lazyAbove = lazyAboveBytes;
		this.#cwd = cwd;
		this.#sessionDir = sessionDir;
		this.#storage = storage;
		this.#persist = persist;
		this.#persistence = new SessionPersistence(storage);
		this.#lock = new SessionFileLock(storage, this.#persistence);
	}

	/** A new persistent session for `cwd` (nothing is written before the first assistant message). */
	static async create(cwd: string, options: CreateOptions = {}): Promise<SessionManager> {
		const manager = new SessionManager(
			cwd,
			options.sessionDir ?? getDefaultSessionDir(cwd),
			options.storage ?? new FileSessionStorage(),
			true,
		);
		manager.setClock(options.clock);
		manager.#startNew(undefined, undefined, options.breadcrumb !== false);
		return manager;
	}

	/**
	 * Opens a session file (a missing or empty file starts a new session at that path, unless
	 * `mustExist`). Throws `SessionLockedError` when another xcsh has it open (see `openReadOnly`).
	 */
	static async open(path: string, options: OpenFileOptions = {}): Promise<SessionManager> {
		const { sessionDir, storage, lazyAboveBytes: _, ...open } = options;
		const file = resolve(path);
		const manager = new SessionManager(
			process.cwd(),
			sessionDir ?? dirname(file),
			storage ?? new FileSessionStorage(),
			true,
			options.lazyAboveBytes,
		);
		await manager.setSessionFile(file, open);
		return manager;
	}

	/** Opens a session to browse, export or fork without writing or locking it (another xcsh has it). */
	static async openReadOnly(
		path: string,
		options: StorageOptions & { progress?: ReadProgress } = {},
	): Promise<SessionManager> {
		return SessionManager.open(path, { ...options, readOnly: true });
	}

	/** A session that is never written anywhere (`--no-session`). */
	static inMemory(cwd: string = process.cwd()): SessionManager {
		const manager = new SessionManager(cwd, "", new MemorySessionStorage(), false);
		manager.#startNew(undefined);
		return manager;
	}

	/**
	 * This terminal's last session for `cwd`, else the newest one there, else a new session; sessions
	 * another xcsh has open are skipped (`getSkippedLockedSessions()` says which).
	 */
	static async continueRecent(cwd: string, options: ContinueOptions = {}): Promise<SessionManager> {
		const storage = options.storage ?? new FileSessionStorage();
		const sessionDir = options.sessionDir ?? getDefaultSessionDir(cwd);
		const target = await resolveContinueTarget(cwd, sessionDir, storage, options.newestFirst);
		const manager = target.path
			? await SessionManager.open(target.path, { sessionDir, storage, progress: options.progress })
			: await SessionManager.create(cwd, { sessionDir, storage });
		manager.#skippedLocked = target.skipped;
		manager.#cwd = cwd;
		return manager;
	}

	/** Copies another session (any project) into a new session for `targetCwd`; the source is untouched. */
	static async forkFrom(
		sourcePath: string,
		targetCwd: string,
		options: StorageOptions & { progress?: ReadProgress } = {},
	): Promise<SessionManager> {
		const store = options.storage ?? new FileSessionStorage();
		const source = resolve(sourcePath);
		const opened = await openSessionFile(source, store, {
			...options.progress,
			lazyAboveBytes: options.lazyAboveBytes,
		});
		if (opened.kind === "invalid") throw new Error(`Not a session file: ${source}`);
		if (opened.kind !== "loaded") throw new Error(`File not found: ${source}`);
		const sessionDir = options.sessionDir ?? getDefaultSessionDir(targetCwd);
		const manager = new SessionManager(targetCwd, sessionDir, store, true, options.lazyAboveBytes);
		manager.#startNew(source);
		manager.#adopt(manager.#header, opened.loaded.entries, opened.bodies);
		manager.#lock.lockNewFile();
		await manager.#persistence.rewrite(manager.#fileEntries());
		return manager;
	}

	/** Sessions of one project, newest first, read from the files (`listProjectSessions` prefers the index). */
	static list(cwd: string, sessionDir?: string, storage?: SessionStorage): Promise<SessionInfo[]> {
		return listProjectSessionFiles(cwd, sessionDir, storage);
	}

	/** Sessions of every project under the agent dir, newest first, read from the files. */
	static listAll(storage?: SessionStorage): Promise<SessionInfo[]> {
		return listAllSessionFiles(storage);
	}

	// ── loading and identity ────────────────────────────────────────────────

	/**
	 * Switches to a session file: loads, migrates (rewriting the file atomically and keeping
	 * `<file>.v<old>.bak`), resolves blobs. A foreign file throws and leaves the current state as it was.
	 */
	async setSessionFile(path: string, options: OpenOptions = {}): Promise<void> {
		const file = resolve(path);
		if (this.#persist && options.readOnly !== true) refuseIfHeld(this.#storage, file);
		const opened = await openSessionFile(file, this.#storage, { ...options.progress, lazyAboveBytes: this.#lazyAbove });
		if (options.mustExist && opened.kind === "missing") throw new Error(`Session file not found: ${file}`);
		if (opened.kind === "invalid") throw new Error(`Not a session file: ${file}`);
		const loaded = opened.kind === "loaded" ? opened.loaded : undefined;
		const readOnlyReason = readOnlyReasonOf(loaded, options.readOnly);
		const readOnly = readOnlyReason !== undefined;
		const lock = this.#persist && loaded && !readOnly ? lockForWriting(this.#storage, file) : undefined;
		try {
			await this.#persistence.detach();
		} catch (error) {
			lock?.release();
			if (opened.kind === "loaded") opened.bodies?.close();
			throw error;
		}
		this.#lock.release();
		this.#lock.hold(lock);
		this.#readOnlyReason = readOnlyReason;
		const breadcrumb = options.breadcrumb !== false;
		if (!loaded) {
			this.#startNew(undefined, file, breadcrumb);
		} else {
			this.#adopt(loaded.header, loaded.entries, opened.kind === "loaded" ? opened.bodies : undefined);
			this.#report = loaded.report;
			if (typeof loaded.header.cwd === "string") this.#cwd = loaded.header.cwd;
			this.#persistence.attach(file, { onDisk: true, missingFinalNewline: loaded.report.tornTail });
			if (loaded.migrated && this.#persist && !readOnly)
				await this.#persistMigration(file, loaded.report.migratedFrom!);
		}
		if (this.#persist && breadcrumb) writeTerminalBreadcrumb(this.#storage, this.#cwd, file);
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

	#startNew(parentSession: string | undefined, file?: string, breadcrumb = true): void {
		const id = createSessionId();
		const timestamp = this.now();
		const header: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id, timestamp, cwd: this.#cwd };
		if (parentSession !== undefined) header.parentSession = parentSession;
		this.#adopt(header, []);
		this.#report = { skippedLines: [], tornTail: false, unresolvedBlobs: [] };
		if (!this.#persist) return;
		const target = file ?? join(this.#sessionDir, sessionFileName(timestamp, id));
		this.#persistence.attach(target, { onDisk: false, missingFinalNewline: false });
		if (breadcrumb) writeTerminalBreadcrumb(this.#storage, this.#cwd, target);
	}

	#adopt(header: SessionHeader, entries: EntrySlot[] | SkeletonColumns, bodies?: EntryBodies): void {
		this.#header = header;
		this.adoptEntries(entries, bodies);
		this.#persistence.setSkeletonLines(bodies && skeletonLinesFor(bodies, this.#storage));
	}

	protected override onAppend(entry: SessionEntry): void {
		if (!this.#persist || this.isReadOnly()) return;
		if (this.#persistence.error) {
			// Memory has the entry; a retry rewrites everything once the disk is fine again.
			this.#persistence.retrySoon(() => this.#fileEntries());
			this.#persistence.throwIfFailed();
		}
		if (this.#persistence.onDisk) this.#persistence.append(entry);
		else if (this.hasAssistantMessage) {
			this.#lock.lockNewFile();
			this.#persistence.writeInitial(this.#fileEntries());
		}
		this.#persistence.throwIfFailed();
	}

	#fileEntries(): PersistedSlot[] {
		return [this.#header, ...this.entriesView];
	}

	// ── persistence and identity ────────────────────────────────────────────

	/** Waits for queued writes and fsyncs; throws the first persistence error. */
	async flush(): Promise<void> {
		if (this.#persist) await this.#persistence.flush();
	}

	/** Flushes and closes the file (one last retry first if a write had failed); releases the lock. */
	async close(): Promise<void> {
		if (!this.#persist) return;
		try {
			if (this.#persistence.error && !this.isReadOnly()) await this.#persistence.retry(() => this.#fileEntries());
			await this.#persistence.detach();
		} finally {
			this.#lock.release();
		}
	}

	/** Writes everything in memory to the file again after a failure (`/session save`); true when it is all on disk. */
	async retryPersistence(): Promise<boolean> {
		if (!this.#persist || this.isReadOnly()) return false;
		return this.#persistence.retry(() => this.#fileEntries());
	}

	/** The sessions `continueRecent` passed over because another xcsh has them open. */
	getSkippedLockedSessions(): readonly { path: string; holder: LockInfo }[] {
		return this.#skippedLocked;
	}

	/** True when the session was opened read-only (another xcsh has it, or its header is damaged). */
	isReadOnly(): boolean {
		return this.#readOnlyReason !== undefined;
	}

	/** Why the session is read-only, if it is. */
	getReadOnlyReason(): ReadOnlyReason | undefined {
		return this.#readOnlyReason;
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

	/** Starts a new, empty session in the same project directory (the previous file is flushed and closed). */
	async newSession(options: { parentSession?: string } = {}): Promise<void> {
		if (this.#persist && !this.isReadOnly()) await this.#persistence.detach();
		this.#lock.release();
		this.#readOnlyReason = undefined;
		this.#startNew(options.parentSession);
	}

	/** Copies this session into a new file with a new id (parentSession = the old id) and switches to it. */
	async fork(): Promise<ForkResult | undefined> {
		if (!this.#persist) return undefined;
		if (!this.isReadOnly()) await this.flush();
		const previousSessionFile = this.#persistence.file;
		if (!this.isReadOnly()) await this.#persistence.detach();
		this.#lock.release();
		this.#readOnlyReason = undefined;
		const id = createSessionId();
		const timestamp = new Date().toISOString();
		// A copy of a session opened for a damaged version starts sound: its entries are v3 in memory.
		this.#header = {
			...this.#header,
			version: CURRENT_SESSION_VERSION,
			id,
			timestamp,
			parentSession: this.#header.id,
		};
		const sessionFile = join(this.#sessionDir, sessionFileName(timestamp, id));
		this.#persistence.attach(sessionFile, { onDisk: false, missingFinalNewline: false });
		this.#lock.lockNewFile();
		await this.#persistence.rewrite(this.#fileEntries());
		this.#persistence.throwIfFailed();
		writeTerminalBreadcrumb(this.#storage, this.#cwd, sessionFile);
		return { previousSessionFile, sessionFile };
	}

	/** The session header. */
	getHeader(): SessionHeader {
		return { ...this.#header };
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
