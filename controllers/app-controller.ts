import { pathPrompts } from "../source/checkpoints/session-rewind.js";
import type { CommandResult } from "../source/commands/types.js";
import type { SearchHit } from "../source/index/session-index.js";
import type { NavigateTreeOptions } from "../source/session/tree-navigation.js";
import {
	type AppControllerOptions,
	type AppScreen,
	type AppSnapshot,
	FORKED,
	HINT_MS,
	type LockedChoice,
	OPENED_READ_ONLY,
	QUEUED_FOLLOW_UP,
	RESUME_CANCELLED,
	RESUMED,
} from "./app-state.js";
import type { CommandController } from "./command-controller.js";
import { applyCommandResult, type Confirm } from "./command-result.js";
import { errorText } from "./error-text.js";
import type { KeyAction } from "./keymap.js";
import { RewindController } from "./rewind-controller.js";
import { hitNotices, type OpenHitOutcome, openedAtMatchNotice } from "./search-controller.js";
import { type ResumeOutcome, resumeNotice } from "./selector-controller.js";
import { StopKeys } from "./stop-keys.js";
import { applyTranscriptKey, WHEEL_ROWS } from "./transcript-keys.js";

export * from "./app-state.js";

type Listener = () => void;

/**
 * The app as plain state and actions: which screen shows, and everything a key on it does —
 * prompts, commands and their cancelling, resuming, the locked-session choice, search hits, the
 * tree. Components render the snapshot and call these methods; none of them writes to the session.
 */
export class AppController {
	readonly #o: AppControllerOptions;
	readonly #listeners = new Set<Listener>();
	readonly #exitListeners = new Set<Listener>();
	#snapshot: AppSnapshot = { screen: { kind: "chat" }, editor: { text: "", key: 0 } };
	#treeKey = 0;
	#pendingConfirm: Confirm | undefined;
	/** A search hit waiting on the locked-session choice. */
	#pendingHit: SearchHit | undefined;
	#started = false;
	/** The editor's text as typed: it starts from it when it comes back after another screen. */
	#draft = "";

	/** Code restores, `/rewind` and the diff (through this controller's screens and commands). */
	readonly rewind: RewindController;
	readonly #stop: StopKeys;

	constructor(options: AppControllerOptions) {
		this.#o = options;
		this.#stop = new StopKeys(options, {
			exit: () => this.#exit(),
			clearEditor: () => this.#setEditorText(""),
		});
		this.rewind = new RewindController({
			session: options.session,
			show: (screen) => this.#show(screen),
			showChat: () => this.showChat(),
			showTree: (entryId) => this.#showTree(entryId),
			run: (task) => this.#runCommand(task),
			navigate: (entryId, navigation) => void this.navigateTree(entryId, navigation),
		});
	}

	/** The first screen (`xcsh --resume` opens the picker); only once. */
	start(first: { initialScreen?: "chat" | "resume" } = {}): void {
		if (this.#started) return;
		this.#started = true;
		if (first.initialScreen === "resume") this.openScreen("resume");
	}

	/** Registers a change listener; returns its unsubscribe. */
	subscribe = (listener: Listener): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** The current snapshot. */
	getSnapshot = (): AppSnapshot => this.#snapshot;

	/** Called when the person quits (`/quit`, Ctrl+C twice); returns the unsubscribe. */
	onExit(listener: Listener): () => void {
		this.#exitListeners.add(listener);
		return () => this.#exitListeners.delete(listener);
	}

	#set(patch: Partial<AppSnapshot>): void {
		this.#snapshot = { ...this.#snapshot, ...patch };
		for (const listener of this.#listeners) listener();
	}

	#show(screen: AppScreen): void {
		this.#set({ screen });
	}

	#exit(): void {
		for (const listener of this.#exitListeners) listener();
	}

	#setEditorText(text: string): void {
		this.#draft = text;
		this.#set({ editor: { text, key: this.#snapshot.editor.key + 1 } });
	}

	/** What the editor holds now (it reports every change), for an editor drawn again. */
	editorDraft(): string {
		return this.#draft;
	}

	/** The editor's text changed (typed, recalled, cleared). */
	editorChanged(text: string): void {
		this.#draft = text;
	}

	#report = (error: unknown): void => this.#o.chat.notice("error", errorText(error));

	/** Rebuilds the transcript from the session and shows its end (after a switch, a move, a compaction). */
	redraw(): void {
		this.#o.chat.rebuild();
		this.#o.viewport.toBottom();
	}

	/** A transcript key on the chat screen (scrolling, Ctrl+T, Ctrl+O); true when it was one. */
	transcriptKey(action: KeyAction): boolean {
		return applyTranscriptKey(this.#o, action, this.#draft === "");
	}

	/** The mouse wheel over the chat: a few rows up or down. */
	wheel(direction: -1 | 1): void {
		this.#o.viewport.scrollBy(direction * WHEEL_ROWS);
	}

	// ── the chat screen ─────────────────────────────────────────────────────

	/** Back to the chat. */
	showChat(): void {
		this.#show({ kind: "chat" });
	}

	/** Opens a screen as a command would; `"resume"` starts loading the picker. */
	openScreen(screen: "resume" | "tree" | "rewind"): void {
		if (screen === "resume") {
			void this.#o.selector.load("project");
			this.#show({ kind: "resume" });
		} else if (screen === "rewind")
			this.#show({ kind: "rewind", prompts: pathPrompts(this.#o.session.sessionManager) });
		else this.#showTree(undefined);
	}

	#showTree(selectedId: string | undefined): void {
		this.#treeKey++;
		this.#show({ kind: "tree", key: this.#treeKey, selectedId });
	}

	/**
	 * What the editor sent: a prompt, a steer, a follow-up or a slash command. False when it was
	 * refused (a read-only session): the editor keeps the text.
	 */
	submit(text: string): boolean {
		const { session, chat, input, commands } = this.#o;
		const route = input.route(text, { isStreaming: chat.getSnapshot().streaming, refusal: session.promptRefusal });
		// Whatever was sent, the answer to it is at the end.
		if (route.kind !== "refused") this.#o.viewport.toBottom();
		switch (route.kind) {
			case "command":
				this.#runCommand((run) => commands.execute(route.name, route.args, run));
				break;
			case "prompt":
				void session.prompt(route.text).catch(this.#report);
				break;
			case "steer":
				void session.steer(route.text).catch(this.#report);
				break;
			case "follow-up":
				void session.followUp(route.text).catch(this.#report);
				// A passing line: the follow-up itself enters the transcript when the turn takes it.
				chat.flash(QUEUED_FOLLOW_UP, HINT_MS);
				break;
			case "refused":
				chat.notice("error", route.reason);
				return false;
			case "ignore":
				break;
		}
		return true;
	}

	/** Escape: cancels the running command, else stops the agent's turn. */
	escape(): void {
		this.#stop.escape();
	}

	/** Ctrl+C: stops work, else clears the editor, else warns; twice within a second quits. */
	interrupt(editorEmpty: boolean): void {
		this.#stop.interrupt(editorEmpty);
	}

	/** Ctrl+C on a screen other than the chat quits at once. */
	quit(): void {
		this.#exit();
	}

	// ── commands ────────────────────────────────────────────────────────────

	#runCommand(task: Parameters<CommandController["run"]>[0]): void {
		const { commands, chat } = this.#o;
		void commands
			.run(task, (label) => chat.setActivity(label))
			.then((result) => this.#apply(result), this.#report)
			.finally(() => chat.setActivity(undefined));
	}

	#apply(result: CommandResult): void {
		const { chat, search } = this.#o;
		applyCommandResult(result, {
			notice: (level, text) => chat.notice(level, text),
			redraw: () => this.redraw(),
			setEditorText: (text) => this.#setEditorText(text),
			openScreen: (screen) => this.openScreen(screen),
			show: (screen) => this.#show(screen),
			openSearch: (query) => void search.open(query),
			confirmFirst: (confirm) => {
				this.#pendingConfirm = confirm;
			},
			exit: () => this.#exit(),
		});
	}

	/** The model picker's Enter: back to the chat, switching exactly as `/model <ref>` does. */
	chooseModel(ref: string): void {
		this.showChat();
		this.#runCommand((run) => this.#o.commands.execute("model", ref, run));
	}

	/** The confirm screen's yes: runs the confirmed action (Escape cancels it like a command). */
	confirm(): void {
		const pending = this.#closeConfirm();
		if (pending) this.#runCommand(pending.run);
	}

	/** The confirm screen's no. */
	cancelConfirm(): void {
		const pending = this.#closeConfirm();
		if (pending) this.#o.chat.notice("warning", pending.cancelNotice);
	}

	#closeConfirm(): Confirm | undefined {
		const pending = this.#pendingConfirm;
		this.#pendingConfirm = undefined;
		this.showChat();
		return pending;
	}

	// ── resuming ────────────────────────────────────────────────────────────

	#reportResume(outcome: ResumeOutcome, success: string): void {
		if (outcome === "resumed") this.redraw();
		const notice = resumeNotice(outcome, success, this.#o.selector.getSnapshot());
		this.#o.chat.notice(notice.level, notice.text);
	}

	#showLocked(path: string): void {
		const message = this.#o.selector.getSnapshot().error ?? "This session is open in another xcsh";
		this.#show({ kind: "locked", path, message });
	}

	/** Sessions came in from elsewhere (a background import): the picker or search on screen lists them. */
	sessionsArrived(): void {
		const { kind } = this.#snapshot.screen;
		if (kind === "resume") void this.#o.selector.load();
		else if (kind === "search") void this.#o.search.refresh();
	}

	/** Escape on a picker: stops the session it is reading, else back to the chat. */
	leavePicker(): void {
		if (!this.#o.selector.stopReading()) this.showChat();
	}

	/** A session picked in the picker; one open elsewhere leads to the locked-session choice. */
	async pickSession(path: string): Promise<void> {
		const outcome = await this.#o.selector.resumeSession(path);
		if (outcome === "locked") return this.#showLocked(path);
		this.showChat();
		this.#reportResume(outcome, RESUMED);
	}

	/** The locked-session choice: fork, read-only or cancel; a search hit that led here goes on to its entry. */
	async chooseLocked(choice: LockedChoice): Promise<void> {
		const { screen } = this.#snapshot;
		if (screen.kind !== "locked") return;
		const hit = this.#pendingHit;
		this.#pendingHit = undefined;
		this.showChat();
		if (choice === "cancel") {
			this.#o.chat.notice("info", RESUME_CANCELLED);
			return;
		}
		const { selector, search } = this.#o;
		const outcome =
			choice === "fork"
				? await selector.resumeAsFork(screen.path)
				: await selector.resumeSession(screen.path, { readOnly: true });
		const opened = choice === "fork" ? FORKED : OPENED_READ_ONLY;
		if (hit && outcome === "resumed") await this.#showHit(hit, search.goToEntry(hit, true), opened);
		else this.#reportResume(outcome, opened);
	}

	// ── search ──────────────────────────────────────────────────────────────

	/** Opens a search hit: switches session if needed, then the chat at the entry, the tree on it, or why not. */
	async selectHit(hit: SearchHit): Promise<void> {
		this.#pendingHit = undefined;
		const from = this.#o.session.sessionManager.getSessionFile();
		await this.#showHit(hit, this.#o.search.openHit(hit), undefined, { file: from });
	}

	/** `opened`: what opening said (a locked choice); `origin`: the session open before, to say a switch. */
	async #showHit(
		hit: SearchHit,
		task: Promise<OpenHitOutcome>,
		opened?: string,
		origin?: { readonly file: string | undefined },
	): Promise<void> {
		const { chat, session } = this.#o;
		let outcome: OpenHitOutcome;
		try {
			outcome = await task;
		} catch (error) {
			this.showChat();
			this.#report(error);
			return;
		}
		if (outcome.kind === "locked") {
			this.#pendingHit = hit;
			this.#showLocked(hit.sessionPath);
			return;
		}
		this.redraw();
		// After the redraw: it rebuilds the chat from the session, dropping earlier notices.
		const manager = session.sessionManager;
		const switched = origin !== undefined && manager.getSessionFile() !== origin.file;
		const switchedTo = switched ? openedAtMatchNotice(manager.getSessionName(), manager.getSessionId()) : undefined;
		for (const notice of hitNotices(outcome, opened, switchedTo)) chat.notice(notice.level, notice.text);
		if (outcome.kind === "tree") return this.#showTree(outcome.entryId);
		this.showChat();
		if (outcome.kind === "moved" && outcome.editorText !== undefined) this.#setEditorText(outcome.editorText);
		if (outcome.kind === "cancelled" || outcome.kind === "failed" || outcome.kind === "stopped")
			this.#reportResume(outcome.kind, "");
	}

	// ── the tree ────────────────────────────────────────────────────────────

	/** Labels an entry (an empty label clears it) and redraws the tree with the cursor on it. */
	setLabel(entryId: string, label: string | undefined): void {
		this.#o.session.setLabel(entryId, label);
		this.#showTree(entryId);
	}

	/** Moves the leaf to an entry (optionally summarising the branch left) and returns to the chat. */
	async navigateTree(entryId: string, options: NavigateTreeOptions): Promise<void> {
		const { chat, session } = this.#o;
		this.showChat();
		if (options.summarize) chat.setActivity("Summarising the branch");
		try {
			const result = await session.navigateTree(entryId, options);
			chat.setActivity(undefined);
			if (result.cancelled) {
				chat.notice("warning", "Navigation cancelled");
				return;
			}
			this.redraw();
			if (result.editorText !== undefined) this.#setEditorText(result.editorText);
		} catch (error) {
			chat.setActivity(undefined);
			this.#report(error);
		}
	}
}
