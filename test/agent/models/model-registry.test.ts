import { homedir } from "node:os";
import { join } from "node:path";
import { getEnvApiKey, getModels } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeModelSetup, ModelRegistry } from "../../../source/agent/models/model-registry.js";
import { OFFLINE_MODEL } from "../../../source/agent/models/offline-provider.js";
import { PROVIDER_KEY_VARS } from "../../../source/agent/models/provider-env.js";
import { type LogSink, setLogSink } from "../../../source/logger.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";
import { writeAgentFile } from "./model-fixtures.js";

describe("models: registry", () => {
	const dirs = useTempAgentDir();
	const logged: string[] = [];
	let previousSink: LogSink;
	beforeEach(() => {
		logged.length = 0;
		previousSink = setLogSink((level, message) => logged.push(`${level}: ${message}`));
	});
	afterEach(() => {
		setLogSink(previousSink);
	});

	const ollama = {
		providers: {
			ollama: {
				baseUrl: "http://localhost:11434/v1",
				api: "openai-completions",
				apiKey: "ollama-key",
				models: [{ id: "qwen3:8b", contextWindow: 32768 }],
			},
		},
	};

	describe("ModelRegistry: environment", () => {
		it("offers only the offline model with an empty environment", async () => {
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.list().map((info) => info.ref)).toEqual(["xcsh/offline"]);
			expect(registry.getDefault()).toBe(OFFLINE_MODEL);
			expect(registry.isOffline(registry.getDefault())).toBe(true);
			expect(registry.getApiKey("anthropic")).toBeUndefined();
			expect(registry.configErrors()).toEqual([]);
		});

		it("makes a provider's models appear with its key and disappear without it", async () => {
			const withKey = await ModelRegistry.load({ env: { ANTHROPIC_API_KEY: "sk-ant-fake" } });
			const anthropic = withKey.list().filter((info) => info.provider === "anthropic");
			expect(anthropic).toHaveLength(getModels("anthropic").length);
			expect(anthropic.every((info) => info.source === "builtin")).toBe(true);
			expect(withKey.getApiKey("anthropic")).toBe("sk-ant-fake");
			expect(withKey.find("anthropic/claude-sonnet-4-5")?.api).toBe("anthropic-messages");

			const without = await ModelRegistry.load({ env: { OPENAI_API_KEY: "sk-openai-fake" } });
			expect(without.list().some((info) => info.provider === "anthropic")).toBe(false);
			expect(without.find("anthropic/claude-sonnet-4-5")).toBeUndefined();
			expect(without.getApiKey("openai")).toBe("sk-openai-fake");
		});

		it("reads the keys users expect for each provider", async () => {
			const env = {
				GEMINI_API_KEY: "g",
				OPENROUTER_API_KEY: "or",
				GROQ_API_KEY: "gq",
				XAI_API_KEY: "x",
				MISTRAL_API_KEY: "m",
				ANTHROPIC_API_KEY: "   ",
			};
			const registry = await ModelRegistry.load({ env });
			const providers = new Set(registry.list().map((info) => info.provider));
			expect([...providers].sort()).toEqual(["google", "groq", "mistral", "openrouter", "xai", "xcsh"]);
			expect(registry.getApiKey("groq")).toBe("gq");
			expect(registry.getApiKey("anthropic")).toBeUndefined();
		});

		it("agrees with pi-ai's getEnvApiKey on every variable it knows", () => {
			for (const [provider, names] of Object.entries(PROVIDER_KEY_VARS)) {
				for (const name of names.filter((candidate) => candidate !== "GOOGLE_API_KEY")) {
					const saved = process.env[name];
					process.env[name] = `fake-${name}`;
					try {
						expect(getEnvApiKey(provider), `${provider} via ${name}`).toBe(`fake-${name}`);
					} finally {
						if (saved === undefined) delete process.env[name];
						else process.env[name] = saved;
					}
				}
			}
		});

		it("finds models by ref or by a unique bare id", async () => {
			const registry = await ModelRegistry.load({ env: { ANTHROPIC_API_KEY: "a", OPENROUTER_API_KEY: "o" } });
			expect(registry.find("claude-sonnet-4-5")?.provider).toBe("anthropic");
			expect(registry.find("openrouter/anthropic/claude-sonnet-4.5")?.id).toBe("anthropic/claude-sonnet-4.5");
			expect(registry.find("offline")).toBe(OFFLINE_MODEL);
			expect(registry.find("no-such-model")).toBeUndefined();
		});
	});

	describe("ModelRegistry: a model whose key is missing is named with the variable", () => {
		it("built-in models name their provider's key variables; unknown refs get nothing", async () => {
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.find("anthropic/claude-sonnet-4-5")).toBeUndefined();
			expect(registry.missingKey("anthropic/claude-sonnet-4-5")).toBe(
				"anthropic/claude-sonnet-4-5 needs ANTHROPIC_API_KEY (or ANTHROPIC_OAUTH_TOKEN)",
			);
			// A bare id several providers share names none of them.
			expect(registry.missingKey("claude-sonnet-4-5")).toBeUndefined();
			expect(registry.missingKey("openai/gpt-5")).toBe("openai/gpt-5 needs OPENAI_API_KEY");
			expect(registry.missingKey("google/gemini-2.5-pro")).toBe(
				"google/gemini-2.5-pro needs GEMINI_API_KEY (or GOOGLE_API_KEY)",
			);
			expect(registry.missingKey("nope/model")).toBeUndefined();
		});

		it("a models.json model names its unset apiKeyEnv", async () => {
			writeAgentFile(dirs.agentDir, "models.json", {
				providers: {
					vllm: { baseUrl: "http://gpu:8000/v1", apiKeyEnv: "VLLM_KEY", models: [{ id: "m", contextWindow: 8192 }] },
				},
			});
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.missingKey("vllm/m")).toBe("vllm/m needs VLLM_KEY (apiKeyEnv in models.json)");
		});
	});

	describe("ModelRegistry: default model", () => {
		const cases: [Record<string, string>, string][] = [
			[{ ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o", GEMINI_API_KEY: "g" }, "anthropic/claude-sonnet-4-6"],
			[{ OPENAI_API_KEY: "o", GEMINI_API_KEY: "g", OPENROUTER_API_KEY: "r" }, "openai/gpt-5.1"],
			[{ GEMINI_API_KEY: "g", OPENROUTER_API_KEY: "r" }, "google/gemini-2.5-pro"],
			[{ OPENROUTER_API_KEY: "r", GROQ_API_KEY: "q" }, "openrouter/anthropic/claude-sonnet-4.6"],
		];
		it.each(cases)("with %o picks %s", async (env, expected) => {
			const model = (await ModelRegistry.load({ env })).getDefault();
			expect(`${model.provider}/${model.id}`).toBe(expected);
		});

		it("prefers models.json over other built-ins, and built-ins over offline", async () => {
			writeAgentFile(dirs.agentDir, "models.json", ollama);
			const custom = await ModelRegistry.load({ env: { GROQ_API_KEY: "q" } });
			expect(custom.getDefault().provider).toBe("ollama");
			const groqOnly = await ModelRegistry.load({ env: { GROQ_API_KEY: "q" }, agentDir: `${dirs.root}/elsewhere` });
			expect(groqOnly.getDefault().provider).toBe("groq");
		});

		it("honours settings.json defaultModel, and reports one that is not available", async () => {
			writeAgentFile(dirs.agentDir, "models.json", ollama);
			writeAgentFile(dirs.agentDir, "settings.json", { defaultModel: "ollama/qwen3:8b" });
			const registry = await ModelRegistry.load({ env: { ANTHROPIC_API_KEY: "a" } });
			expect(registry.getDefault().id).toBe("qwen3:8b");

			writeAgentFile(dirs.agentDir, "settings.json", { defaultModel: "openai/gpt-5.1" });
			const missing = await ModelRegistry.load({ env: { ANTHROPIC_API_KEY: "a" } });
			expect(missing.getDefault().id).toBe("claude-sonnet-4-6");
			expect(missing.configErrors()).toEqual(["settings.json: defaultModel openai/gpt-5.1 is not an available model"]);
		});

		it("survives a broken settings.json", async () => {
			writeAgentFile(dirs.agentDir, "settings.json", "{ nope");
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.getDefault()).toBe(OFFLINE_MODEL);
			expect(registry.configErrors()).toHaveLength(1);
			expect(registry.configErrors()[0]).toMatch(/^settings\.json is not valid JSON: /);
		});
	});

	describe("ModelRegistry: models.json", () => {
		it("treats a missing file as no custom models", async () => {
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.list().filter((info) => info.source === "custom")).toEqual([]);
			expect(registry.configErrors()).toEqual([]);
		});

		it("builds pi-ai models from a valid file", async () => {
			writeAgentFile(dirs.agentDir, "models.json", {
				providers: {
					...ollama.providers,
					proxy: {
						baseUrl: "https://llm.example.com/",
						api: "anthropic-messages",
						apiKeyEnv: "PROXY_KEY",
						headers: { "x-team": "core" },
						models: [
							{
								id: "claude-proxy",
								name: "Claude via proxy",
								contextWindow: 200000,
								maxTokens: 8192,
								reasoning: true,
								input: ["text", "image"],
								cost: { input: 3, output: 15 },
							},
						],
					},
				},
			});
			const registry = await ModelRegistry.load({ env: { PROXY_KEY: "proxy-secret" } });
			expect(registry.configErrors()).toEqual([]);
			expect(registry.find("ollama/qwen3:8b")).toEqual({
				id: "qwen3:8b",
				name: "qwen3:8b",
				api: "openai-completions",
				provider: "ollama",
				baseUrl: "http://localhost:11434/v1",
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 32768,
				maxTokens: 16384,
				compat: { supportsDeveloperRole: false, supportsStore: false, maxTokensField: "max_tokens" },
			});
			const proxy = registry.find("claude-proxy");
			expect(proxy).toMatchObject({
				provider: "proxy",
				api: "anthropic-messages",
				baseUrl: "https://llm.example.com",
				reasoning: true,
				input: ["text", "image"],
				cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 },
				maxTokens: 8192,
				headers: { "x-team": "core" },
			});
			expect(registry.getApiKey("ollama")).toBe("ollama-key");
			expect(registry.getApiKey("proxy")).toBe("proxy-secret");
			expect(registry.list().find((info) => info.ref === "proxy/claude-proxy")?.source).toBe("custom");
		});

		it("hides a provider whose apiKeyEnv is unset, and says why", async () => {
			writeAgentFile(dirs.agentDir, "models.json", {
				providers: {
					vllm: { baseUrl: "http://gpu:8000/v1", apiKeyEnv: "VLLM_KEY", models: [{ id: "m", contextWindow: 8192 }] },
				},
			});
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.find("vllm/m")).toBeUndefined();
			expect(registry.configErrors()).toEqual([
				"models.json: providers.vllm.apiKeyEnv names VLLM_KEY, which is not set",
			]);
		});

		it("gives keyless local endpoints a placeholder key pi-ai accepts", async () => {
			writeAgentFile(dirs.agentDir, "models.json", {
				providers: {
					llamacpp: { baseUrl: "http://127.0.0.1:8080/v1", models: [{ id: "local", contextWindow: 4096 }] },
				},
			});
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.find("llamacpp/local")?.maxTokens).toBe(4096);
			expect(registry.getApiKey("llamacpp")).toBe("no-key");
		});

		const malformed: [string, unknown, string][] = [
			["bad JSON", '{ "providers": ', "models.json is not valid JSON: "],
			["no providers", { models: [] }, 'models.json: must be an object with a "providers" object'],
			[
				"a non-string id",
				{ providers: { ollama: { baseUrl: "http://localhost:11434/v1", models: [{ id: 7, contextWindow: 1 }] } } },
				"models.json: providers.ollama.models[0].id must be a string",
			],
			[
				"a missing contextWindow",
				{ providers: { ollama: { baseUrl: "http://localhost:11434/v1", models: [{ id: "a" }] } } },
				"models.json: providers.ollama.models[0].contextWindow must be a positive integer",
			],
			[
				"an unknown api",
				{ providers: { ollama: { baseUrl: "http://x/v1", api: "grpc", models: [{ id: "a", contextWindow: 1 }] } } },
				'models.json: providers.ollama.api must be one of "openai-completions", "openai-responses", "anthropic-messages"',
			],
			[
				"a baseUrl that is not http",
				{ providers: { ollama: { baseUrl: "localhost:11434", models: [{ id: "a", contextWindow: 1 }] } } },
				"models.json: providers.ollama.baseUrl must be an http:// or https:// URL",
			],
			[
				"no models",
				{ providers: { ollama: { baseUrl: "http://x/v1", models: [] } } },
				"models.json: providers.ollama.models must be a non-empty list",
			],
			[
				"both key kinds",
				{
					providers: {
						ollama: { baseUrl: "http://x/v1", apiKey: "a", apiKeyEnv: "B", models: [{ id: "a", contextWindow: 1 }] },
					},
				},
				"models.json: providers.ollama must set apiKey or apiKeyEnv, not both",
			],
			[
				"a bad input list",
				{
					providers: { ollama: { baseUrl: "http://x/v1", models: [{ id: "a", contextWindow: 1, input: ["audio"] }] } },
				},
				'models.json: providers.ollama.models[0].input must be a list of "text" and "image"',
			],
			[
				"a repeated id",
				{
					providers: {
						ollama: {
							baseUrl: "http://x/v1",
							models: [
								{ id: "a", contextWindow: 1 },
								{ id: "a", contextWindow: 2 },
							],
						},
					},
				},
				'models.json: providers.ollama.models[1].id repeats "a"',
			],
			[
				"the reserved provider",
				{ providers: { xcsh: { baseUrl: "http://x/v1", models: [{ id: "a", contextWindow: 1 }] } } },
				"models.json: providers.xcsh is reserved for the built-in offline model",
			],
		];
		it.each(malformed)("reports %s in one line and keeps working", async (_label, content, expected) => {
			writeAgentFile(dirs.agentDir, "models.json", content);
			const registry = await ModelRegistry.load({ env: { OPENAI_API_KEY: "o" } });
			const errors = registry.configErrors();
			expect(errors).toHaveLength(1);
			if (expected.endsWith(": ")) expect(errors[0]?.startsWith(expected)).toBe(true);
			else expect(errors[0]).toBe(expected);
			expect(errors[0]).not.toContain("\n");
			expect(registry.find("openai/gpt-4o")).toBeDefined();
			expect(registry.find("xcsh/offline")).toBe(OFFLINE_MODEL);
			expect(registry.getDefault().provider).toBe("openai");
			expect(logged).toContain(`warn: ${errors[0]}`);
		});

		it("skips only the broken provider", async () => {
			writeAgentFile(dirs.agentDir, "models.json", {
				providers: { ...ollama.providers, broken: { baseUrl: 5, models: [] } },
			});
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.configErrors()).toEqual(["models.json: providers.broken.baseUrl must be a string"]);
			expect(registry.find("ollama/qwen3:8b")).toBeDefined();
		});
	});

	describe("describeModelSetup", () => {
		it("names the keys and the models.json of the agent dir", () => {
			expect(describeModelSetup("/srv/agent")).toBe(
				"Offline model — set ANTHROPIC_API_KEY / OPENAI_API_KEY, or add a local endpoint to /srv/agent/models.json",
			);
			expect(describeModelSetup()).toContain(`${dirs.agentDir}/models.json`);
			expect(describeModelSetup(join(homedir(), ".xcsh", "agent"))).toMatch(/to ~\/\.xcsh\/agent\/models\.json$/);
		});
	});
});
