/** Case-insensitive literal without the `i` flag, which would loosen every other detector in the joined regex. */
export function ci(word: string): string {
	let out = "";
	for (const ch of word) {
		const lower = ch.toLowerCase();
		const upper = ch.toUpperCase();
		out += lower === upper ? escapeRegex(ch) : `[${upper}${lower}]`;
	}
	return out;
}

/** Escapes a literal for use inside a regex source. */
export function escapeRegex(literal: string): string {
	return literal.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
