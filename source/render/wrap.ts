import sliceAnsi from "slice-ansi";
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";

/** Terminal columns of styled text (the same measure Ink lays out with). */
export function textWidth(text: string): number {
	return stringWidth(text);
}

/**
 * Word-wraps prose to `width` columns: words longer than a row are cut, and no row starts with the
 * space it was broken at (Ink's own wrap keeps it: "wrapped lines starting with a space"). A line's
 * own indentation is kept, and its continuation rows hang under it.
 */
export function wrapProse(text: string, width: number): string[] {
	const columns = Math.max(1, width);
	return text.split("\n").flatMap((line) => {
		const indent = /^[ \t]*/.exec(line)?.[0].replaceAll("\t", "    ") ?? "";
		const room = columns - indent.length;
		if (indent === "" || room < 8) return wrapAnsi(line, columns, { hard: true, trim: true }).split("\n");
		return hang(wrapAnsi(line.trimStart(), room, { hard: true, trim: true }).split("\n"), indent, indent);
	});
}

/**
 * Hard-wraps code to `width` columns, keeping every space (indentation is meaning in code): rows
 * are cut by column, not at spaces (wrap-ansi's `wordWrap: false` still breaks at a space).
 */
export function wrapCode(text: string, width: number): string[] {
	const columns = Math.max(1, width);
	return text.split("\n").flatMap((line) => {
		// Plain ASCII is one column per character: cut by index, without measuring graphemes.
		if (PRINTABLE_ASCII.test(line)) return cutPlain(line, columns);
		const total = stringWidth(line);
		if (total <= columns) return [line];
		const rows: string[] = [];
		for (let start = 0; start < total; start += columns) rows.push(sliceAnsi(line, start, start + columns));
		return rows;
	});
}

/** Text of printable ASCII characters only (no escapes, tabs or wide characters). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function cutPlain(line: string, columns: number): string[] {
	if (line.length <= columns) return [line];
	const rows: string[] = [];
	for (let start = 0; start < line.length; start += columns) rows.push(line.slice(start, start + columns));
	return rows;
}

/** Puts `first` before the first line and `rest` (usually as wide, blank) before the others. */
export function hang(lines: readonly string[], first: string, rest: string): string[] {
	return lines.map((line, index) => (index === 0 ? first : rest) + line);
}

/** Pads styled text with spaces to `width` columns, on the left, the right or both. */
export function pad(text: string, width: number, align: "left" | "right" | "center" = "left"): string {
	const gap = Math.max(0, width - stringWidth(text));
	if (align === "right") return " ".repeat(gap) + text;
	if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(Math.ceil(gap / 2));
	return text + " ".repeat(gap);
}
