import { readFile } from "node:fs/promises";

/** The wire protocols a custom endpoint can speak. */
export type CustomApi = "openai-completions" | "openai-responses" | "anthropic-messages";

/** The APIs accepted in models.json, in the order the error message lists them. */
export const CUSTOM_APIS: readonly CustomApi[] = ["openai-completions", "openai-responses", "anthropic-messages"];

/** Per-million-token prices; omitted prices are 0 (local models cost nothing). */
export interface CustomModelCost {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

/** One validated model entry of a custom provider. */
export interface CustomModelConfig {
	readonly id: string;
	readonly name: string;
	readonly contextWindow: number;
	readonly maxTokens: number | undefined;
	readonly reasoning: boolean;
	readonly input: readonly ("text" | "image")[];
	readonly cost: CustomModelCost;
	readonly headers: Readonly<Record<string, string>>;
	readonly compat: Readonly<Record<string, unknown>> | undefined;
}

/** How a custom provider authenticates: a literal key, a variable to read it from, or nothing (local servers). */
export type CustomKeySource =
	| { readonly kind: "literal"; readonly value: string }
	| { readonly kind: "env"; readonly name: string }
	| { readonly kind: "none" };

/** One validated provider block of models.json. */
export interface CustomProviderConfig {
	readonly name: string;
	readonly baseUrl: string;
	readonly api: CustomApi;
	readonly key: CustomKeySource;
	readonly headers: Readonly<Record<string, string>>;
	readonly compat: Readonly<Record<string, unknown>> | undefined;
	readonly models: readonly CustomModelConfig[];
}

/** The valid providers of a models.json plus one line per problem (a bad provider is skipped, not fatal). */
export interface ModelsFile {
	readonly providers: readonly CustomProviderConfig[];
	readonly errors: readonly string[];
}

/** Names models.json may not claim: `xcsh` is the offline model's provider. */
const RESERVED_PROVIDERS = new Set(["xcsh"]);

/** Raised by the field readers; carries the finished one-line message. */
class ConfigError extends Error {}

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(path: string, problem: string): never {
	throw new ConfigError(`models.json: ${path} ${problem}`);
}

function requiredString(obj: Json, key: string, path: string): string {
	const value = obj[key];
	if (typeof value !== "string" || value.trim() === "") fail(`${path}.${key}`, "must be a string");
	return value.trim();
}

function optionalString(obj: Json, key: string, path: string): string | undefined {
	return obj[key] === undefined ? undefined : requiredString(obj, key, path);
}

function optionalPositiveInt(obj: Json, key: string, path: string): number | undefined {
	const value = obj[key];
	if (value === undefined) return undefined;
	if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
		fail(`${path}.${key}`, "must be a positive integer");
	}
	return value;
}

function optionalBoolean(obj: Json, key: string, path: string): boolean | undefined {
	const value = obj[key];
	if (value !== undefined && typeof value !== "boolean") fail(`${path}.${key}`, "must be true or false");
	return value as boolean | undefined;
}

function optionalObject(obj: Json, key: string, path: string): Json | undefined {
	const value = obj[key];
	if (value !== undefined && !isObject(value)) fail(`${path}.${key}`, "must be an object");
	return value as Json | undefined;
}

function readHeaders(obj: Json, path: string): Record<string, string> {
	const headers = optionalObject(obj, "headers", path) ?? {};
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value !== "string") fail(`${path}.headers.${name}`, "must be a string");
	}
	return headers as Record<string, string>;
}

function readCost(obj: Json, path: string): CustomModelCost {
	const cost = optionalObject(obj, "cost", path) ?? {};
	const price = (key: keyof CustomModelCost): number => {
		const value = cost[key];
		if (value === undefined) return 0;
		if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
			fail(`${path}.cost.${key}`, "must be a non-negative number");
		}
		return value;
	};
	return {
		input: price("input"),
		output: price("output"),
		cacheRead: price("cacheRead"),
		cacheWrite: price("cacheWrite"),
	};
}

function readInput(obj: Json, path: string): ("text" | "image")[] {
	const value = obj.input;
	if (value === undefined) return ["text"];
	const valid = Array.isArray(value) && value.length > 0 && value.every((item) => item === "text" || item === "image");
	if (!valid) fail(`${path}.input`, 'must be a list of "text" and "image"');
	return [...new Set(value as ("text" | "image")[])];
}

function readModel(raw: unknown, path: string): CustomModelConfig {
	if (!isObject(raw)) fail(path, "must be an object");
	const id = requiredString(raw, "id", path);
	const contextWindow = optionalPositiveInt(raw, "contextWindow", path);
	// Required: compaction and the context meter are only as good as this number, so never guess it.
	if (contextWindow === undefined) fail(`${path}.contextWindow`, "must be a positive integer");
	return {
		id,
		name: optionalString(raw, "name", path) ?? id,
		contextWindow,
		maxTokens: optionalPositiveInt(raw, "maxTokens", path),
		reasoning: optionalBoolean(raw, "reasoning", path) ?? false,
		input: readInput(raw, path),
		cost: readCost(raw, path),
		headers: readHeaders(raw, path),
		compat: optionalObject(raw, "compat", path),
	};
}

function readKey(raw: Json, path: string): CustomKeySource {
	const literal = optionalString(raw, "apiKey", path);
	const envName = optionalString(raw, "apiKeyEnv", path);
	if (literal !== undefined && envName !== undefined) fail(path, "must set apiKey or apiKeyEnv, not both");
	if (literal !== undefined) return { kind: "literal", value: literal };
	if (envName !== undefined) return { kind: "env", name: envName };
	return { kind: "none" };
}

function readApi(raw: Json, path: string): CustomApi {
	const api = raw.api ?? "openai-completions";
	const known = CUSTOM_APIS.find((candidate) => candidate === api);
	if (!known) fail(`${path}.api`, `must be one of ${CUSTOM_APIS.map((name) => `"${name}"`).join(", ")}`);
	return known;
}

function readProvider(name: string, raw: unknown): CustomProviderConfig {
	const path = `providers.${name}`;
	if (name.includes("/") || name.trim() === "") fail(path, 'is not a valid provider name (use letters, digits, "-")');
	if (RESERVED_PROVIDERS.has(name)) fail(path, "is reserved for the built-in offline model");
	if (!isObject(raw)) fail(path, "must be an object");
	const baseUrl = requiredString(raw, "baseUrl", path);
	if (!/^https?:\/\/\S+$/.test(baseUrl)) fail(`${path}.baseUrl`, "must be an http:// or https:// URL");
	const api = readApi(raw, path);
	const key = readKey(raw, path);
	const headers = readHeaders(raw, path);
	const compat = optionalObject(raw, "compat", path);
	if (!Array.isArray(raw.models) || raw.models.length === 0) fail(`${path}.models`, "must be a non-empty list");
	const models = raw.models.map((model, index) => readModel(model, `${path}.models[${index}]`));
	const seen = new Set<string>();
	models.forEach((model, index) => {
		if (seen.has(model.id)) fail(`${path}.models[${index}].id`, `repeats "${model.id}"`);
		seen.add(model.id);
	});
	return { name, baseUrl: baseUrl.replace(/\/+$/, ""), api, key, headers, compat, models };
}

/** Validates models.json text; never throws. Each bad provider yields exactly one line and is skipped. */
export function parseModelsJson(text: string): ModelsFile {
	let root: unknown;
	try {
		root = JSON.parse(text);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return { providers: [], errors: [`models.json is not valid JSON: ${reason}`] };
	}
	if (!isObject(root) || !isObject(root.providers)) {
		return { providers: [], errors: ['models.json: must be an object with a "providers" object'] };
	}
	const providers: CustomProviderConfig[] = [];
	const errors: string[] = [];
	for (const [name, raw] of Object.entries(root.providers)) {
		try {
			providers.push(readProvider(name, raw));
		} catch (error) {
			if (!(error instanceof ConfigError)) throw error;
			errors.push(error.message);
		}
	}
	return { providers, errors };
}

/** Reads and validates `path`; a missing file is an empty, error-free config. */
export async function readModelsFile(path: string): Promise<ModelsFile> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { providers: [], errors: [] };
		const reason = error instanceof Error ? error.message : String(error);
		return { providers: [], errors: [`models.json could not be read: ${reason}`] };
	}
	return parseModelsJson(text);
}
