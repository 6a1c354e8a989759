/**
 * Words as the index's tokenizer (unicode61, remove_diacritics 2) sees them: runs of letters and
 * digits, case- and accent-folded. Search terms and snippets use the same rule so they agree.
 */
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

/** Lower-case, accent-free form of a token. */
function foldToken(token: string): string {
	return token
		.normalize("NFD")
		.replace(/\p{M}+/gu, "")
		.toLowerCase();
}

/** One token of a text with its position. */
export interface TextToken {
	start: number;
	end: number;
	folded: string;
}

/** The tokens of `text` in order. */
export function tokenize(text: string): TextToken[] {
	const tokens: TextToken[] = [];
	for (const match of text.matchAll(TOKEN)) {
		tokens.push({ start: match.index, end: match.index + match[0].length, folded: foldToken(match[0]) });
	}
	return tokens;
}

/** The distinct folded terms of a query, in order. */
export function queryTerms(query: string): string[] {
	return [...new Set(tokenize(query).map((token) => token.folded))];
}

/**
 * An FTS5 MATCH expression requiring every term: whole words, the last one also as a prefix (it
 * is the one still being typed). FTS5 must merge a prefix's whole match list before it can stop
 * at the newest rows, so prefixes on every word made three-word searches twice as slow. Each term
 * is a single token: the expression needs no positions (the index keeps none) and cannot be a
 * syntax error.
 */
export function toMatchExpression(terms: readonly string[]): string | undefined {
	if (terms.length === 0) return undefined;
	return terms.map((term, i) => (i === terms.length - 1 ? `"${term}"*` : `"${term}"`)).join(" AND ");
}
