/**
 * A big session's first read needs few of an entry's fields (its place in the tree, type, time, role,
 * model, usage, kind), and most of a big line is a long string it never reads: a tool's output, an
 * image, a long answer. Decoding and parsing those strings was most of that read's time. Skimming
 * checks every string of the line on its bytes and cuts the long ones the skeleton does not read, so
 * `JSON.parse` sees a short text. The skimmed text parses if and only if the whole line does, and to
 * the same value but for the cut strings; any doubt gives undefined, and the caller parses the line whole.
 */

/** Lines longer than this are skimmed (shorter ones parse about as fast whole). */
export const SKIM_LINES_ABOVE_BYTES = 2048;

/** Strings this long (in bytes) or shorter are kept: cutting them saves nothing worth the check. */
const CUT_ABOVE_BYTES = 256;

/** What a cut string becomes: a non-blank string (see `SkimFields.nonBlank`). */
const CUT = [0x22, 0x78, 0x22];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Which strings the reader reads, by the key they are the value of. */
export interface SkimFields {
	/** Values kept whole. */
	kept: ReadonlySet<string>;
	/** Values read only for whether they are blank: cut only when that is plain from their bytes. */
	nonBlank: ReadonlySet<string>;
}

/** Room kept for the next line once a line is skimmed (a huge line's room is let go). */
const KEPT_ROOM_BYTES = 64 * 1024;

/** The skimmed line is built here (grown as needed), then decoded. */
let out = Buffer.allocUnsafe(KEPT_ROOM_BYTES);
let written = 0;

function put(from: Buffer, start: number, end: number): void {
	const length = end - start;
	if (written + length + CUT.length > out.length) {
		const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, written + length + CUT.length));
		out.copy(bigger, 0, 0, written);
		out = bigger;
	}
	out.set(from.subarray(start, end), written);
	written += length;
}

/**
 * Where the string whose opening quote is at `quote` ends (its closing quote), or -1 when it is not
 * a string JSON.parse accepts: a raw control character, an unknown escape, or no closing quote.
 * Bytes of 0x80 and over are whatever they decode to (invalid UTF-8 decodes to U+FFFD, never eating
 * an ASCII byte), so any of them is fine in a string.
 */
function stringEnd(bytes: Buffer, quote: number): number {
	const n = bytes.length;
	let at = quote + 1;
	for (;;) {
		if (at >= n) return -1;
		const c = bytes[at]!;
		if (c === QUOTE) return at;
		if (c < 0x20) return -1;
		if (c !== BACKSLASH) {
			at++;
			continue;
		}
		const escaped = bytes[at + 1];
		if (escaped === 0x75) {
			for (let k = at + 2; k < at + 6; k++) if (!isHexDigit(bytes[k])) return -1;
			at += 6;
		} else if (
			escaped === QUOTE ||
			escaped === BACKSLASH ||
			escaped === 0x2f ||
			escaped === 0x62 ||
			escaped === 0x66 ||
			escaped === 0x6e ||
			escaped === 0x72 ||
			escaped === 0x74
		) {
			at += 2;
		} else return -1;
	}
}

function isHexDigit(c: number | undefined): boolean {
	if (c === undefined) return false;
	const lower = c | 0x20;
	return (c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x66);
}

function isJsonSpace(c: number | undefined): boolean {
	return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** True when the string's bytes hold a printable ASCII character (not in an escape): it is not blank. */
function visiblyNonBlank(bytes: Buffer, start: number, end: number): boolean {
	for (let at = start; at < end; at++) {
		const c = bytes[at]!;
		if (c === BACKSLASH) at += bytes[at + 1] === 0x75 ? 5 : 1;
		else if (c > 0x20 && c < 0x7f) return true;
	}
	return false;
}

/** The key between `start` and `end` as text, when it is short plain ASCII (else undefined: it may be anything). */
function plainKey(bytes: Buffer, start: number, end: number): string | undefined {
	if (end - start > 32) return undefined;
	let key = "";
	for (let at = start; at < end; at++) {
		const c = bytes[at]!;
		if (c === BACKSLASH || c >= 0x80) return undefined;
		key += String.fromCharCode(c);
	}
	return key;
}

/**
 * The line's JSON text with the long strings `fields` does not read cut to a stub, or undefined when
 * the line may not be JSON.parse's to accept (the caller then parses it whole and gets its error).
 */
export function skimJsonLine(bytes: Buffer, fields: SkimFields): string | undefined {
	written = 0;
	let copiedTo = 0;
	let keyStart = -1;
	let keyEnd = -1;
	const n = bytes.length;
	// Between strings there are only a few bytes of structure: a loop finds the next quote sooner than a call.
	for (let quote = nextQuote(bytes, 0, n); quote < n; ) {
		const end = stringEnd(bytes, quote);
		if (end < 0) return undefined;
		let next = end + 1;
		while (isJsonSpace(bytes[next])) next++;
		if (bytes[next] === 0x3a) {
			keyStart = quote + 1;
			keyEnd = end;
		} else if (end - quote - 1 > CUT_ABOVE_BYTES && keyStart >= 0) {
			const key = plainKey(bytes, keyStart, keyEnd);
			const cut =
				key !== undefined &&
				!fields.kept.has(key) &&
				(!fields.nonBlank.has(key) || visiblyNonBlank(bytes, quote + 1, end));
			if (cut) {
				put(bytes, copiedTo, quote);
				out.set(CUT, written);
				written += CUT.length;
				copiedTo = end + 1;
			}
		}
		quote = nextQuote(bytes, end + 1, n);
	}
	if (copiedTo === 0) return bytes.toString("utf8");
	put(bytes, copiedTo, n);
	const text = out.toString("utf8", 0, written);
	if (out.length > KEPT_ROOM_BYTES) out = Buffer.allocUnsafe(KEPT_ROOM_BYTES);
	return text;
}

function nextQuote(bytes: Buffer, from: number, n: number): number {
	let at = from;
	while (at < n && bytes[at] !== QUOTE) at++;
	return at;
}
