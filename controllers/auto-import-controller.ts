import type { AutoRun, AutoRunOutcome } from "../source/import/auto-import-process.js";
import { describeArrivals } from "../source/import/auto-import-summary.js";
import type { AutoSetting } from "../source/import/auto-setting.js";
import { log } from "../source/logger.js";
import { safeLine } from "../source/render/safe-text.js";

/** What the status line shows of the background import. */
export interface AutoImportSnapshot {
	/** What came in last ("imported 3 sessions from Claude Code"), for a while after it came. */
	readonly note: string | undefined;
}

/** What the controller runs on (the runtime gives the real ones). */
export interface AutoImportControllerOptions {
	/** The project xcsh runs in (Gemini CLI chats are taken for it). */
	readonly cwd: string;
	/** Reads `import.auto` (again before every round: turning it off elsewhere stops the next one). */
	readonly readSetting: () => Promise<AutoSetting>;
	/** Starts one background import in a child process. */
	readonly startRun: (cwd: string) => AutoRun;
	/** Sessions came in: a picker or search on screen lists them. */
	readonly onArrived: () => void;
	/** settings.json's `import` is wrong: said once, as a warning. */
	readonly onSettingProblem: (text: string) => void;
	/** Between the end of one round and the start of the next. */
	readonly intervalMs?: number;
	/** How long a note stays on the status line. */
	readonly noteMs?: number;
}

/** Default time between rounds: what another agent writes shows up within about a minute. */
export const AUTO_IMPORT_INTERVAL_MS = 60_000;
/** Default time a note stays. */
export const AUTO_IMPORT_NOTE_MS = 30_000;

type Listener = () => void;

/**
 * Auto import: while settings.json says `"import": {"auto": true}`, imports what is new from the
 * other agents' usual places, one round at a time, each in a child process (see auto-import-process),
 * and says on the status line what came in. Plain TS, bound in the UI via `useSyncExternalStore`.
 */
export class AutoImportController {
	readonly #o: AutoImportControllerOptions;
	readonly #listeners = new Set<Listener>();
	#snapshot: AutoImportSnapshot = Object.freeze({ note: undefined });
	#timer: NodeJS.Timeout | undefined;
	#noteTimer: NodeJS.Timeout | undefined;
	#run: AutoRun | undefined;
	#rounds: Promise<void> | undefined;
	#disposed = false;
	#lastSetting: AutoSetting["kind"] | undefined;
	#warned = false;
	/** Sources and failures already in the log: a broken file is not logged every round. */
	readonly #logged = new Set<string>();

	constructor(options: AutoImportControllerOptions) {
		this.#o = options;
	}

	/** Registers a change listener; returns its unsubscribe. */
	subscribe = (listener: Listener): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** The current snapshot. */
	getSnapshot = (): AutoImportSnapshot => this.#snapshot;

	/** Schedules the first round `delayMs` from now (after the first frame); only once. */
	start(delayMs: number): void {
		if (this.#timer || this.#rounds || this.#disposed) return;
		this.#schedule(delayMs);
	}

	/** Resolves once the round under way (if any) has finished: for tests and benches. */
	async settled(): Promise<void> {
		await this.#rounds;
	}

	#schedule(ms: number): void {
		// unref'd: a pending round never holds the process.
		this.#timer = setTimeout(() => {
			this.#timer = undefined;
			this.#rounds = this.#round().finally(() => {
				this.#rounds = undefined;
				if (!this.#disposed) this.#schedule(this.#o.intervalMs ?? AUTO_IMPORT_INTERVAL_MS);
			});
		}, ms);
		this.#timer.unref();
	}

	async #round(): Promise<void> {
		const setting = await this.#o.readSetting();
		if (this.#disposed) return;
		if (setting.kind !== this.#lastSetting) {
			this.#lastSetting = setting.kind;
			log.info(`auto import is ${setting.kind === "on" ? "on" : "off"} (settings.json import.auto)`);
		}
		if (setting.kind === "invalid" && !this.#warned) {
			this.#warned = true;
			this.#o.onSettingProblem(`${setting.reason}; auto import stays off`);
		}
		if (setting.kind !== "on") return;
		this.#run = this.#o.startRun(this.#o.cwd);
		const outcome = await this.#run.outcome;
		this.#run = undefined;
		if (!this.#disposed) this.#settle(outcome);
	}

	#settle(outcome: AutoRunOutcome): void {
		switch (outcome.kind) {
			case "busy":
				return;
			case "failed":
				this.#logOnce(`auto import failed: ${outcome.reason}`);
				return;
			case "done": {
				for (const { source, reason } of outcome.skipped)
					this.#logOnce(`auto import skipped ${source}: ${reason}`, source);
				const note = describeArrivals(outcome.arrivals);
				if (note === undefined) return;
				log.info(`auto import: ${note}`);
				this.#setNote(note);
				this.#o.onArrived();
				return;
			}
		}
	}

	#logOnce(message: string, key = message): void {
		if (this.#logged.has(key)) return;
		this.#logged.add(key);
		log.warn(message);
	}

	#setNote(note: string | undefined): void {
		clearTimeout(this.#noteTimer);
		this.#snapshot = Object.freeze({ note: note === undefined ? undefined : safeLine(note) });
		for (const listener of this.#listeners) listener();
		if (note === undefined) return;
		this.#noteTimer = setTimeout(() => this.#setNote(undefined), this.#o.noteMs ?? AUTO_IMPORT_NOTE_MS);
		this.#noteTimer.unref();
	}

	/** Stops the rounds and the import under way (quitting xcsh). */
	dispose(): void {
		this.#disposed = true;
		clearTimeout(this.#timer);
		clearTimeout(this.#noteTimer);
		this.#run?.stop();
	}
}
