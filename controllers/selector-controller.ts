import { basename, resolve } from "node:path";
import { liveSharesOf, liveSharesWarning } from "../source/export/share-registry.js";
import {
	describeChanges,
	type ListingScope,
	progressReporter,
	type StagedListing,
	stagedListing,
} from "../source/index/indexed-sessions.js";
import { listAllSessions, listProjectSessions } from "../source/index/session-listing.js";
import { log } from "../source/logger.js";
import { describeProgress } from "../source/render/byte-progress.js";
import { ReadCancelledError, type ReadProgress } from "../source/session/session-loader.js";
import { SessionLockedError } from "../source/session/session-lock.js";
import { SessionManager } from "../source/session/session-manager.js";
import { getDefaultSessionDir } from "../source/session/session-paths.js";
import { moveSessionToTrash } from "../source/session/session-trash.js";
import type { SessionInfo } from "../source/session/types.js";
import { errorText } from "./error-text.js";

/** Which sessions the picker lists: this project's, or every project's. */
export type SelectorScope = "project" | "all";

/** What `resumeSession` did; "cancelled" means an extension vetoed the switch. */
export type ResumeOutcome = "resumed" | "cancelled" | "failed" | "locked" | "stopped";

/** The picker's state; a new frozen object on every change (for `useSyncExternalStore`). */
export interface SelectorSnapshot {
	readonly scope: SelectorScope;
	readonly loading: boolean;
	readonly sessions: readonly SessionInfo[];
	readonly error?: string;
	readonly notice?: string;
	/** How far a long index refresh has got ("1,234 of 10,000"), while `loading`. */
	readonly progress?: string;
}

/** What the controller needs from the running app. */
export interface SelectorControllerOptions {
	readonly cwd: string;
	readonly sessionDir?: string;
	/** The session file open right now (never deleted, renamed through `renameCurrentSession`). */
	readonly currentSessionFile: () => string | undefined;
	/** `AgentSession.switchSession`: false when an extension cancelled the switch. */
	readonly switchSession: (path: string, options?: { readOnly?: boolean; progress?: ReadProgress }) => Promise<boolean>;
	/**
	 * Renames the open session through its live SessionManager. A second manager must not rewrite
	 * that file: the live one appends through an open descriptor and would write to the replaced inode.
	 */
	readonly renameCurrentSession?: (name: string) => Promise<void>;
	/** The clock for trash names (tests pin it). */
	readonly now?: () => Date;
}

/** Shown when Ctrl+D targets the session that is open. */
export const DELETE_OPEN_SESSION_NOTICE = "Switch to another session before deleting the open one";
/** Shown when the open session cannot be renamed because no live rename was wired in. */
export const RENAME_OPEN_SESSION_NOTICE = "The open session cannot be renamed from here";
/** Shown when an extension vetoes a resume. */
export const RESUME_CANCELLED_NOTICE = "Resume cancelled by an extension";

type Listener = () => void;
type RenameFn = (from: string, to: string) => Promise<void>;

function samePath(a: string | undefined, b: string): boolean {
	return a !== undefined && resolve(a) === resolve(b);
}

/** Lists, deletes, renames and resumes sessions for the picker; plain TS, bound in the UI via `useSyncExternalStore`. */
export class SelectorController {
	readonly #options: SelectorControllerOptions;
	readonly #listeners = new Set<Listener>();
	#snapshot: SelectorSnapshot = Object.freeze({ scope: "project", loading: false, sessions: Object.freeze([]) });
	/** Bumped by every load, so a slow listing never overwrites a newer one. */
	#generation = 0;
	#warnedDelete: string | undefined;
	readonly #renameImpl: RenameFn | undefined;
	/** The session `resumeSession` is reading, which Escape can stop. */
	#reading: { controller: AbortController; path: string } | undefined;

	/** `renameImpl` stands in for `fs.rename` when trashing (tests simulate another device). */
	constructor(options: SelectorControllerOptions, renameImpl?: RenameFn) {
		this.#options = options;
		this.#renameImpl = renameImpl;
	}

	/** Registers a change listener; returns its unsubscribe. */
	subscribe = (listener: Listener): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** The current immutable snapshot. */
	getSnapshot = (): SelectorSnapshot => this.#snapshot;

	#set(patch: Partial<SelectorSnapshot>, clear: readonly ("error" | "notice" | "progress")[] = []): void {
		const next: { -readonly [K in keyof SelectorSnapshot]: SelectorSnapshot[K] } = { ...this.#snapshot, ...patch };
		for (const key of clear) delete next[key];
		if (next.sessions !== this.#snapshot.sessions) next.sessions = Object.freeze([...next.sessions]);
		this.#snapshot = Object.freeze(next);
		for (const listener of this.#listeners) listener();
	}

	/**
	 * Lists the sessions of `scope`: first what the session index already holds (the picker paints at
	 * once), then again after the index caught up with the files, saying what changed. Without a usable
	 * index the files are read. A failure becomes `error`. The refresh waits for `refreshAfter` when
	 * given (the rows are on screen), else for the next turn of the event loop.
	 */
	async load(scope: SelectorScope = this.#snapshot.scope, refreshAfter?: Promise<void>): Promise<void> {
		const generation = ++this.#generation;
		const current = () => generation === this.#generation;
		this.#set({ scope, loading: true }, ["error", "progress"]);
		const { cwd, sessionDir } = this.#options;
		try {
			const listing = this.#stagedListing(scope === "all" ? "all" : { dir: sessionDir ?? getDefaultSessionDir(cwd) });
			if (listing) {
				if (current()) this.#set({ sessions: listing.cached });
				// The rows are drawn before the refresh starts: its first steps run without a pause.
				await (refreshAfter ?? new Promise((resolve) => setTimeout(resolve, 0)));
				const { sessions, changes } = await listing.refreshed(
					progressReporter((text) => {
						if (current()) this.#set({ progress: text });
					}),
				);
				const changed = listing.cached.length > 0 ? describeChanges(changes) : undefined;
				if (current()) {
					this.#set({ loading: false, sessions, ...(changed ? { notice: `Refreshed: ${changed}` } : {}) }, [
						"progress",
					]);
				}
				return;
			}
			const sessions = scope === "all" ? await listAllSessions() : await listProjectSessions(cwd, sessionDir);
			if (current()) this.#set({ loading: false, sessions });
		} catch (error) {
			if (current()) this.#set({ loading: false, sessions: [], error: errorText(error) }, ["progress"]);
		}
	}

	#stagedListing(scope: ListingScope): StagedListing | undefined {
		try {
			return stagedListing(scope);
		} catch (error) {
			log.warn(`session index unavailable, reading session files: ${errorText(error)}`);
			return undefined;
		}
	}

	/** Switches between this project and all projects, and reloads. */
	async toggleScope(): Promise<void> {
		this.#set({}, ["notice"]);
		await this.load(this.#snapshot.scope === "project" ? "all" : "project");
	}

	/** Moves a session file and its artifacts directory to the trash, then reloads; refuses the open session. */
	async deleteSession(path: string): Promise<void> {
		if (samePath(this.#options.currentSessionFile(), path)) {
			this.#set({ notice: DELETE_OPEN_SESSION_NOTICE }, ["error"]);
			return;
		}
		this.#set({}, ["notice", "error"]);
		const id = this.#snapshot.sessions.find((s) => samePath(s.path, path))?.id;
		const live = id ? await liveSharesOf(id) : [];
		if (live.length > 0 && this.#warnedDelete !== path) {
			// Deleting does not unshare: say so once; the next delete of the same session goes ahead.
			this.#warnedDelete = path;
			this.#set({ notice: liveSharesWarning(live.length) });
			return;
		}
		this.#warnedDelete = undefined;
		let failure: string | undefined;
		try {
			const now = (this.#options.now ?? (() => new Date()))();
			const trashed = await moveSessionToTrash(path, { now, renameImpl: this.#renameImpl });
			if (trashed === undefined) failure = `Session file not found: ${path}`;
		} catch (error) {
			failure = errorText(error);
		}
		await this.load();
		if (failure !== undefined) this.#set({ error: failure });
	}

	/** Sets a session's name (header title) on disk, then reloads. */
	async renameSession(path: string, name: string): Promise<void> {
		const title = name.trim();
		if (title.length === 0) return;
		this.#set({}, ["notice", "error"]);
		let failure: string | undefined;
		try {
			if (samePath(this.#options.currentSessionFile(), path)) {
				if (!this.#options.renameCurrentSession) {
					this.#set({ notice: RENAME_OPEN_SESSION_NOTICE });
					return;
				}
				await this.#options.renameCurrentSession(title);
			} else {
				// A missing path would start an empty session there and the rename would vanish silently;
				// a file only renamed must not become the one `--continue` picks in this terminal.
				const manager = await SessionManager.open(path, { mustExist: true, breadcrumb: false });
				try {
					await manager.setSessionName(title);
				} finally {
					await manager.close();
				}
			}
		} catch (error) {
			failure = errorText(error);
		}
		await this.load();
		if (failure !== undefined) this.#set({ error: failure });
	}

	/** Switches the app to a session; checks the result, since an extension may cancel the switch. */
	async resumeSession(path: string, options: { readOnly?: boolean } = {}): Promise<ResumeOutcome> {
		this.#set({}, ["notice", "error"]);
		let shownAt = 0;
		const reading = new AbortController();
		this.#reading = { controller: reading, path };
		// A big session read for the first time says how far it got (a warm or small one never shows it).
		const onProgress = (read: number, total: number): void => {
			const now = Date.now();
			if (read >= total || now - shownAt < 100) return;
			shownAt = now;
			this.#set({ notice: `Reading session… ${describeProgress(read, total)} · Esc cancels` });
		};
		try {
			const progress = { onProgress, signal: reading.signal };
			const switched = await this.#options.switchSession(path, { ...options, progress });
			if (shownAt > 0) this.#set({}, ["notice"]);
			if (switched) return "resumed";
			this.#set({ notice: RESUME_CANCELLED_NOTICE });
			return "cancelled";
		} catch (error) {
			if (error instanceof ReadCancelledError) {
				this.#set({ notice: error.message }, ["error"]);
				return "stopped";
			}
			this.#set({ error: errorText(error) });
			// Another xcsh has it: the UI offers fork / read-only / cancel.
			return error instanceof SessionLockedError ? "locked" : "failed";
		} finally {
			this.#reading = undefined;
		}
	}

	/** Stops a session being read for `resumeSession` (Escape); false when none is being read. */
	stopReading(): boolean {
		const reading = this.#reading;
		if (!reading) return false;
		reading.controller.abort(new ReadCancelledError(basename(reading.path)));
		return true;
	}

	/** Resumes a copy of a session another xcsh has open: forked into this project, then switched to. */
	async resumeAsFork(path: string): Promise<ResumeOutcome> {
		let copy: string | undefined;
		try {
			const fork = await SessionManager.forkFrom(path, this.#options.cwd, { sessionDir: this.#options.sessionDir });
			copy = fork.getSessionFile();
			await fork.close();
		} catch (error) {
			this.#set({ error: errorText(error) });
			return "failed";
		}
		return copy ? this.resumeSession(copy) : "failed";
	}
}

/** What the chat says after a resume: `success` when it happened, else why not. */
export function resumeNotice(
	outcome: ResumeOutcome,
	success: string,
	snapshot: Pick<SelectorSnapshot, "notice" | "error">,
): { level: "info" | "warning" | "error"; text: string } {
	switch (outcome) {
		case "resumed":
			return { level: "info", text: success };
		case "cancelled":
			return { level: "warning", text: RESUME_CANCELLED_NOTICE };
		case "stopped":
			return { level: "info", text: snapshot.notice ?? "Stopped reading the session" };
		case "failed":
		case "locked":
			return { level: "error", text: `Could not resume: ${snapshot.error ?? "unknown error"}` };
		default: {
			const unknown: never = outcome;
			return unknown;
		}
	}
}
