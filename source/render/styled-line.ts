import { headIn } from "./clip.js";

/** A run of a line's text and the style it is drawn in (a function of `paint.ts`), if any. */
export interface Span {
	readonly text: string;
	readonly style?: ((text: string) => string) | undefined;
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
