import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRedactor, redactText } from "../../source/redaction/redact.js";
import { secretEnvValues } from "../../source/redaction/redactor.js";

const NAMES = ["XCSH_TEST_SERVICE_TOKEN", "XCSH_TEST_DB_PASSWD", "XCSH_TEST_SHORT_SECRET", "XCSH_TEST_PLAIN_VALUE"];

describe("environment variable values", () => {
	const saved = new Map<string, string | undefined>();
	beforeEach(() => {
		for (const name of NAMES) saved.set(name, process.env[name]);
		process.env.XCSH_TEST_SERVICE_TOKEN = "svc-FAKE-4f1c9b2e7d";
		process.env.XCSH_TEST_DB_PASSWD = "Tr0ub4dor&3-FAKE";
		process.env.XCSH_TEST_SHORT_SECRET = "abc123";
		process.env.XCSH_TEST_PLAIN_VALUE = "not-secret-but-long";
	});
	afterEach(() => {
		for (const [name, value] of saved) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	});

	it("redacts values of secret-looking variables of this process wherever they appear", () => {
		const text = "log: connected with svc-FAKE-4f1c9b2e7d as admin/Tr0ub4dor&3-FAKE (retry svc-FAKE-4f1c9b2e7d)";
		const { text: out, findings } = redactText(text);
		expect(out).toBe(
			"log: connected with [REDACTED:env-value] as admin/[REDACTED:env-value] (retry [REDACTED:env-value])",
		);
		expect(findings.map((f) => f.preview)).toEqual(["svc-…", "Tr0u…", "svc-…"]);
	});

	it("ignores short values and variables whose names do not look secret", () => {
		const text = "abc123 and not-secret-but-long";
		expect(redactText(text).text).toBe(text);
	});

	it("reads the env when the redactor is created, and can be given one or none", () => {
		const text = "token is svc-FAKE-4f1c9b2e7d";
		expect(redactText(text, { env: false }).text).toBe(text);
		expect(redactText("key qqq-FAKE-999888777", { env: { MY_API_KEY: "qqq-FAKE-999888777" } }).text).toBe(
			"key [REDACTED:env-value]",
		);
		const redactor = createRedactor();
		process.env.XCSH_TEST_SERVICE_TOKEN = "changed-FAKE-123456";
		expect(redactor.redact(text).text).toBe("token is [REDACTED:env-value]");
	});

	it("skips paths, placeholders and numbers even under secret-looking names", () => {
		expect(
			secretEnvValues({
				SSH_AUTH_SOCK: "/tmp/ssh-XXXX/agent.123",
				API_TOKEN: "$API_TOKEN",
				API_SECRET: "<your-secret-here>",
				TOKEN_TTL: "86400000",
				XAUTHORITY: "something-long-enough",
				GH_TOKEN: "ghp_FAKEvalue-ok-1234",
			}),
		).toEqual(["ghp_FAKEvalue-ok-1234"]);
	});
});
