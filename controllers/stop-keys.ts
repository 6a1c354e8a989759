import { type AppControllerOptions, DOUBLE_PRESS_MS, QUIT_HINT } from "./app-state.js";

/** What Escape and Ctrl+C act on besides the session. */
interface StopActions {
	exit(): void;
	clearEditor(): void;
}

/**
 * Escape and Ctrl+C on the chat: stop the running command or turn; Ctrl+C with nothing running
 * clears the editor, else warns, and twice within a second quits.
 */
export class StopKeys {
	readonly #o: Pick<AppControllerOptions, "chat" | "commands" | "session" | "now">;
	readonly #actions: StopActions;
	#lastInterrupt = Number.NEGATIVE_INFINITY;

	constructor(options: Pick<AppControllerOptions, "chat" | "commands" | "session" | "now">, actions: StopActions) {
		this.#o = options;
		this.#actions = actions;
	}

	/** Escape: cancels the running command, else stops the agent's turn. */
	escape(): void {
		const { chat, commands, session } = this.#o;
		if (commands.cancel()) return;
		const now = chat.getSnapshot();
		if (!now.streaming && now.activity === undefined) return;
		void session.abort().then(() => chat.notice("warning", "Stopped."));
	}

	/** Ctrl+C: stops work, else clears the editor, else warns; twice within a second quits. */
	interrupt(editorEmpty: boolean): void {
		const now = (this.#o.now ?? Date.now)();
		if (now - this.#lastInterrupt < DOUBLE_PRESS_MS) {
			this.#actions.exit();
			return;
		}
		this.#lastInterrupt = now;
		const current = this.#o.chat.getSnapshot();
		if (current.streaming || current.activity !== undefined) this.escape();
		else if (!editorEmpty) this.#actions.clearEditor();
		// A passing line above the editor: it is not part of the conversation.
		else this.#o.chat.flash(QUIT_HINT, DOUBLE_PRESS_MS);
	}
}
