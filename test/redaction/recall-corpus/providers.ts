import { ALNUM, BASE32, BASE64, BASE64URL, DIGITS, HEX, LOWER, type Random, token, UPPER } from "./random.js";

/** What a context must give a secret for it to be recognisable at all. */
export type Needs = "nothing" | "label" | "assignment";

/**
 * A credential format, generated: token shapes follow the vendors' published formats (and the public
 * rule sets of secret scanners), bodies are random, so nothing here was ever a real secret.
 */
export interface Provider {
	/** The provider id the figures are grouped by. */
	readonly id: string;
	/** How a person names it in prose ("Datadog API key"); formats without a prefix need it nearby. */
	readonly label: string;
	/** The environment variable it usually lives in. */
	readonly envKey: string;
	/**
	 * What tells the secret apart: its own prefix or armour (any context), a label nearby ("Datadog API
	 * key", 32 hex digits are otherwise an MD5), or only the key it is assigned to.
	 */
	readonly needs: Needs;
	/** One fresh secret; `variant` cycles through the provider's sub-formats. */
	readonly generate: (random: Random, variant: number) => string;
	/** The text that carries the secret into a context, when the secret is part of a larger value (a URL). */
	readonly carrier?: (secret: string) => string;
}

// Passphrase words (diceware style).
const WORDS = ["correct", "horse", "battery", "staple", "orbit", "lantern", "velvet", "cactus", "harbor", "pepper"];

const hex = (random: Random, length: number): string => random.chars(HEX, length);
const upperHex = (random: Random, length: number): string => random.chars("0123456789ABCDEF", length);
const b64url = (random: Random, length: number): string => token(random, BASE64URL, length);
const alnum = (random: Random, length: number): string => token(random, ALNUM, length);

const jwtSegment = (json: string): string => Buffer.from(json).toString("base64url");

/** Formats our redactor knew before issue 12, then the ones the issue lists as missing. */
export const PROVIDERS: readonly Provider[] = [
	{
		id: "aws-access-key-id",
		needs: "nothing",
		label: "AWS access key id",
		envKey: "AWS_ACCESS_KEY_ID",
		generate: (r, v) => `${["AKIA", "ASIA"][v % 2]}${r.chars(BASE32, 16)}`,
	},
	{
		id: "aws-secret-access-key",
		needs: "label",
		label: "AWS secret access key",
		envKey: "AWS_SECRET_ACCESS_KEY",
		generate: (r) => token(r, BASE64, 40),
	},
	{
		id: "gcp-api-key",
		needs: "nothing",
		label: "Google API key",
		envKey: "GOOGLE_API_KEY",
		generate: (r) => `AIza${b64url(r, 35)}`,
	},
	{
		id: "google-oauth",
		needs: "nothing",
		label: "Google OAuth secret",
		envKey: "GOOGLE_CLIENT_SECRET",
		generate: (r, v) => (v % 2 === 0 ? `GOCSPX-${b64url(r, 28)}` : `ya29.${b64url(r, 60)}`),
	},
	{
		id: "github",
		needs: "nothing",
		label: "GitHub token",
		envKey: "GITHUB_TOKEN",
		generate: (r, v) =>
			v % 2 === 0
				? `${r.pick(["ghp", "gho", "ghu", "ghs", "ghr"])}_${alnum(r, 36)}`
				: `github_pat_${alnum(r, 22)}_${alnum(r, 59)}`,
	},
	{
		id: "gitlab",
		needs: "nothing",
		label: "GitLab token",
		envKey: "GITLAB_TOKEN",
		generate: (r) => `glpat-${b64url(r, 20)}`,
	},
	{
		id: "slack",
		needs: "nothing",
		label: "Slack token",
		envKey: "SLACK_BOT_TOKEN",
		generate: (r, v) => `${["xoxb", "xoxp"][v % 2]}-${r.chars(DIGITS, 12)}-${r.chars(DIGITS, 13)}-${alnum(r, 24)}`,
	},
	{
		id: "stripe",
		needs: "nothing",
		label: "Stripe key",
		envKey: "STRIPE_SECRET_KEY",
		generate: (r, v) => `${["sk_live", "rk_live", "sk_test"][v % 3]}_${alnum(r, 99)}`,
	},
	{
		id: "anthropic",
		needs: "nothing",
		label: "Anthropic API key",
		envKey: "ANTHROPIC_API_KEY",
		generate: (r) => `sk-ant-api03-${b64url(r, 93)}AA`,
	},
	{
		id: "openai",
		needs: "nothing",
		label: "OpenAI API key",
		envKey: "OPENAI_API_KEY",
		generate: (r, v) =>
			v % 2 === 0 ? `sk-proj-${b64url(r, 74)}T3BlbkFJ${b64url(r, 74)}` : `sk-${alnum(r, 20)}T3BlbkFJ${alnum(r, 20)}`,
	},
	{ id: "npm", needs: "nothing", label: "npm token", envKey: "NPM_TOKEN", generate: (r) => `npm_${alnum(r, 36)}` },
	{
		id: "jwt",
		needs: "nothing",
		label: "session JWT",
		envKey: "SESSION_JWT",
		generate: (r) =>
			`${jwtSegment('{"alg":"HS256","typ":"JWT"}')}.${jwtSegment(`{"sub":"${r.chars(DIGITS, 10)}","iat":${r.int(1e9, 2e9)}}`)}.${b64url(r, 43)}`,
	},
	{
		id: "huggingface",
		needs: "nothing",
		label: "Hugging Face token",
		envKey: "HF_TOKEN",
		generate: (r, v) => `${["hf_", "api_org_"][v % 2]}${token(r, UPPER + LOWER, 34)}`,
	},
	{
		id: "sendgrid",
		needs: "nothing",
		label: "SendGrid API key",
		envKey: "SENDGRID_API_KEY",
		generate: (r) => `SG.${b64url(r, 22)}.${b64url(r, 43)}`,
	},
	{
		id: "pypi",
		needs: "nothing",
		label: "PyPI upload token",
		envKey: "TWINE_PASSWORD",
		generate: (r) => `pypi-AgEIcHlwaS5vcmc${b64url(r, r.int(60, 160))}`,
	},
	{
		id: "twilio",
		needs: "nothing",
		label: "Twilio API key",
		envKey: "TWILIO_API_KEY",
		generate: (r) => `SK${hex(r, 32)}`,
	},
	{
		id: "datadog",
		needs: "label",
		label: "Datadog API key",
		envKey: "DD_API_KEY",
		generate: (r, v) => hex(r, v % 2 === 0 ? 32 : 40),
	},
	{
		id: "digitalocean",
		needs: "nothing",
		label: "DigitalOcean token",
		envKey: "DIGITALOCEAN_TOKEN",
		generate: (r, v) => `${["dop", "doo", "dor"][v % 3]}_v1_${hex(r, 64)}`,
	},
	{
		id: "shopify",
		needs: "nothing",
		label: "Shopify access token",
		envKey: "SHOPIFY_ACCESS_TOKEN",
		generate: (r, v) => `${["shpat", "shpca", "shppa", "shpss"][v % 4]}_${hex(r, 32)}`,
	},
	{
		id: "databricks",
		needs: "nothing",
		label: "Databricks token",
		envKey: "DATABRICKS_TOKEN",
		generate: (r, v) => `dapi${hex(r, 32)}${v % 2 === 0 ? "" : `-${r.int(1, 9)}`}`,
	},
	{
		id: "sentry",
		needs: "nothing",
		label: "Sentry auth token",
		envKey: "SENTRY_AUTH_TOKEN",
		generate: (r, v) =>
			v % 2 === 0
				? `sntryu_${hex(r, 64)}`
				: `sntrys_${Buffer.from(`{"iat":${r.int(1e9, 2e9)},"url":"https://sentry.example.com","region_url":"https://us.sentry.example.com","org":"acme"}`).toString("base64")}_${b64url(r, 43)}`,
	},
	{
		id: "doppler",
		needs: "nothing",
		label: "Doppler token",
		envKey: "DOPPLER_TOKEN",
		generate: (r, v) => `dp.${["pt", "st", "sa", "ct"][v % 4]}.${alnum(r, 43)}`,
	},
	{
		id: "vault",
		needs: "nothing",
		label: "Vault token",
		envKey: "VAULT_TOKEN",
		generate: (r, v) => `${["hvs", "hvb"][v % 2]}.${b64url(r, v % 2 === 0 ? 90 : 138)}`,
	},
	{
		id: "linear",
		needs: "nothing",
		label: "Linear API key",
		envKey: "LINEAR_API_KEY",
		generate: (r) => `lin_api_${alnum(r, 40)}`,
	},
	{
		id: "postman",
		needs: "nothing",
		label: "Postman API key",
		envKey: "POSTMAN_API_KEY",
		generate: (r) => `PMAK-${hex(r, 24)}-${hex(r, 34)}`,
	},
	{
		id: "grafana",
		needs: "nothing",
		label: "Grafana token",
		envKey: "GRAFANA_TOKEN",
		generate: (r, v) =>
			v % 2 === 0
				? `glc_${token(r, ALNUM, 32)}${Buffer.from(`{"o":"${r.chars(DIGITS, 6)}","n":"stack-${r.chars(DIGITS, 6)}-hm-read","k":"${alnum(r, 24)}","m":{"r":"prod-eu-west-0"}}`).toString("base64")}`
				: `glsa_${alnum(r, 32)}_${hex(r, 8)}`,
	},
	{
		id: "newrelic",
		needs: "nothing",
		label: "New Relic key",
		envKey: "NEW_RELIC_API_KEY",
		generate: (r, v) =>
			[`NRAK-${r.chars(UPPER + DIGITS, 27)}`, `NRJS-${hex(r, 19)}`, `NRII-${r.chars(LOWER + DIGITS, 32)}`][v % 3]!,
	},
	{
		id: "mailgun",
		needs: "nothing",
		label: "Mailgun API key",
		envKey: "MAILGUN_API_KEY",
		generate: (r, v) => `${["key", "pubkey"][v % 2]}-${hex(r, 32)}`,
	},
	{
		id: "azure-ad",
		needs: "nothing",
		label: "Azure AD client secret",
		envKey: "AZURE_CLIENT_SECRET",
		generate: (r) => `${r.chars(ALNUM, 3)}${r.int(0, 9)}Q~${token(r, `${ALNUM}_~.-`, 34)}`,
	},
];

/** Structured secrets: values whose shape is only known from the frame around them. */
export const STRUCTURED: readonly Provider[] = [
	{
		id: "password-value",
		needs: "assignment",
		label: "database password",
		envKey: "DB_PASSWORD",
		// The characters the issue names ("-", "+", "/", "~"), inside and leading, and a passphrase of words.
		generate: (r, v) => {
			const sep = ["-", "+", "/", "~"][v % 4]!;
			switch (v % 8) {
				case 4:
					return Array.from({ length: 4 }, () => r.pick(WORDS)).join("-");
				case 5:
					return `/${alnum(r, 10)}+${alnum(r, 4)}`;
				case 6:
					return `+${alnum(r, 12)}`;
				case 7:
					return `~${alnum(r, 8)}/${r.chars(LOWER, 4)}`;
				default:
					return `${r.chars(LOWER, 5)}${sep}${r.chars(ALNUM, 6)}${sep}${r.chars(DIGITS, 3)}`;
			}
		},
	},
	{
		id: "generic-api-token",
		needs: "assignment",
		label: "service token",
		envKey: "SERVICE_API_TOKEN",
		generate: (r, v) =>
			v % 2 === 0 ? `${alnum(r, 24)}/${alnum(r, 8)}+${alnum(r, 6)}` : `tk-${hex(r, 12)}-${hex(r, 12)}`,
	},
	{
		id: "azure-storage-key",
		needs: "nothing",
		label: "Azure storage key",
		envKey: "AZURE_STORAGE_KEY",
		generate: (r) => `${token(r, BASE64, 86)}==`,
		carrier: (key) =>
			`DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${key};EndpointSuffix=core.windows.net`,
	},
	{
		id: "slack-webhook",
		needs: "nothing",
		label: "Slack webhook",
		envKey: "SLACK_WEBHOOK_URL",
		generate: (r) => `T${r.chars(UPPER + DIGITS, 8)}/B${r.chars(UPPER + DIGITS, 8)}/${alnum(r, 24)}`,
		carrier: (path) => `https://hooks.slack.com/services/${path}`,
	},
	{
		id: "url-password",
		needs: "nothing",
		label: "database URL",
		envKey: "DATABASE_URL",
		generate: (r) => `${alnum(r, 12)}${r.pick(["!", "-", "_", "~", "%21"])}${r.chars(DIGITS, 2)}`,
		carrier: (password) => `postgres://app:${password}@db.internal:5432/app`,
	},
	{
		id: "private-key",
		needs: "nothing",
		label: "private key",
		envKey: "SSH_PRIVATE_KEY",
		generate: (r) => [0, 1, 2, 3].map(() => token(r, BASE64, 64)).join("\n"),
		carrier: (body) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----`,
	},
	{
		id: "upper-hex-secret",
		needs: "assignment",
		label: "signing secret",
		envKey: "WEBHOOK_SIGNING_SECRET",
		generate: (r) => upperHex(r, 48),
	},
];
