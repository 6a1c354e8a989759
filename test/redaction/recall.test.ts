import { describe, expect, it } from "vitest";
import { createRedactor } from "../../source/redaction/redact.js";
import { buildRecallCorpus, CONTEXTS, leaks, PROVIDERS, STRUCTURED } from "./recall-corpus/index.js";

const corpus = buildRecallCorpus();
const redactor = createRedactor({ env: false });

const missed = corpus.positives.filter((p) => leaks(p.secret, redactor.redact(p.text).text));
const flagged = (texts: readonly { text: string }[]) =>
	texts.filter((n) => redactor.redact(n.text).findings.length > 0);
const show = (items: readonly { text: string }[]): string =>
	items
		.slice(0, 8)
		.map((i) => JSON.stringify(i.text).slice(0, 160))
		.join("\n");

describe("recall corpus (issue 12)", () => {
	it("is big enough to measure: ≥ 900 secrets, ≥ 500 non-secrets, every provider in ≥ 16 contexts where it fits", () => {
		expect(corpus.positives.length).toBeGreaterThanOrEqual(900);
		expect(corpus.lookalikes.length + corpus.nearMisses.length).toBeGreaterThanOrEqual(500);
		expect(CONTEXTS.length).toBeGreaterThanOrEqual(16);
		for (const provider of PROVIDERS.filter((p) => p.needs === "nothing")) {
			const contexts = new Set(corpus.positives.filter((p) => p.provider === provider.id).map((p) => p.context));
			expect(contexts.size, provider.id).toBe(CONTEXTS.length);
		}
		expect(new Set(corpus.positives.map((p) => p.provider)).size).toBe(PROVIDERS.length + STRUCTURED.length);
	});

	it("is the same for the same seed and holds no duplicate secret", () => {
		expect(buildRecallCorpus().positives).toEqual(corpus.positives);
		expect(new Set(corpus.positives.map((p) => p.secret)).size).toBe(corpus.positives.length);
	});

	it("redacts ≥ 97 % of the secrets", () => {
		const recall = 1 - missed.length / corpus.positives.length;
		expect(recall, `missed ${missed.length}:\n${show(missed)}`).toBeGreaterThanOrEqual(0.97);
	});

	it("finds every provider's format in most contexts (≥ 90 % each)", () => {
		for (const provider of [...PROVIDERS, ...STRUCTURED]) {
			const all = corpus.positives.filter((p) => p.provider === provider.id);
			const lost = missed.filter((p) => p.provider === provider.id);
			expect(1 - lost.length / all.length, `${provider.id} missed:\n${show(lost)}`).toBeGreaterThanOrEqual(0.9);
		}
	});

	it("leaves ≥ 98 % of ordinary look-alikes alone", () => {
		const wrong = flagged(corpus.lookalikes);
		expect(wrong.length / corpus.lookalikes.length, show(wrong)).toBeLessThanOrEqual(0.02);
	});

	it("leaves ≥ 95 % of near-misses (right prefix, wrong length or alphabet) alone", () => {
		const wrong = flagged(corpus.nearMisses);
		expect(wrong.length / corpus.nearMisses.length, show(wrong)).toBeLessThanOrEqual(0.05);
	});

	it("counts a secret as leaked when any 12-character run of it survives", () => {
		const secret = "abcdefghijklmnopqrstuvwxyz";
		expect(leaks(secret, "x [REDACTED:k] y")).toBe(false);
		expect(leaks(secret, "[REDACTED:k]pqrstuvwxyz")).toBe(false);
		expect(leaks(secret, "[REDACTED:k]nopqrstuvwxyz")).toBe(true);
		expect(leaks("short", "a short one")).toBe(true);
	});
});
