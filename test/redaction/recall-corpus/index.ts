import { CONTEXTS, fits } from "./contexts.js";
import { LOOKALIKES, NEAR_MISSES, type NegativeGroup } from "./negatives.js";
import { PROVIDERS, STRUCTURED } from "./providers.js";
import { seeded } from "./random.js";

export { CONTEXTS } from "./contexts.js";
export { PROVIDERS, STRUCTURED } from "./providers.js";

/** A generated secret in a context: no part of `secret` may survive redaction of `text`. */
export interface Positive {
	readonly provider: string;
	readonly context: string;
	readonly secret: string;
	readonly text: string;
}

/** A generated non-secret: `text` must come out unchanged. */
export interface Negative {
	readonly group: string;
	readonly kind: "lookalike" | "near-miss";
	readonly text: string;
}

/** The recall corpus: positives, ordinary look-alikes and near-misses, always the same for one seed. */
export interface RecallCorpus {
	readonly positives: readonly Positive[];
	readonly lookalikes: readonly Negative[];
	readonly nearMisses: readonly Negative[];
}

/** Samples of each provider in each context that fits it. */
const PER_CONTEXT = 2;
/** Rounds of each negative group. */
const LOOKALIKE_ROUNDS = 9;
const NEAR_MISS_ROUNDS = 8;

function negatives(groups: readonly NegativeGroup[], kind: Negative["kind"], rounds: number, seed: number): Negative[] {
	const random = seeded(seed);
	const out: Negative[] = [];
	for (let round = 0; round < rounds; round++) {
		for (const group of groups) {
			for (const text of group.samples(random)) out.push({ group: group.id, kind, text });
		}
	}
	// Fixed texts (documentation placeholders, prose) repeat every round; count each once.
	return out.filter((n, i) => out.findIndex((m) => m.text === n.text) === i);
}

/** Builds the corpus; the default seed is the one the README figures were measured with. */
export function buildRecallCorpus(seed = 12): RecallCorpus {
	const random = seeded(seed);
	const positives: Positive[] = [];
	for (const provider of [...PROVIDERS, ...STRUCTURED]) {
		let variant = 0;
		for (const context of CONTEXTS) {
			if (!fits(context, provider.needs)) continue;
			// Providers recognisable only in some contexts get more samples there, so each weighs about the same.
			const samples = provider.needs === "nothing" ? PER_CONTEXT : PER_CONTEXT * 2;
			for (let i = 0; i < samples; i++) {
				const secret = provider.generate(random, variant++);
				const value = provider.carrier ? provider.carrier(secret) : secret;
				const text = context.render(value, provider.label, provider.envKey);
				positives.push({ provider: provider.id, context: context.id, secret, text });
			}
		}
	}
	return {
		positives,
		lookalikes: negatives(LOOKALIKES, "lookalike", LOOKALIKE_ROUNDS, seed + 1),
		nearMisses: negatives(NEAR_MISSES, "near-miss", NEAR_MISS_ROUNDS, seed + 2),
	};
}

/** The longest run of `secret` that a leak check looks for (shorter secrets must vanish whole). */
const WINDOW = 12;

/** True when `output` still holds the secret or a 12-character run of it. */
export function leaks(secret: string, output: string): boolean {
	if (secret.length <= WINDOW) return output.includes(secret);
	for (let i = 0; i + WINDOW <= secret.length; i++) {
		if (output.includes(secret.slice(i, i + WINDOW))) return true;
	}
	return false;
}
