import { homedir } from "node:os";
import { resolve } from "node:path";
import { formatSize } from "../agent/tools/truncate.js";
import type { TurnHooks } from "../session/agent-session-options.js";
import { CHECKPOINT_CUSTOM_TYPE, type CheckpointData } from "./checkpoint-data.js";
import { allCheckpoints, type CheckpointTree } from "./checkpoint-timeline.js";
import { GIT_MISSING_NOTICE, gitAvailable } from "./git-process.js";
import { openProjectStore } from "./project-store.js";
import type { ShadowRepo, SkippedFile, Snapshot } from "./shadow-repo.js";
import { parseFileChanges } from "./tree-diff.js";

/** The files before a turn, as recorded in a project's store. */
interface BeforeTurn {
	readonly repo: ShadowRepo;
	readonly snapshot: Snapshot;
	readonly sessionId: string;
}

/** The files after a turn's tools, with their diff from before the turn. */
type AfterTools = Snapshot & { readonly diff?: string };

/** The session a turn is recorded in (SessionManager fits). */
export interface CheckpointSession extends CheckpointTree {
	getSessionId(): string;
	getCwd(): string;
	getLeafId(): string | null;
	isPersisted(): boolean;
	isReadOnly(): boolean;
	appendCustomEntry<T = unknown>(customType: string, data?: T): string;
}

/** What the chat shows while a turn waits for the project's first snapshot. */
export const RECORDING_ACTIVITY = "Recording a checkpoint…";

/** How the person is told a turn is waiting on a checkpoint (the chat's activity line); undefined clears it. */
export type CheckpointActivity = (label: string | undefined) => void;

/** The line said when the project is the home directory or `/`. */
export const HOME_DIR_NOTICE = "checkpoints are off in the home directory and at /: start xcsh in a project folder";

/** The note for a file a checkpoint left out. */
export function skippedNotice(file: SkippedFile, limit: number): string {
	return `checkpoint skipped ${file.path} (${formatSize(file.bytes)}, over the ${formatSize(limit)} limit)`;
}

/**
 * Records a checkpoint per turn: a snapshot of the project's files before the turn and after it;
 * when they differ, a `custom` entry (`customType: "checkpoint"`) with the commit and the files
 * changed goes into the session. The first snapshot of a session is recorded as its baseline.
 */
export class TurnCheckpoints implements TurnHooks {
	readonly #session: CheckpointSession;
	readonly #notice: (text: string) => void;
	readonly #recorded = new Set<string>();
	readonly #noted = new Set<string>();
	#off = false;
	/** This turn's snapshot before it, started by `beforeTurn`. */
	#before: Promise<BeforeTurn | undefined> | undefined;
	/** The wait every tool call of this turn shares. */
	#toolGate: Promise<void> | undefined;
	#toolRan = false;
	/** Tools of this turn started and not yet ended. */
	#toolsRunning = 0;
	/** A tool started since `#afterTools` was started (or none was). */
	#toolSinceSnapshot = false;
	/** The snapshot started when the turn's tools last all ended (the model answers meanwhile). */
	#afterTools: Promise<AfterTools | undefined> | undefined;
	readonly #activity: CheckpointActivity;
	/** The project's first snapshot (store opened, index filled): started by `prepare`, settled never rejects. */
	#warming: Promise<void> | undefined;
	#warm = false;

	constructor(session: CheckpointSession, notice: (text: string) => void, activity: CheckpointActivity = () => {}) {
		this.#session = session;
		this.#notice = notice;
		this.#activity = activity;
	}

	/**
	 * Starts the project's first snapshot in the background (the app calls it once its first frame
	 * is up): on a big project it reads every file once (seconds), which the first prompt would
	 * otherwise wait for with nothing on screen. Later snapshots only re-read what changed.
	 */
	prepare(): Promise<void> {
		this.#warming ??= this.#warmUp().finally(() => {
			this.#warm = true;
		});
		return this.#warming;
	}

	async #warmUp(): Promise<void> {
		const repo = await this.#repo();
		if (!repo) return;
		const sessionId = this.#session.getSessionId();
		await this.#guard(async () => {
			this.#noteSkipped(await repo.snapshot(sessionId, "xcsh: before a turn"), repo);
		});
	}

	/**
	 * Starts the snapshot of the files before a turn. The model is asked meanwhile: only a tool can
	 * change files, and each waits for it (`beforeTool`). A session's first checkpointed turn waits
	 * here instead, because its baseline entry must come before the prompt in the session.
	 */
	async beforeTurn(): Promise<void> {
		this.#toolRan = false;
		this.#toolGate = undefined;
		this.#toolsRunning = 0;
		this.#toolSinceSnapshot = false;
		this.#afterTools = undefined;
		const sessionId = this.#session.getSessionId();
		const needsBaseline = !this.#hasCheckpoints(sessionId);
		this.#before = this.#takeBefore(sessionId, needsBaseline);
		if (needsBaseline) await this.#waitShowingActivity(this.#before);
	}

	/** Waits, before a tool runs, until the files before the turn are recorded. */
	beforeTool(): Promise<void> {
		this.#toolRan = true;
		this.#toolsRunning++;
		this.#toolSinceSnapshot = true;
		const before = this.#before;
		if (!before) return Promise.resolve();
		this.#toolGate ??= this.#waitShowingActivity(before);
		return this.#toolGate;
	}

	/**
	 * A tool ended. When none is left running, the files after them are snapshotted at once: the
	 * model is asked for its answer meanwhile, so the turn's end finds the snapshot taken (or
	 * nearly). A tool started after this makes the turn's end take its own.
	 */
	afterTool(): void {
		this.#toolsRunning = Math.max(0, this.#toolsRunning - 1);
		const pending = this.#before;
		if (this.#toolsRunning > 0 || !pending) return;
		this.#toolSinceSnapshot = false;
		this.#afterTools = pending.then((before) => (before ? this.#takeAfter(before) : undefined));
	}

	/** Records a checkpoint entry when the turn's tools changed files (snapshot from `afterTool`, or taken now). */
	async afterTurn(): Promise<void> {
		const pending = this.#before;
		const afterTools = this.#toolSinceSnapshot ? undefined : this.#afterTools;
		this.#before = undefined;
		this.#toolGate = undefined;
		this.#afterTools = undefined;
		if (!pending) return;
		const before = await pending;
		// Without a tool call nothing of the turn's could change a file; anything else that did is
		// the next turn's "before".
		if (!before || !this.#toolRan) return;
		const after = (await afterTools) ?? (await this.#takeAfter(before));
		if (!after || after.tree === before.snapshot.tree) return;
		if (before.sessionId !== this.#session.getSessionId() || this.#session.isReadOnly()) return;
		this.#append({
			v: 1,
			kind: "turn",
			commit: after.commit,
			before: before.snapshot.commit,
			entryId: this.#session.getLeafId(),
			files: parseFileChanges(after.diff ?? ""),
		});
	}

	/** The files after the turn's tools, diffed from before it (one process); never rejects. */
	async #takeAfter(before: BeforeTurn): Promise<AfterTools | undefined> {
		if (before.sessionId !== this.#session.getSessionId() || this.#session.isReadOnly()) return undefined;
		let after: AfterTools | undefined;
		await this.#guard(async () => {
			after = await before.repo.snapshot(before.sessionId, "xcsh: after a turn", { diffFrom: before.snapshot.tree });
			this.#noteSkipped(after, before.repo);
		});
		return after;
	}

	/** The snapshot before a turn (after the project's first one); never rejects. */
	async #takeBefore(sessionId: string, baseline: boolean): Promise<BeforeTurn | undefined> {
		await this.prepare();
		const repo = await this.#repo();
		if (!repo) return undefined;
		let before: BeforeTurn | undefined;
		await this.#guard(async () => {
			const snapshot = await repo.snapshot(sessionId, "xcsh: before a turn");
			this.#noteSkipped(snapshot, repo);
			if (baseline) {
				this.#append({ v: 1, kind: "baseline", commit: snapshot.commit });
				this.#recorded.add(sessionId);
			}
			before = { repo, snapshot, sessionId };
		});
		return before;
	}

	/** Awaits `work`, with the chat's activity line up while the project's first snapshot is still running. */
	async #waitShowingActivity(work: Promise<unknown>): Promise<void> {
		if (this.#warm) {
			await work;
			return;
		}
		this.#activity(RECORDING_ACTIVITY);
		try {
			await work;
		} finally {
			this.#activity(undefined);
		}
	}

	#append(data: CheckpointData): void {
		this.#session.appendCustomEntry(CHECKPOINT_CUSTOM_TYPE, data);
	}

	#hasCheckpoints(sessionId: string): boolean {
		if (this.#recorded.has(sessionId)) return true;
		if (allCheckpoints(this.#session).length === 0) return false;
		this.#recorded.add(sessionId);
		return true;
	}

	/** The project's store, or undefined when checkpoints are off here (said once). */
	async #repo(): Promise<ShadowRepo | undefined> {
		if (this.#off || !this.#session.isPersisted() || this.#session.isReadOnly()) return undefined;
		const project = resolve(this.#session.getCwd());
		if (project === resolve(homedir()) || project === resolve("/")) return this.#turnOff(HOME_DIR_NOTICE);
		if (!(await gitAvailable())) return this.#turnOff(GIT_MISSING_NOTICE);
		try {
			return await openProjectStore(project);
		} catch (error) {
			return this.#turnOff(`checkpoints are off: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	#turnOff(notice: string): undefined {
		this.#off = true;
		this.#notice(notice);
		return undefined;
	}

	#noteSkipped(snapshot: Snapshot, repo: ShadowRepo): void {
		for (const file of snapshot.skipped) {
			if (this.#noted.has(file.path)) continue;
			this.#noted.add(file.path);
			this.#notice(skippedNotice(file, repo.maxFileBytes));
		}
	}

	async #guard(work: () => Promise<void>): Promise<void> {
		try {
			await work();
		} catch (error) {
			this.#notice(`checkpoint failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}
