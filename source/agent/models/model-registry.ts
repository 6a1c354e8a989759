import { readFile } from "node:fs/promises";
import { type Api, getModels, getProviders, type KnownProvider, type Model } from "@mariozechner/pi-ai";
import { getAgentDir } from "../../agent-dir.js";
import { log } from "../../logger.js";
import { buildCustomModels } from "./custom-models.js";
import { modelsJsonPath, settingsJsonPath } from "./model-setup.js";
import { type CustomProviderConfig, readModelsFile } from "./models-json.js";
import { isOfflineModel, OFFLINE_MODEL, OFFLINE_PROVIDER } from "./offline-provider.js";
import { type Env, envApiKey, PROVIDER_KEY_VARS } from "./provider-env.js";

export { describeModelSetup } from "./model-setup.js";

/** Where a model comes from. */
export type ModelSource = "builtin" | "custom" | "offline";

/** A usable model as pickers and `--list-models` show it. */
export interface ModelInfo {
	/** `provider/id`, the form `find()` and settings.json accept. */
	readonly ref: string;
	readonly provider: string;
	readonly id: string;
	readonly name: string;
	readonly source: ModelSource;
	readonly contextWindow: number;
	readonly reasoning: boolean;
	readonly model: Model<Api>;
}

/** Options for `ModelRegistry.load`. */
export interface ModelRegistryOptions {
	/** Defaults to `process.env`. */
	readonly env?: Env;
	/** Defaults to `getAgentDir()`. */
	readonly agentDir?: string;
}

/** Preferred defaults per provider, best first; a provider whose list has gone stale falls back to its first model. */
const DEFAULT_PREFERENCES: readonly (readonly [KnownProvider, readonly string[]])[] = [
	["anthropic", ["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-sonnet-4-0"]],
	["openai", ["gpt-5.1", "gpt-5", "gpt-4.1"]],
	["google", ["gemini-2.5-pro", "gemini-2.5-flash"]],
	["openrouter", ["anthropic/claude-sonnet-4.6", "anthropic/claude-sonnet-4.5", "openai/gpt-5.1"]],
];

/** The key handed to pi-ai for the offline model, which ignores it; non-empty so "has a key" checks pass. */
const OFFLINE_KEY = "offline";
/** Sent to keyless local endpoints: pi-ai refuses an empty key and local servers ignore the header. */
const NO_KEY = "no-key";

function refOf(model: Pick<Model<Api>, "provider" | "id">): string {
	return `${model.provider}/${model.id}`;
}

/** "ANTHROPIC_API_KEY (or ANTHROPIC_OAUTH_TOKEN)": the API-key variable first, the alternatives after. */
function keyVariables(provider: string): string | undefined {
	const names = [...(PROVIDER_KEY_VARS[provider] ?? [])].sort(
		(a, b) => Number(b.endsWith("_API_KEY")) - Number(a.endsWith("_API_KEY")),
	);
	const [first, ...rest] = names;
	if (!first) return undefined;
	return rest.length > 0 ? `${first} (or ${rest.join(" or ")})` : first;
}

async function readDefaultSetting(path: string): Promise<{ ref?: string; error?: string }> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
		return { error: `settings.json could not be read: ${error instanceof Error ? error.message : String(error)}` };
	}
	try {
		const settings: unknown = JSON.parse(text);
		const value = typeof settings === "object" && settings !== null ? Reflect.get(settings, "defaultModel") : undefined;
		if (value === undefined) return {};
		if (typeof value !== "string" || value.trim() === "") {
			return { error: "settings.json: defaultModel must be a string like provider/model-id" };
		}
		return { ref: value.trim() };
	} catch (error) {
		return { error: `settings.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
	}
}

/** Every model xcsh can use right now: built-ins whose key is set, models.json endpoints, and the offline model. */
export class ModelRegistry {
	private constructor(
		private readonly models: readonly ModelInfo[],
		private readonly keys: ReadonlyMap<string, string>,
		private readonly errors: readonly string[],
		private readonly defaultRef: string | undefined,
		/** `provider/id` → what it needs, for the models left out for want of a key. */
		private readonly keyless: ReadonlyMap<string, string>,
	) {}

	/** Builds the registry from the environment and the agent dir; never throws on bad config. */
	static async load(options: ModelRegistryOptions = {}): Promise<ModelRegistry> {
		const env = options.env ?? process.env;
		const agentDir = options.agentDir ?? getAgentDir();
		const [modelsFile, setting] = await Promise.all([
			readModelsFile(modelsJsonPath(agentDir)),
			readDefaultSetting(settingsJsonPath(agentDir)),
		]);
		const errors = [...modelsFile.errors, ...(setting.error ? [setting.error] : [])];
		const keys = new Map<string, string>([[OFFLINE_PROVIDER, OFFLINE_KEY]]);
		const byRef = new Map<string, ModelInfo>();
		const add = (model: Model<Api>, source: ModelSource) => {
			const info: ModelInfo = {
				ref: refOf(model),
				provider: model.provider,
				id: model.id,
				name: model.name,
				source,
				contextWindow: model.contextWindow,
				reasoning: model.reasoning,
				model,
			};
			byRef.set(info.ref, info);
		};
		const keyless = new Map<string, string>();
		for (const provider of getProviders()) {
			const key = envApiKey(provider, env);
			if (!key) {
				const needs = keyVariables(provider);
				if (needs) for (const model of getModels(provider)) keyless.set(refOf(model), needs);
				continue;
			}
			keys.set(provider, key);
			for (const model of getModels(provider)) add(model as Model<Api>, "builtin");
		}
		for (const provider of modelsFile.providers) {
			const key = ModelRegistry.customKey(provider, env, errors);
			if (key === undefined) {
				const needs = provider.key.kind === "env" ? `${provider.key.name} (apiKeyEnv in models.json)` : undefined;
				if (needs) for (const model of buildCustomModels(provider)) keyless.set(refOf(model), needs);
				continue;
			}
			keys.set(provider.name, key);
			// A custom entry with a built-in's ref replaces it: the user pointed that model at their endpoint.
			for (const model of buildCustomModels(provider)) add(model, "custom");
		}
		add(OFFLINE_MODEL, "offline");
		for (const ref of byRef.keys()) keyless.delete(ref);
		const registry = new ModelRegistry([...byRef.values()], keys, errors, setting.ref, keyless);
		// `errors` is the instance's own list, so a default that `find()` cannot resolve is reported with the rest.
		if (setting.ref && !registry.find(setting.ref)) {
			errors.push(`settings.json: defaultModel ${setting.ref} is not an available model`);
		}
		for (const error of errors) log.warn(error);
		return registry;
	}

	private static customKey(provider: CustomProviderConfig, env: Env, errors: string[]): string | undefined {
		switch (provider.key.kind) {
			case "literal":
				return provider.key.value;
			case "none":
				return NO_KEY;
			case "env": {
				const value = env[provider.key.name]?.trim();
				if (value) return value;
				errors.push(`models.json: providers.${provider.name}.apiKeyEnv names ${provider.key.name}, which is not set`);
				return undefined;
			}
		}
	}

	/** The available models, built-ins first (pi-ai's order), then models.json, then the offline model. */
	list(): ModelInfo[] {
		return [...this.models];
	}

	/** Looks up `provider/id`, or a bare id when exactly one available model has it. */
	find(ref: string): Model<Api> | undefined {
		const wanted = ref.trim();
		const exact = this.models.find((info) => info.ref === wanted);
		if (exact) return exact.model;
		const byId = this.models.filter((info) => info.id === wanted);
		return byId.length === 1 ? byId[0]?.model : undefined;
	}

	/** `<provider/id> needs <VARIABLE>` for a known model left out because its key is not set (by ref or unique bare id). */
	missingKey(ref: string): string | undefined {
		const wanted = ref.trim();
		const exact = this.keyless.get(wanted);
		if (exact) return `${wanted} needs ${exact}`;
		const byId = [...this.keyless].filter(([known]) => known.slice(known.indexOf("/") + 1) === wanted);
		return byId.length === 1 ? `${byId[0]![0]} needs ${byId[0]![1]}` : undefined;
	}

	/** The key to pass as pi-ai's `apiKey` for `provider`, or undefined when it is not configured. */
	getApiKey(provider: string): string | undefined {
		return this.keys.get(provider);
	}

	/** settings.json's `defaultModel`, else Anthropic, OpenAI, Gemini, OpenRouter, models.json, any built-in, offline. */
	getDefault(): Model<Api> {
		const chosen = this.defaultRef ? this.find(this.defaultRef) : undefined;
		if (chosen) return chosen;
		for (const [provider, preferred] of DEFAULT_PREFERENCES) {
			const models = this.models.filter((info) => info.provider === provider && info.source === "builtin");
			const pick = preferred.map((id) => models.find((info) => info.id === id)).find(Boolean) ?? models[0];
			if (pick) return pick.model;
		}
		const fallback =
			this.models.find((info) => info.source === "custom") ?? this.models.find((info) => info.source === "builtin");
		return fallback?.model ?? OFFLINE_MODEL;
	}

	/** True for the built-in offline model. */
	isOffline(model: Pick<Model<Api>, "provider" | "id">): boolean {
		return isOfflineModel(model);
	}

	/** One line per problem in models.json or settings.json, for the UI to show. */
	configErrors(): string[] {
		return [...this.errors];
	}
}
