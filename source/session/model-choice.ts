import type { Agent, ThinkingLevel } from "@mariozechner/pi-agent-core";
import type { Api, Model } from "@mariozechner/pi-ai";
import { type ModelResolver, modelRef } from "./model-resolver.js";
import type { SessionManager } from "./session-manager.js";
import type { SessionContext } from "./types.js";

/** The agent's model and thinking level, and what the session last recorded of them. */
export interface ModelChoiceSnapshot {
	model: Model<Api>;
	thinkingLevel: ThinkingLevel;
	recordedModel: string | undefined;
	recordedThinking: string | undefined;
}

/**
 * Keeps the agent's model and thinking level in step with the session: restored from a context,
 * and recorded as `model_change` / `thinking_level_change` entries only when they differ.
 */
export class ModelChoice {
	readonly #agent: Agent;
	readonly #sessionManager: SessionManager;
	readonly #models: ModelResolver;
	#recordedModel: string | undefined;
	#recordedThinking: string | undefined;

	constructor(agent: Agent, sessionManager: SessionManager, models: ModelResolver) {
		this.#agent = agent;
		this.#sessionManager = sessionManager;
		this.#models = models;
	}

	/** Restores the model (when the registry has it) and the thinking level (when the path records one). */
	apply(context: SessionContext): void {
		const state = this.#agent.state;
		const recordedModel = context.models.default;
		const model = recordedModel ? this.#models.find(recordedModel) : undefined;
		if (model) state.model = model;
		this.#recordedModel = recordedModel;
		const thinkingRecorded = this.#sessionManager.getBranchSkeleton().some((e) => e.type === "thinking_level_change");
		this.#recordedThinking = thinkingRecorded ? context.thinkingLevel : undefined;
		if (thinkingRecorded)
			state.thinkingLevel = state.model.reasoning ? (context.thinkingLevel as ThinkingLevel) : "off";
	}

	/** Records the current model and thinking level if the session says otherwise (before a prompt). */
	record(): void {
		const ref = modelRef(this.#agent.state.model);
		if (ref !== this.#recordedModel) {
			this.#sessionManager.appendModelChange(ref);
			this.#recordedModel = ref;
		}
		const level = this.#agent.state.thinkingLevel;
		if (level !== (this.#recordedThinking ?? "off")) {
			this.#sessionManager.appendThinkingLevelChange(level);
			this.#recordedThinking = level;
		}
	}

	/** Switches model and records it; returns the thinking level if it had to drop to "off". */
	setModel(model: Model<Api>): void {
		this.#agent.state.model = model;
		this.#sessionManager.appendModelChange(modelRef(model));
		this.#recordedModel = modelRef(model);
	}

	/** Sets and records the thinking level ("off" for models without reasoning); returns what was set. */
	setThinkingLevel(level: ThinkingLevel): ThinkingLevel {
		const effective = this.#agent.state.model.reasoning ? level : "off";
		this.#agent.state.thinkingLevel = effective;
		this.#sessionManager.appendThinkingLevelChange(effective);
		this.#recordedThinking = effective;
		return effective;
	}

	/** The state to put back if a switch fails. */
	snapshot(): ModelChoiceSnapshot {
		const { model, thinkingLevel } = this.#agent.state;
		return { model, thinkingLevel, recordedModel: this.#recordedModel, recordedThinking: this.#recordedThinking };
	}

	/** Puts a snapshot back. */
	restore(snapshot: ModelChoiceSnapshot): void {
		this.#agent.state.model = snapshot.model;
		this.#agent.state.thinkingLevel = snapshot.thinkingLevel;
		this.#recordedModel = snapshot.recordedModel;
		this.#recordedThinking = snapshot.recordedThinking;
	}
}
