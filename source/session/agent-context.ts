import type { Agent } from "@mariozechner/pi-agent-core";
import type { Api, Model } from "@mariozechner/pi-ai";
import { type OmittedContext, readBackTokens } from "./context-window.js";
import type { ModelChoice } from "./model-choice.js";
import type { SessionManager } from "./session-manager.js";

/**
 * The agent's context as read back from the session: only the newest messages up to the model's
 * window are read; a path bigger than that keeps its older part on disk (`omitted`), and the next
 * prompt compacts it first.
 */
export class AgentContext {
	readonly #agent: Agent;
	readonly #sessionManager: SessionManager;
	readonly #choice: ModelChoice;
	/** The context's older messages left on disk at load: the path is bigger than the model's window. */
	omitted: OmittedContext = { messages: 0, bytes: 0 };

	constructor(agent: Agent, sessionManager: SessionManager, choice: ModelChoice) {
		this.#agent = agent;
		this.#sessionManager = sessionManager;
		this.#choice = choice;
	}

	/** The tokens the current model's window reads back. */
	windowTokens(): number {
		return readBackTokens(this.#agent.state.model);
	}

	/** Rebuilds agent state from the session: messages, model (if the registry has it), thinking level. */
	restore(): void {
		const before = this.windowTokens();
		let windowed = this.#sessionManager.buildSessionContextWithin(before);
		this.#agent.state.messages = windowed.context.messages;
		this.#choice.apply(windowed.context);
		// The session's own model may have another window than the one it was opened with.
		const after = this.windowTokens();
		if (after !== before && (windowed.omitted.messages > 0 || after < before)) {
			windowed = this.#sessionManager.buildSessionContextWithin(after);
			this.#agent.state.messages = windowed.context.messages;
		}
		this.omitted = windowed.omitted;
	}

	/** A context cut to the old model's window is read again to `model`'s. */
	refit(model: Model<Api>): void {
		if (this.omitted.messages === 0) return;
		const windowed = this.#sessionManager.buildSessionContextWithin(readBackTokens(model));
		this.#agent.state.messages = windowed.context.messages;
		this.omitted = windowed.omitted;
	}
}
