import { describe, expect, it } from "vitest";
import { redactText } from "../../source/redaction/redact.js";
import { PROVIDERS } from "./recall-corpus/providers.js";
import { seeded } from "./recall-corpus/random.js";

const redact = (text: string): string => redactText(text, { env: false }).text;

function provider(id: string) {
	const found = PROVIDERS.find((p) => p.id === id);
	if (!found) throw new Error(`no provider ${id}`);
	return found;
}

// Provider id in the corpus → the kind its detector reports; every sub-format (variant) is tried.
const NEW_FORMATS: readonly (readonly [string, string, number])[] = [
	["huggingface", "huggingface-token", 2],
	["sendgrid", "sendgrid-api-key", 1],
	["pypi", "pypi-token", 1],
	["twilio", "twilio-api-key", 1],
	["digitalocean", "digitalocean-token", 3],
	["shopify", "shopify-token", 4],
	["databricks", "databricks-token", 2],
	["sentry", "sentry-token", 2],
	["doppler", "doppler-token", 4],
	["vault", "vault-token", 2],
	["linear", "linear-api-key", 1],
	["postman", "postman-api-key", 1],
	["grafana", "grafana-token", 2],
	["newrelic", "newrelic-key", 3],
	["mailgun", "mailgun-api-key", 2],
	["azure-ad", "azure-ad-client-secret", 1],
];

describe("vendor token formats added for issue 12", () => {
	it.each(NEW_FORMATS)("%s tokens are redacted as %s, bare in prose and in code", (id, kind, variants) => {
		const random = seeded(99);
		for (let variant = 0; variant < variants; variant++) {
			const secret = provider(id).generate(random, variant);
			expect(redact(`use ${secret} here`)).toBe(`use [REDACTED:${kind}] here`);
			expect(redact(`new Client("${secret}");`)).toBe(`new Client("[REDACTED:${kind}]");`);
		}
	});

	it("Datadog keys (32 or 40 hex digits) are redacted next to their name, and a bare MD5 or SHA-1 is not", () => {
		const random = seeded(7);
		const key = provider("datadog").generate(random, 0);
		const appKey = provider("datadog").generate(random, 1);
		expect(redact(`DD_API_KEY=${key}`)).toBe("DD_API_KEY=[REDACTED:datadog-api-key]");
		expect(redact(`the Datadog app key is ${appKey}.`)).toBe("the Datadog app key is [REDACTED:datadog-api-key].");
		expect(redact(`-H "DD-APPLICATION-KEY: ${appKey}"`)).toBe('-H "DD-APPLICATION-KEY: [REDACTED:datadog-api-key]"');
		expect(redact(`md5 ${key} and commit ${appKey}`)).toBe(`md5 ${key} and commit ${appKey}`);
	});

	it("an AWS secret key is redacted next to an access key id or the word AWS, not only in an aws_secret_access_key assignment", () => {
		const random = seeded(3);
		const id = provider("aws-access-key-id").generate(random, 0);
		const secret = provider("aws-secret-access-key").generate(random, 0);
		expect(redact(`${id},${secret}`)).toBe("[REDACTED:aws-access-key-id],[REDACTED:aws-secret-access-key]");
		expect(redact(`AWS Secret Access Key [None]: ${secret}`)).toBe(
			"AWS Secret Access Key [None]: [REDACTED:aws-secret-access-key]",
		);
		expect(redact(`{"service": "aws", "value": "${secret}"}`)).toBe(
			'{"service": "aws", "value": "[REDACTED:aws-secret-access-key]"}',
		);
		// Forty base64 characters with nothing about AWS around them: a hash or an id, left alone.
		expect(redact(`checksum ${secret}`)).toBe(`checksum ${secret}`);
	});

	it("near-misses of the new formats stay: wrong length, wrong alphabet, words", () => {
		for (const text of [
			"hf_hub_download_with_cache_dir_and_revision",
			"SG.Widget.render",
			"dapi12345",
			"shpat_not_a_token",
			`SK${"z".repeat(32)}`,
			"key-value-store-handler",
			"NRAK-short",
			"PMAK-0123456789abcdef01234567",
			"lin_api_docs",
			"dp.pt.example",
			"hvs.short",
			"glc_tiny",
		]) {
			expect(redact(text), text).toBe(text);
		}
	});
});
