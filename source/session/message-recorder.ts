import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { AgentSessionEvent } from "./agent-session-events.js";
import type { SessionManager } from "./session-manager.js";

/**
 * Persists every finished message of the agent to the session store. A failing disk keeps throwing
 * the same latched error on each append: it is reported once, and memory keeps every message.
 */
export class MessageRecorder {
	readonly #sessionManager: SessionManager;
	readonly #emit: (event: AgentSessionEvent) => void;
	#reported: Error | undefined;

	constructor(sessionManager: SessionManager, emit: (event: AgentSessionEvent) => void) {
		this.#sessionManager = sessionManager;
		this.#emit = emit;
	}

	/** Appends the message (custom messages as `custom_message` entries). */
	record(message: AgentMessage): void {
		try {
			if (message.role === "custom") {
				this.#sessionManager.appendCustomMessageEntry(
					message.customType,
					message.content,
					message.display,
					message.details,
				);
			} else {
				this.#sessionManager.appendMessage(message);
			}
		} catch (error) {
			const err = error instanceof Error ? error : new Error(String(error));
			if (this.#reported === err) return;
			this.#reported = err;
			this.#emit({ type: "error", source: "persistence", message: err.message });
		}
	}
}
