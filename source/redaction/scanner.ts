import type { Companion, Detector } from "./detector-types.js";

/** A secret found in a text: `text.slice(start, end)` is replaced by `[REDACTED:<kind>]`. */
export interface SecretSpan {
	readonly kind: string;
	readonly start: number;
	readonly end: number;
}

/** A configured pattern: the whole match, or its `(?<secret>…)` group, is the secret. */
export interface ExtraPattern {
	readonly kind: string;
	readonly regex: RegExp;
}

/** What a scanner is built from. */
export interface ScannerSpec {
	readonly detectors: readonly Detector[];
	readonly patterns?: readonly ExtraPattern[];
	/** True for a matched secret the person allowed (redaction.json `allow`). */
	readonly isAllowed?: (secret: string) => boolean;
}

interface Joined {
	readonly re: RegExp;
	readonly detectors: readonly Detector[];
}

interface Hit {
	readonly detector: Detector;
	readonly start: number;
	readonly end: number;
}

function capturingGroups(source: string): number {
	return (new RegExp(`${source}|`).exec("")?.length ?? 1) - 1;
}

function join(detectors: readonly Detector[], flags: string): Joined {
	for (const d of detectors) {
		if (capturingGroups(d.prefix) + capturingGroups(d.secret) !== 0) {
			throw new Error(`detector ${d.kind} has a capturing group; the joined regex numbers groups by detector`);
		}
	}
	// One regex for every detector: a single left-to-right pass over the text instead of one per format.
	const source = detectors.map((d) => `(${d.prefix})(${d.secret})`).join("|");
	return { re: new RegExp(source || "(?!)", flags), detectors };
}

/** Which detector matched (its secret group is the one that is set), with the refined span; undefined when refused. */
function decode(joined: Joined, m: RegExpExecArray, text: string): Hit | undefined {
	const { detectors } = joined;
	for (let i = 0; i < detectors.length; i++) {
		const secret = m[2 * i + 2];
		if (secret === undefined) continue;
		const detector = detectors[i]!;
		const start = m.index + (m[2 * i + 1] ?? "").length;
		const end = start + secret.length;
		if (!detector.refine) return { detector, start, end };
		const refined = detector.refine({ text, matchStart: m.index, start, end });
		return refined !== undefined && refined > start ? { detector, start, end: refined } : undefined;
	}
	return undefined;
}

function secretRange(m: RegExpExecArray): [number, number] {
	const group = m.indices?.groups?.secret;
	return group ?? [m.index, m.index + m[0].length];
}

/** Finds secrets in text: built-in and env detectors in one joined pass, configured patterns after. */
export class SecretScanner {
	readonly #main: Joined;
	/** Sticky regexes of what each role yields to. */
	readonly #yieldTo: Readonly<Record<"framed" | "contextual", Joined>>;
	readonly #patterns: readonly ExtraPattern[];
	readonly #isAllowed: (secret: string) => boolean;

	constructor(spec: ScannerSpec) {
		this.#main = join(spec.detectors, "g");
		const specific = spec.detectors.filter((d) => (d.role ?? "specific") === "specific");
		this.#yieldTo = {
			framed: join(specific, "y"),
			contextual: join([...specific, ...spec.detectors.filter((d) => d.role === "framed")], "y"),
		};
		this.#patterns = (spec.patterns ?? []).map((p) => ({
			kind: p.kind,
			regex: new RegExp(p.regex.source, [...new Set(`${p.regex.flags}gd`)].join("").replace("y", "")),
		}));
		this.#isAllowed = spec.isAllowed ?? (() => false);
	}

	/** Secret spans of `text`, sorted and non-overlapping. */
	scan(text: string): SecretSpan[] {
		const spans: SecretSpan[] = [];
		const skipped: [number, number][] = [];
		const re = this.#main.re;
		re.lastIndex = 0;
		for (let m = re.exec(text); m !== null; m = re.exec(text)) {
			const hit = decode(this.#main, m, text);
			const matchEnd = m.index + m[0].length;
			const role = hit?.detector.role ?? "specific";
			if (role === "skip") {
				skipped.push([m.index, matchEnd]);
				continue;
			}
			if (!hit || ((role === "framed" || role === "contextual") && this.#yields(role, text, m.index, hit.end))) {
				// Refused, or a vendor format sits inside the value: let the scan find it on its own.
				re.lastIndex = m.index + 1;
				continue;
			}
			if (this.#isAllowed(text.slice(hit.start, hit.end))) {
				re.lastIndex = matchEnd;
				continue;
			}
			spans.push({ kind: hit.detector.kind, start: hit.start, end: hit.end });
			const companion = hit.detector.companion && this.#companion(hit.detector.companion, text, hit.end);
			if (companion) spans.push(companion);
			re.lastIndex = Math.max(companion?.end ?? hit.end, m.index + 1);
		}
		if (this.#patterns.length === 0) return spans;
		return mergeSpans([...spans, ...this.#scanPatterns(text, skipped)]);
	}

	/** The companion secret starting at `at` (after a separator), unless refused or allowed. */
	#companion(companion: Companion, text: string, at: number): SecretSpan | undefined {
		companion.regex.lastIndex = at;
		const range = companion.regex.exec(text)?.indices?.groups?.secret;
		if (!range) return undefined;
		const secret = text.slice(range[0], range[1]);
		if (!companion.accept(secret) || this.#isAllowed(secret)) return undefined;
		return { kind: companion.kind, start: range[0], end: range[1] };
	}

	/** True when a higher-ranked detector matches somewhere in `[start, end)` (it may run past `end`). */
	#yields(role: "framed" | "contextual", text: string, start: number, end: number): boolean {
		const joined = this.#yieldTo[role];
		for (let at = start; at < end; at++) {
			joined.re.lastIndex = at;
			const m = joined.re.exec(text);
			if (m && decode(joined, m, text)) return true;
		}
		return false;
	}

	#scanPatterns(text: string, skipped: readonly [number, number][]): SecretSpan[] {
		const found: SecretSpan[] = [];
		const inSkipped = (start: number, end: number): boolean => skipped.some(([s, e]) => start >= s && end <= e);
		for (const { kind, regex } of this.#patterns) {
			regex.lastIndex = 0;
			for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
				if (m[0].length === 0) regex.lastIndex++;
				const [start, end] = secretRange(m);
				if (end <= start || inSkipped(start, end) || this.#isAllowed(text.slice(start, end))) continue;
				found.push({ kind, start, end });
			}
		}
		return found;
	}
}

/** Sorts spans and folds overlapping ones into the earlier span, so no part of either secret survives. */
function mergeSpans(spans: SecretSpan[]): SecretSpan[] {
	spans.sort((a, b) => a.start - b.start || b.end - a.end);
	const merged: SecretSpan[] = [];
	for (const span of spans) {
		const last = merged[merged.length - 1];
		if (last && span.start < last.end) {
			if (span.end > last.end) merged[merged.length - 1] = { ...last, end: span.end };
		} else merged.push(span);
	}
	return merged;
}
