/** A seeded source of token-shaped strings: the same seed always gives the same corpus. */
export interface Random {
	/** A float in [0, 1). */
	next(): number;
	/** An integer in [min, max]. */
	int(min: number, max: number): number;
	/** `length` characters drawn from `alphabet`. */
	chars(alphabet: string, length: number): string;
	/** One item of a non-empty list. */
	pick<T>(items: readonly T[]): T;
}

export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const DIGITS = "0123456789";
export const HEX = "0123456789abcdef";
export const ALNUM = UPPER + LOWER + DIGITS;
export const BASE64 = `${ALNUM}+/`;
export const BASE64URL = `${ALNUM}_-`;
export const BASE32 = `${UPPER}234567`;

/** mulberry32: small, fast and good enough to spread characters; not for cryptography. */
export function seeded(seed: number): Random {
	let state = seed >>> 0;
	const next = (): number => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
	return {
		next,
		int,
		chars(alphabet, length) {
			let out = "";
			for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
			return out;
		},
		pick(items) {
			return items[Math.floor(next() * items.length)]!;
		},
	};
}

/**
 * A random token body that reads as generated: it holds a digit, a lower- and an upper-case letter
 * whenever the alphabet has them (real vendor tokens nearly always do at these lengths).
 */
export function token(random: Random, alphabet: string, length: number): string {
	for (;;) {
		const body = random.chars(alphabet, length);
		const needs = [DIGITS, LOWER, UPPER].filter((set) => [...set].some((c) => alphabet.includes(c)));
		if (length < 8 || needs.every((set) => [...body].some((c) => set.includes(c)))) return body;
	}
}
