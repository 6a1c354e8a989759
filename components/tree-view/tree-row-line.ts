import { bold, cyan, dim, green, magenta, yellow } from "../../source/render/paint.js";
import { safeLine } from "../../source/render/safe-text.js";
import { type Span, styledLine } from "../../source/render/styled-line.js";
import type { TreeRow } from "./tree-rows.js";

/** `±N files` of a row whose turn changed files. */
export function fileCountLabel(files: number): string {
	return `±${files} file${files === 1 ? "" : "s"}`;
}

/** Keeps the innermost connectors of a very deep graph (at most half the width), so the text stays on screen. */
function clipPrefix(prefix: string, width: number): string {
	const max = Math.max(4, Math.floor(width / 2));
	return prefix.length <= max ? prefix : `…${prefix.slice(prefix.length - max + 1)}`;
}

const greenBold = (text: string): string => green(bold(text));
const cyanBold = (text: string): string => cyan(bold(text));

/** One tree row as a styled line of `width` columns: cursor, connectors, fold and path markers, files changed, label, text. */
export function treeRowLine(row: TreeRow, selected: boolean, width: number, files: number | undefined): string {
	const fold = row.folded ? "▸ " : row.childCount > 1 ? "▾ " : "";
	const here = row.isLeaf || row.standsForLeaf;
	const marker = here ? "● " : row.onActivePath ? "• " : "";
	const textStyle = selected
		? here
			? cyanBold
			: cyan
		: row.onActivePath
			? here
				? greenBold
				: green
			: here
				? bold
				: undefined;
	const spans: Span[] = [
		{ text: selected ? "❯ " : "  ", style: selected ? cyan : undefined },
		{ text: clipPrefix(row.prefix, width), style: dim },
		{ text: fold },
		{ text: marker, style: here ? greenBold : green },
		// Before the text, which a narrow window cuts: the count and the label are what a person looks for.
		...(files === undefined ? [] : [{ text: `${fileCountLabel(files)} `, style: magenta }]),
		...(row.label === undefined ? [] : [{ text: `[${safeLine(row.label)}] `, style: yellow }]),
		{ text: safeLine(row.text), style: textStyle },
	];
	return styledLine(spans, width);
}

/** The lines of a window of rows, each made once per row and look (a key moves the selection over rows already made). */
export class TreeRowLines {
	readonly #made = new WeakMap<
		TreeRow,
		{ selected: boolean; width: number; files: number | undefined; line: string }
	>();

	/** The line of `row` drawn this way. */
	line(row: TreeRow, selected: boolean, width: number, files: number | undefined): string {
		const known = this.#made.get(row);
		if (known && known.selected === selected && known.width === width && known.files === files) return known.line;
		const line = treeRowLine(row, selected, width, files);
		this.#made.set(row, { selected, width, files, line });
		return line;
	}
}
