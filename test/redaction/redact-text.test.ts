import { describe, expect, it } from "vitest";
import { builtinDetectors } from "../../source/redaction/detectors.js";
import { createRedactor, redactText } from "../../source/redaction/redact.js";
import { previewSecret } from "../../source/redaction/redactor.js";
import { lookalikes, planted, plantedEnv } from "./corpus.js";

const BUILTIN_KINDS = [...new Set(builtinDetectors().map((d) => d.kind))].filter((k) => k !== "skip");

describe("planted secrets", () => {
	const redactor = createRedactor({ env: plantedEnv });

	it("covers every built-in detector", () => {
		const kinds = new Set(planted.map((p) => p.kind));
		for (const kind of [...BUILTIN_KINDS, "env-value"]) expect(kinds, kind).toContain(kind);
	});

	it.each(planted.map((p, i) => [`${i} ${p.kind}`, p] as const))("redacts %s", (_, p) => {
		const { text, findings } = redactor.redact(p.text);
		expect(text).not.toContain(p.secret);
		expect(text).toContain(`[REDACTED:${p.kind}]`);
		expect(findings.map((f) => f.kind)).toContain(p.kind);
		for (const finding of findings) {
			const secret = p.text.slice(finding.start, finding.end);
			expect(finding.preview.endsWith("…")).toBe(true);
			expect(finding.preview.length - 1).toBeLessThanOrEqual(4);
			expect(finding.preview.length - 1).toBeLessThan(secret.length);
			expect(secret.startsWith(finding.preview.slice(0, -1))).toBe(true);
			expect(finding.preview).not.toContain(p.secret);
		}
	});

	it("takes out every line of a private key body, not just the planted one", () => {
		for (const p of planted.filter((q) => q.kind === "private-key" || q.kind === "gcp-service-account-key")) {
			const body = p.text.split(/\n|\\n/).filter((line) => /^[A-Za-z0-9+/=]{40,}$/.test(line));
			expect(body.length).toBeGreaterThan(1);
			const { text } = redactor.redact(p.text);
			for (const line of body) expect(text).not.toContain(line);
		}
	});

	it("redacts the value only, keeping the key and the URL around it", () => {
		expect(redactText("DB_PASSWORD=s3cretFAKEvalue9", { env: false }).text).toBe(
			"DB_PASSWORD=[REDACTED:secret-assignment]",
		);
		expect(redactText("  api_key: 'FAKEvalue1234'", { env: false }).text).toBe(
			"  api_key: '[REDACTED:secret-assignment]'",
		);
		expect(redactText("postgres://app:FAKEpw9x@db:5432/app", { env: false }).text).toBe(
			"postgres://app:[REDACTED:url-password]@db:5432/app",
		);
	});

	it("is idempotent: redacting redacted text changes nothing", () => {
		for (const p of planted) {
			const once = redactor.redact(p.text).text;
			expect(redactor.redact(once)).toEqual({ text: once, findings: [] });
		}
	});

	it("finds several secrets in one text, in order, with offsets into the input", () => {
		const joined = planted.map((p) => p.text).join("\n\n");
		const { text, findings } = redactor.redact(joined);
		for (const p of planted) expect(text).not.toContain(p.secret);
		for (let i = 1; i < findings.length; i++) expect(findings[i]!.start).toBeGreaterThanOrEqual(findings[i - 1]!.end);
		expect(findings.length).toBeGreaterThanOrEqual(planted.length);
	});
});

describe("look-alikes", () => {
	it.each(lookalikes.map((l) => [l.note, l] as const))("leaves %s alone", (_, l) => {
		expect(redactText(l.text, { env: false })).toEqual({ text: l.text, findings: [] });
	});
});

describe("previewSecret", () => {
	it("never shows a whole secret", () => {
		expect(previewSecret("ghp_FAKEFAKEFAKEFAKE")).toBe("ghp_…");
		expect(previewSecret("abcdefgh")).toBe("ab…");
		expect(previewSecret("abcd")).toBe("a…");
		expect(previewSecret("ab")).toBe("…");
	});
});
