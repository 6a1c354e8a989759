import { type TextToken, tokenize } from "./fts-terms.js";

/** Tokens shown around a hit: about one terminal line. */
const SNIPPET_TOKENS = 16;
// How far before the first match a window starts, so the match has some lead-in.
const LEAD_TOKENS = 4;

function matchedTerm(token: TextToken, terms: readonly string[]): number {
	return terms.findIndex((term) => token.folded.startsWith(term));
}

function bestWindow(tokens: readonly TextToken[], terms: readonly string[]): number {
	let best = 0;
	let bestScore = -1;
	for (let i = 0; i < tokens.length; i++) {
		if (matchedTerm(tokens[i]!, terms) < 0) continue;
		const start = Math.max(0, i - LEAD_TOKENS);
		const seen = new Set<number>();
		for (let j = start; j < Math.min(tokens.length, start + SNIPPET_TOKENS); j++) {
			const term = matchedTerm(tokens[j]!, terms);
			if (term >= 0) seen.add(term);
		}
		if (seen.size > bestScore) {
			best = start;
			bestScore = seen.size;
			if (seen.size === terms.length) break;
		}
	}
	return best;
}

/**
 * The part of `text` around the best cluster of matches, matched words wrapped in `[` `]`, with
 * `…` where text was cut; on one line.
 */
export function buildSnippet(text: string, terms: readonly string[]): string {
	const tokens = tokenize(text);
	if (tokens.length === 0) return text.replace(/\s+/g, " ").trim().slice(0, 120);
	const first = bestWindow(tokens, terms);
	const last = Math.min(tokens.length, first + SNIPPET_TOKENS) - 1;
	let out = first > 0 ? "…" : "";
	let at = first > 0 ? tokens[first]!.start : 0;
	for (let i = first; i <= last; i++) {
		const token = tokens[i]!;
		out += text.slice(at, token.start);
		const word = text.slice(token.start, token.end);
		out += matchedTerm(token, terms) >= 0 ? `[${word}]` : word;
		at = token.end;
	}
	out += last < tokens.length - 1 ? "…" : text.slice(at);
	return out.replace(/\s+/g, " ").trim();
}
