/**
 * One-line styles for pre-wrapped transcript rows. Each row is styled on its own and closes what it
 * opens, so any slice of rows a viewport draws stands alone. NO_COLOR is honoured where the UI
 * writes (`colour.ts` filters colour codes from the stream), not here.
 */
const wrap =
	(open: string, close: string) =>
	(text: string): string =>
		text === "" ? "" : `\x1b[${open}m${text}\x1b[${close}m`;

export const bold = wrap("1", "22");
export const dim = wrap("2", "22");
export const italic = wrap("3", "23");
export const red = wrap("31", "39");
export const green = wrap("32", "39");
export const yellow = wrap("33", "39");
export const cyan = wrap("36", "39");
export const magenta = wrap("35", "39");

/** Dim italic: thinking text. */
export const dimItalic = (text: string): string => dim(italic(text));
