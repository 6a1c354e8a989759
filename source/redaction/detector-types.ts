/** Where a detector's regex matched: the secret is `text.slice(start, end)`, context begins at `matchStart`. */
export interface MatchSpan {
	readonly text: string;
	readonly matchStart: number;
	readonly start: number;
	readonly end: number;
}

/** Rejects a look-alike (undefined) or returns the secret's final end (trailing punctuation trimmed). */
export type Refine = (span: MatchSpan) => number | undefined;

/**
 * One credential format. `prefix` is context that stays visible, `secret` what is replaced; both are
 * regex sources without capturing groups, because the scanner joins every detector into one regex
 * and finds the one that matched by group number.
 */
export interface Detector {
	readonly kind: string;
	readonly prefix: string;
	readonly secret: string;
	readonly refine?: Refine;
	/** Defaults to "specific". */
	readonly role?: DetectorRole;
	/** A second secret that often follows this one (an AWS secret key after its key id). */
	readonly companion?: Companion;
}

/** A secret looked for right where a detector's secret ends; its `(?<secret>…)` group is replaced. */
export interface Companion {
	readonly kind: string;
	/** Sticky (`y`) with indices (`d`). */
	readonly regex: RegExp;
	readonly accept: (secret: string) => boolean;
}

/**
 * How a detector ranks. `specific` formats identify themselves (a vendor prefix, PEM armour);
 * `framed` ones are known by a frame around an opaque value (`Bearer …`) and yield to a specific format
 * inside it; `contextual` ones (`KEY=value`) yield to both; `skip` spans are consumed and left alone.
 */
export type DetectorRole = "skip" | "specific" | "framed" | "contextual";
