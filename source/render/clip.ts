import stringWidth from "string-width";

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

/** The head of a text that fits in some columns: its text, the columns it takes, and whether it is all of it. */
export interface Head {
	readonly head: string;
	readonly used: number;
	readonly whole: boolean;
}

/**
 * The head of `text` that fits in `room` columns (wide characters count two, none is split). Only
 * the head is measured: a row's text may be far longer than the row.
 */
export function headIn(text: string, room: number): Head {
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

/** Cuts a string to `width` terminal columns (wide characters count two) with an ellipsis. */
export function clip(text: string, width: number): string {
	const fits = headIn(text, width);
	return fits.whole ? fits.head : `${headIn(text, Math.max(0, width - 1)).head}…`;
}
