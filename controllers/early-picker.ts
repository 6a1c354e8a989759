import { SelectorController } from "./selector-controller.js";

/** Where the early picker lists sessions from. */
export interface EarlyPickerScope {
	readonly cwd: string;
	readonly sessionDir?: string | undefined;
}

/** The early picker's state: choosing, a pick on its way to the app, or finished (the app shows). */
export type EarlyPickerState =
	| { readonly kind: "picking" }
	| { readonly kind: "opening"; readonly path: string }
	| { readonly kind: "done" };

/** What the early picker hands its pick to: the app controller, once it is built. */
export interface EarlyPickTarget {
	/** Opens the session as a pick in the app's own picker would (locked choice, notices). */
	pickSession(path: string): Promise<void>;
}

type Listener = () => void;

const PICKING: EarlyPickerState = { kind: "picking" };
const DONE: EarlyPickerState = { kind: "done" };

/**
 * The `xcsh --resume` picker shown while the LLM layer and the session still load: it lists
 * sessions from the index at once and needs nothing from the app until something is picked. A pick
 * waits for `attach` (the composition root calls it with the app controller), then becomes the
 * app's own pick; the picker is `done` once the app has it.
 */
export class EarlyPickerController {
	/** Lists, renames and deletes; nothing is open yet, so every listed session may be changed. */
	readonly selector: SelectorController;
	readonly #listeners = new Set<Listener>();
	#state: EarlyPickerState = PICKING;
	#app: EarlyPickTarget | undefined;
	#shown: () => void = () => undefined;
	readonly #drawn = new Promise<void>((resolve) => {
		this.#shown = resolve;
	});

	constructor(scope: EarlyPickerScope) {
		this.selector = new SelectorController({
			cwd: scope.cwd,
			...(scope.sessionDir ? { sessionDir: scope.sessionDir } : {}),
			// The session being started is new and unsaved: nothing in the list is open yet.
			currentSessionFile: () => undefined,
			// Never called: a pick is opened by the app (see `pick`), not by this picker's selector.
			switchSession: () => Promise.reject(new Error("the early picker opens sessions through the app")),
		});
	}

	/**
	 * Lists this project's sessions: what the index holds is in the snapshot when this returns (so
	 * the picker's first frame already has its rows); the index's refresh (statting every session
	 * file of the project, a long step before its first pause) waits for `shown`.
	 */
	start(): void {
		void this.selector.load("project", this.#drawn);
	}

	/** The picker's rows are on screen: the refresh behind them may start. */
	shown(): void {
		this.#shown();
	}

	/** Registers a change listener; returns its unsubscribe. */
	subscribe = (listener: Listener): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** The current state. */
	getSnapshot = (): EarlyPickerState => this.#state;

	#set(state: EarlyPickerState): void {
		this.#state = state;
		for (const listener of this.#listeners) listener();
	}

	/** A session picked: handed to the app now, or as soon as it is attached. Only the first pick counts. */
	pick(path: string): void {
		if (this.#state.kind !== "picking") return;
		// Whether or not the rows were drawn, the listing's refresh may go on (and close the index).
		this.#shown();
		this.#set({ kind: "opening", path });
		if (this.#app) this.#handOver(this.#app, path);
	}

	/** Escape: no pick; the app starts on its new session. */
	cancel(): void {
		this.#shown();
		if (this.#state.kind === "picking") this.#set(DONE);
	}

	/** The app is built: a pick waiting for it goes over now. Called once, by the composition root. */
	attach(app: EarlyPickTarget): void {
		this.#app = app;
		if (this.#state.kind === "opening") this.#handOver(app, this.#state.path);
	}

	#handOver(app: EarlyPickTarget, path: string): void {
		// The app reports every outcome itself (resumed, locked, failed); the picker just gives way.
		void app.pickSession(path).finally(() => this.#set(DONE));
	}
}
