import stringWidth from "string-width";

/** A run of a line's text and the style it is drawn in (a function of `paint.ts`), if any. */
export interface Span {
	readonly text: string;
	readonly style?: ((text: string) => string) | undefined;
}

const segmenter = new Intl.Segmenter();
// Printable ASCII is one column a character: most text is measured without segmenting it.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns of one grapheme: Latin-1 letters and punctuation at a glance, the rest measured. */
function graphemeColumns(grapheme: string): number {
	if (grapheme.length === 1) {
		const code = grapheme.charCodeAt(0);
		if ((code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code < 0x300 && code !== 0xad)) return 1;
	}
	return stringWidth(grapheme);
}

/**
 * The head of `text` that fits in `room` columns and the columns it takes; `whole` when that is
 * all of it. Only the head is measured: a row's text may be far longer than the row.
 */
function headIn(text: string, room: number): { head: string; used: number; whole: boolean } {
	if (PRINTABLE_ASCII.test(text)) {
		return text.length <= room
			? { head: text, used: text.length, whole: true }
			: { head: text.slice(0, Math.max(0, room)), used: Math.max(0, room), whole: false };
	}
	let used = 0;
	let end = 0;
	for (const { segment, index } of segmenter.segment(text)) {
		const cells = graphemeColumns(segment);
		if (used + cells > room) return { head: text.slice(0, index), used, whole: false };
		used += cells;
		end = index + segment.length;
	}
	return { head: text.slice(0, end), used, whole: true };
}

function painted(span: Span, text: string): string {
	return span.style && text !== "" ? span.style(text) : text;
}

/**
 * The spans as one styled line of at most `width` columns, cut the way Ink's `truncate-end` cuts a
 * line: the first `width - 1` columns and an ellipsis (in the style of the span it cuts). Each span
 * closes the styles it opens, so the line stands alone wherever it is painted.
 */
export function styledLine(spans: readonly Span[], width: number): string {
	// Laid out in `width` columns first; only a line that does not fit is laid out again, cut.
	let room = width;
	const heads: string[] = [];
	for (const span of spans) {
		const { head, used, whole } = headIn(span.text, room);
		if (!whole) return cutLine(spans, width);
		heads.push(painted(span, head));
		room -= used;
	}
	return heads.join("");
}

function cutLine(spans: readonly Span[], width: number): string {
	let room = Math.max(0, width - 1);
	let line = "";
	for (const span of spans) {
		const { head, used, whole } = headIn(span.text, room);
		if (!whole) return line + painted(span, `${head}…`);
		line += painted(span, head);
		room -= used;
	}
	return line;
}
