import type { ExtensionRunner } from "../agent/extensions/runner.js";
import type { ExtensionEvent, SessionSwitchReason, ToolSessionEvent } from "../agent/extensions/types.js";
import type { AgentSessionEvent } from "./agent-session-events.js";
import type { SessionManager } from "./session-manager.js";

/** Tells the UI, the extensions and the tools what happened to the session (start, switch, tree, shutdown). */
export class SessionBroadcast {
	readonly #extensions: ExtensionRunner;
	readonly #sessionManager: SessionManager;
	readonly #emit: (event: AgentSessionEvent) => void;

	constructor(extensions: ExtensionRunner, sessionManager: SessionManager, emit: (event: AgentSessionEvent) => void) {
		this.#extensions = extensions;
		this.#sessionManager = sessionManager;
		this.#emit = emit;
	}

	/** Sends `event` to the extensions and `toolEvent` to the tools; a switch or tree move goes to the UI too. */
	async send(
		event: Exclude<ExtensionEvent, { type: "session_before_switch" }>,
		toolEvent: ToolSessionEvent,
	): Promise<void> {
		if (event.type === "session_switch" || event.type === "session_tree") this.#emit(event);
		await this.#extensions.emit(event);
		await this.#extensions.notifyTools(toolEvent);
	}

	/** Announces that the session file is now another one. */
	async switched(reason: SessionSwitchReason, previousSessionFile: string | undefined): Promise<void> {
		const event = {
			type: "session_switch" as const,
			reason,
			previousSessionFile,
			sessionFile: this.#sessionManager.getSessionFile(),
		};
		await this.send(event, previousSessionFile ? { reason: "switch", previousSessionFile } : { reason: "switch" });
	}
}
