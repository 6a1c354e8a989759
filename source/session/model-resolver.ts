import type { Api, Model } from "@mariozechner/pi-ai";

/** How AgentSession finds models and their keys (the model registry implements it). */
export interface ModelResolver {
	find(ref: string): Model<Api> | undefined;
	getApiKey(provider: string): string | undefined | Promise<string | undefined>;
}

/** "provider/id" of a model. */
export function modelRef(model: Model<Api>): string {
	return `${model.provider}/${model.id}`;
}
