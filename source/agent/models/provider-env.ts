/** Environment variables as the registry reads them (a plain record so tests can pass a fake one). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The variables that carry an API key for each built-in provider, in precedence order. Mirrors
 * pi-ai's `env-api-keys` (whose `getEnvApiKey` only reads `process.env`, so it cannot honour an
 * injected env), plus `GOOGLE_API_KEY`, the name Google's own docs use. OAuth-only providers
 * (github-copilot, openai-codex) are left out on purpose: a `GITHUB_TOKEN` in CI is not a Copilot login.
 */
export const PROVIDER_KEY_VARS: Readonly<Record<string, readonly string[]>> = {
	anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
	openai: ["OPENAI_API_KEY"],
	"azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
	google: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
	"google-vertex": ["GOOGLE_CLOUD_API_KEY"],
	openrouter: ["OPENROUTER_API_KEY"],
	groq: ["GROQ_API_KEY"],
	xai: ["XAI_API_KEY"],
	mistral: ["MISTRAL_API_KEY"],
	deepseek: ["DEEPSEEK_API_KEY"],
	cerebras: ["CEREBRAS_API_KEY"],
	"vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
	zai: ["ZAI_API_KEY"],
	minimax: ["MINIMAX_API_KEY"],
	"minimax-cn": ["MINIMAX_CN_API_KEY"],
	moonshotai: ["MOONSHOT_API_KEY"],
	"moonshotai-cn": ["MOONSHOT_API_KEY"],
	huggingface: ["HF_TOKEN"],
	fireworks: ["FIREWORKS_API_KEY"],
	opencode: ["OPENCODE_API_KEY"],
	"opencode-go": ["OPENCODE_API_KEY"],
	"kimi-coding": ["KIMI_API_KEY"],
	"cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
	"cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
	xiaomi: ["XIAOMI_API_KEY"],
	"xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
	"xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
	"xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
};

/** pi-ai's marker for "credentials exist but are not a key" (the SDK finds them itself). */
export const AMBIENT_CREDENTIALS = "<authenticated>";

function nonEmpty(value: string | undefined): string | undefined {
	const trimmed = value?.trim();
	return trimmed && trimmed.length > 0 ? trimmed : undefined;
}

/** Bedrock authenticates through the AWS credential chain, so the presence of its inputs is the "key". */
function bedrockCredentials(env: Env): string | undefined {
	const hasKeys = nonEmpty(env.AWS_ACCESS_KEY_ID) && nonEmpty(env.AWS_SECRET_ACCESS_KEY);
	return hasKeys || nonEmpty(env.AWS_PROFILE) || nonEmpty(env.AWS_BEARER_TOKEN_BEDROCK)
		? AMBIENT_CREDENTIALS
		: undefined;
}

/** The API key for a built-in provider from `env`, or undefined when none is set. */
export function envApiKey(provider: string, env: Env): string | undefined {
	if (provider === "amazon-bedrock") return bedrockCredentials(env);
	for (const name of PROVIDER_KEY_VARS[provider] ?? []) {
		const value = nonEmpty(env[name]);
		if (value) return value;
	}
	return undefined;
}
