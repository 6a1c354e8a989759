import type { Api, Model } from "@mariozechner/pi-ai";
import type { CustomModelConfig, CustomProviderConfig } from "./models-json.js";

/** Output budget when models.json does not say; clamped to the context window for small local models. */
const DEFAULT_MAX_TOKENS = 16_384;

/**
 * pi-ai guesses OpenAI-compatible quirks from the base URL, and for an unknown URL it assumes
 * api.openai.com (the `developer` role, `store`, `max_completion_tokens`). Local servers (Ollama,
 * llama.cpp, vLLM) reliably accept only the older spellings, so custom endpoints start from those;
 * `compat` in models.json overrides any of them.
 */
const LOCAL_OPENAI_COMPAT: Readonly<Record<string, unknown>> = {
	supportsDeveloperRole: false,
	supportsStore: false,
	maxTokensField: "max_tokens",
};

function compatFor(provider: CustomProviderConfig, model: CustomModelConfig): Record<string, unknown> | undefined {
	const merged = { ...provider.compat, ...model.compat };
	if (provider.api === "openai-completions") return { ...LOCAL_OPENAI_COMPAT, ...merged };
	return Object.keys(merged).length > 0 ? merged : undefined;
}

/** Builds the pi-ai model for one models.json entry. */
export function buildCustomModel(provider: CustomProviderConfig, model: CustomModelConfig): Model<Api> {
	const headers = { ...provider.headers, ...model.headers };
	const compat = compatFor(provider, model);
	const built: Model<Api> = {
		id: model.id,
		name: model.name,
		api: provider.api,
		provider: provider.name,
		baseUrl: provider.baseUrl,
		reasoning: model.reasoning,
		input: [...model.input],
		cost: { ...model.cost },
		contextWindow: model.contextWindow,
		maxTokens: model.maxTokens ?? Math.min(DEFAULT_MAX_TOKENS, model.contextWindow),
		...(Object.keys(headers).length > 0 ? { headers } : {}),
	};
	// `compat`'s declared type depends on the api literal, which is only known at run time here.
	return compat ? ({ ...built, compat } as Model<Api>) : built;
}

/** Builds every model of a custom provider. */
export function buildCustomModels(provider: CustomProviderConfig): Model<Api>[] {
	return provider.models.map((model) => buildCustomModel(provider, model));
}
