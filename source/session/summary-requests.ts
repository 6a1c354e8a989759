import type { Agent } from "@mariozechner/pi-agent-core";

/** What a summary request needs from the agent: its current model and a signal to cancel it. */
export interface SummaryRequest {
	model: Agent["state"]["model"];
	apiKey?: string;
	signal: AbortSignal;
}

/**
 * The summary requests of compaction and tree navigation: one at a time, so Escape (`abort`)
 * cancels whichever is running, and starting one cancels the one before.
 */
export class SummaryRequests {
	readonly #agent: Agent;
	readonly #apiKey: (provider: string) => string | undefined | Promise<string | undefined>;
	#controller: AbortController | undefined;

	constructor(agent: Agent, apiKey: (provider: string) => string | undefined | Promise<string | undefined>) {
		this.#agent = agent;
		this.#apiKey = apiKey;
	}

	/** Cancels the running request, if any. */
	abort(): void {
		this.#controller?.abort();
	}

	/** True when the latest request was cancelled. */
	get aborted(): boolean {
		return this.#controller?.signal.aborted === true;
	}

	/** Starts a request with the agent's current model (cancelling the one before). */
	async next(): Promise<SummaryRequest> {
		this.#controller?.abort();
		this.#controller = new AbortController();
		const { signal } = this.#controller;
		const model = this.#agent.state.model;
		const apiKey = await this.#apiKey(model.provider);
		return apiKey ? { model, apiKey, signal } : { model, signal };
	}
}
