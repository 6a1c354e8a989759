import wrapAnsi from "wrap-ansi";

/** Columns inside a round border with one column of padding each side. */
export const DIALOG_FRAME_COLUMNS = 4;
/** Rows the round border takes. */
export const DIALOG_FRAME_ROWS = 2;

/**
 * `text` word-wrapped to `width` columns in at most `maxLines` lines (at least one); when lines are
 * cut, the last kept one ends with "…" (Ink's truncation clips it to the width again).
 */
export function fitLines(text: string, width: number, maxLines: number): string[] {
	const lines = wrapAnsi(text, Math.max(1, Math.floor(width)), { hard: true, trim: true }).split("\n");
	const max = Math.max(1, Math.floor(maxLines));
	if (lines.length <= max) return lines;
	const kept = lines.slice(0, max);
	kept[max - 1] = `${kept[max - 1] ?? ""}…`;
	return kept;
}
