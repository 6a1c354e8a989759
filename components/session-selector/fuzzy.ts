import type { SessionInfo } from "../../source/session/types.js";

const MATCH = 1;
/** Above WORD_START, so a whole word beats the same letters spread over word starts ("d e p l o y"). */
const CONSECUTIVE = 10;
const WORD_START = 8;
/** Per character skipped before and between matched characters, so tight, early matches win ties. */
const GAP = 0.1;
/** The leading gap stops costing here, so a late match in a long message still beats a weak early one. */
const MAX_LEADING_GAP = 3;

function isWordStart(chars: readonly string[], index: number): boolean {
	if (index === 0) return true;
	const prev = chars[index - 1]!;
	const here = chars[index]!;
	if (!/[\p{L}\p{N}]/u.test(prev)) return true;
	// camelCase: "sessionPicker" has a word start at "P"
	return /\p{Ll}/u.test(prev) && /\p{Lu}/u.test(here);
}

/**
 * The best score of `query` as a case-insensitive subsequence of `text`, or undefined when it is
 * not one. Consecutive runs and word starts score higher; gaps cost a little.
 */
export function fuzzyScore(query: string, text: string): number | undefined {
	const q = Array.from(query.toLowerCase());
	if (q.length === 0) return 0;
	const chars = Array.from(text);
	const lower = chars.map((c) => c.toLowerCase());
	const n = chars.length;
	const bonus = chars.map((_, j) => MATCH + (isWordStart(chars, j) ? WORD_START : 0));
	// prev[j]: best score with the previous query char matched at j (-Infinity: impossible).
	let prev: number[] = [];
	for (let j = 0; j < n; j++)
		prev[j] = lower[j] === q[0] ? bonus[j]! - Math.min(MAX_LEADING_GAP, GAP * j) : Number.NEGATIVE_INFINITY;
	for (let i = 1; i < q.length; i++) {
		const next: number[] = new Array<number>(n).fill(Number.NEGATIVE_INFINITY);
		// best of prev[k] + GAP * k over k < j - 1, so a gapped predecessor costs GAP per skipped char
		let gapped = Number.NEGATIVE_INFINITY;
		for (let j = 1; j < n; j++) {
			if (j >= 2) gapped = Math.max(gapped, prev[j - 2]! + GAP * (j - 2));
			if (lower[j] !== q[i]) continue;
			const viaRun = prev[j - 1]! + CONSECUTIVE;
			const viaGap = gapped - GAP * (j - 1);
			next[j] = Math.max(viaRun, viaGap) + bonus[j]!;
		}
		prev = next;
	}
	let best = Number.NEGATIVE_INFINITY;
	for (const score of prev) if (score > best) best = score;
	return Number.isFinite(best) ? best : undefined;
}

/** A session that matched, with its score. */
export interface SessionMatch {
	readonly session: SessionInfo;
	readonly score: number;
}

/** The best score of one query word over a session's title, first message and id. */
function wordScore(word: string, session: SessionInfo): number | undefined {
	let best: number | undefined;
	for (const field of [session.title ?? "", session.firstMessage, session.id]) {
		const score = fuzzyScore(word, field);
		if (score !== undefined && (best === undefined || score > best)) best = score;
	}
	return best;
}

/**
 * Sessions matching every whitespace-separated word of `query` (fuzzily, in title, first message
 * or id), best score first, then most recently modified. An empty query keeps every session.
 */
export function fuzzyFilterSessions(sessions: readonly SessionInfo[], query: string): SessionMatch[] {
	const words = query.trim().split(/\s+/).filter(Boolean);
	const matches: SessionMatch[] = [];
	for (const session of sessions) {
		let total = 0;
		let matched = true;
		for (const word of words) {
			const score = wordScore(word, session);
			if (score === undefined) {
				matched = false;
				break;
			}
			total += score;
		}
		if (matched) matches.push({ session, score: total });
	}
	return matches.sort((a, b) => b.score - a.score || b.session.modified.getTime() - a.session.modified.getTime());
}
