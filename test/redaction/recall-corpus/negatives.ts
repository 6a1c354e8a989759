import { ALNUM, BASE64, DIGITS, HEX, LOWER, type Random, token, UPPER } from "./random.js";

/** A group of generated non-secrets: each sample is a text that must come out unchanged. */
export interface NegativeGroup {
	readonly id: string;
	readonly samples: (random: Random) => readonly string[];
}

const hex = (r: Random, n: number): string => r.chars(HEX, n);
const uuid = (r: Random): string => `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`;
const word = (r: Random): string =>
	r.pick(["cache", "build", "user", "store", "index", "tree", "shard", "queue", "view"]);

/** Ordinary text that looks like a credential to a careless pattern: hashes, ids, blobs, paths, names. */
export const LOOKALIKES: readonly NegativeGroup[] = [
	{
		id: "git-sha",
		samples: (r) => {
			const sha = hex(r, 40);
			return [
				`commit ${sha}\nAuthor: Jane Doe <jane@example.com>`,
				`git checkout ${sha} -- src/index.ts`,
				`{"sha": "${sha}", "ref": "refs/heads/main"}`,
				`COMMIT_SHA=${sha}`,
				`${hex(r, 7)} Fix the ${word(r)} flush (#${r.int(100, 9999)})`,
			];
		},
	},
	{
		id: "sha256",
		samples: (r) => {
			const sum = hex(r, 64);
			return [
				`${sum}  dist/xcsh-${r.int(1, 9)}.tgz`,
				`"checksum": "sha256:${sum}"`,
				`FROM node:20@sha256:${sum}`,
				`SHA256 (release.tar.gz) = ${sum}`,
			];
		},
	},
	{
		id: "md5",
		samples: (r) => {
			const sum = hex(r, 32);
			return [`"etag": "\\"${sum}\\""`, `MD5 (logo.png) = ${sum}`, `cache key ${sum} hit`, `"md5": "${sum}"`];
		},
	},
	{
		id: "uuid",
		samples: (r) => [
			`{"requestId": "${uuid(r)}", "status": 200}`,
			`session ${uuid(r)} resumed`,
			`X-Request-Id: ${uuid(r)}`,
			`TRACE_ID=${uuid(r).replaceAll("-", "")}`,
		],
	},
	{
		id: "base64-image",
		samples: (r) => [
			`![plot](data:image/png;base64,iVBORw0KGgo${token(r, BASE64, r.int(200, 600))}=)`,
			`{"type":"image","mimeType":"image/jpeg","url":"data:image/jpeg;base64,/9j/${token(r, BASE64, 300)}"}`,
		],
	},
	{
		id: "npm-integrity",
		samples: (r) => [
			`"integrity": "sha512-${token(r, BASE64, 86)}=="`,
			`"integrity": "sha1-${token(r, BASE64, 27)}="`,
			`integrity sha384-${token(r, BASE64, 64)}`,
		],
	},
	{
		id: "base64-content",
		samples: (r) => {
			const text = Array.from({ length: 12 }, () => word(r)).join(" ");
			return [
				`{"encoding": "base64", "content": "${Buffer.from(`${text} ${text}`).toString("base64")}"}`,
				`echo ${Buffer.from(text).toString("base64")} | base64 -d`,
			];
		},
	},
	{
		id: "file-path",
		samples: (r) => [
			`/home/dev/projects/${word(r)}-${word(r)}/node_modules/.pnpm/${word(r)}@${r.int(1, 9)}.${r.int(0, 20)}.0/index.js`,
			`C:\\Users\\dev\\AppData\\Local\\${word(r)}\\${hex(r, 16)}\\config.json`,
			`src/${word(r)}/${word(r)}-${hex(r, 8)}.test.ts:${r.int(1, 400)}:${r.int(1, 80)}`,
			`TOKEN_FILE=/run/secrets/${word(r)}_token`,
		],
	},
	{
		id: "identifier",
		samples: (r) => [
			`const accessTokenRefreshIntervalMs = ${r.int(1000, 90000)};`,
			`import { hf_hub_download } from "./hub"; // downloads to ~/.cache/${word(r)}`,
			`SHOPIFY_API_VERSION=2024-${r.int(10, 12)}`,
			`def get_sendgrid_client_for_${word(r)}_${word(r)}(settings):`,
			`class DatadogMetricsExporter${r.int(1, 9)} extends BaseExporter {}`,
			`password_reset_token_expiry_minutes: ${r.int(5, 60)}`,
			`vault.hashicorp.${word(r)}.enabled = true`,
		],
	},
	{
		id: "ids-and-numbers",
		samples: (r) => [
			`{"id": "01${r.chars(`${UPPER.replace(/[ILOU]/g, "")}${DIGITS}`, 24)}", "kind": "order"}`,
			`order_id=${r.chars(DIGITS, 18)}`,
			`mac ${hex(r, 2)}:${hex(r, 2)}:${hex(r, 2)}:${hex(r, 2)}:${hex(r, 2)}:${hex(r, 2)} ip fe80::${hex(r, 4)}:${hex(r, 4)}`,
			`"version": "${r.int(1, 20)}.${r.int(0, 40)}.${r.int(0, 99)}-beta.${r.int(1, 9)}+build.${hex(r, 7)}"`,
			`color: #${hex(r, 6)}; background: #${hex(r, 3)};`,
			`Stripe.js takes pk_live_${token(r, ALNUM, 24)}`,
		],
	},
	{
		id: "secret-references",
		samples: (r) => [
			`const key = process.env.${r.pick(["SENDGRID_API_KEY", "HF_TOKEN", "DD_API_KEY", "VAULT_TOKEN"])};`,
			`token = os.environ["${r.pick(["PYPI_TOKEN", "LINEAR_API_KEY", "DOPPLER_TOKEN"])}"]`,
			`valueFrom:\n  secretKeyRef:\n    name: ${word(r)}-secrets\n    key: api-token`,
			`password: \${{ secrets.${r.pick(["DB_PASSWORD", "NPM_TOKEN"])} }}`,
			`docker run -e DD_API_KEY -e GRAFANA_TOKEN ${word(r)}:latest`,
		],
	},
	{
		id: "documentation-placeholder",
		samples: (r) => [
			"aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
			"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			`DATABASE_URL=postgres://user:password@localhost:5432/${word(r)}`,
			`mongodb://user:pass@localhost:27017/${word(r)}`,
			'OPENAI_API_KEY="sk-..."',
			"export OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxx",
			"GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
			"HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
			"SENDGRID_API_KEY=SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
			`curl -H "Authorization: Bearer <YOUR_TOKEN>" https://api.example.com/${word(r)}`,
			`api_key: YOUR_API_KEY`,
			`Set LINEAR_API_KEY to your key (it starts with lin_api_).`,
		],
	},
	{
		id: "prose",
		samples: (r) => [
			`The ${word(r)} token expires after an hour; refresh it with the refresh token.`,
			"Tokens from Hugging Face start with hf_, SendGrid keys with SG. and PyPI tokens with pypi-.",
			`Rotate the Datadog API key when someone leaves; the ${word(r)} job reads it at start.`,
			"Vault tokens (hvs.) and Doppler tokens (dp.pt.) are short-lived in our setup.",
		],
	},
];

/** Right prefix, wrong length or alphabet: what a scanner's precision is measured against. */
export const NEAR_MISSES: readonly NegativeGroup[] = [
	{
		id: "short-bodies",
		samples: (r) => [
			`AKIA${r.chars(UPPER, 12)}`,
			`ghp_${token(r, ALNUM, 20)}`,
			`hf_${r.chars(LOWER, 12)}`,
			`SG.${token(r, ALNUM, 10)}.${token(r, ALNUM, 10)}`,
			`pypi-${r.chars(LOWER, 8)}`,
			`SK${hex(r, 20)}`,
			`dop_v1_${hex(r, 40)}`,
			`shpat_${hex(r, 20)}`,
			`dapi${hex(r, 20)}`,
			`sntryu_${hex(r, 32)}`,
			`dp.pt.${token(r, ALNUM, 10)}`,
			`hvs.${token(r, ALNUM, 12)}`,
			`lin_api_${token(r, ALNUM, 12)}`,
			`PMAK-${hex(r, 24)}`,
			`glc_${token(r, ALNUM, 8)}`,
			`NRAK-${r.chars(UPPER, 10)}`,
			`key-${hex(r, 20)}`,
			`npm_${token(r, ALNUM, 20)}`,
			`glpat-${token(r, ALNUM, 8)}`,
			`AIza${token(r, ALNUM, 20)}`,
			`sk_live_${token(r, ALNUM, 5)}`,
		],
	},
	{
		id: "wrong-alphabet",
		samples: (r) => [
			`SK${r.chars("ghijklmnopqrstuvwxyz", 32)}`,
			`dop_v1_${r.chars("ghijklmnopqrstuvwxyz", 64)}`,
			`shpat_${r.chars("ghijklmnopqrstuvwxyz", 32)}`,
			`dapi${r.chars("ghijklmnopqrstuvwxyz", 32)}`,
			`sntryu_${r.chars("ghijklmnopqrstuvwxyz", 64)}`,
			`PMAK-${r.chars("ghijklmnopqrstuvwxyz", 24)}-${r.chars("ghijklmnopqrstuvwxyz", 34)}`,
			`NRAK-${r.chars(LOWER, 27)}`,
			`key-${r.chars("ghijklmnopqrstuvwxyz", 32)}`,
		],
	},
	{
		id: "words-after-prefix",
		samples: (r) => [
			`xoxb-${word(r)}-${word(r)}-${word(r)}`,
			`sk-${word(r)}-${word(r)}-${word(r)}-${word(r)}-${word(r)}`,
			`hf_${word(r)}_${word(r)}_${word(r)}_${word(r)}_${word(r)}`,
			`dp.pt.${word(r)}`,
			`key-${word(r)}-${word(r)}-handler`,
		],
	},
];
