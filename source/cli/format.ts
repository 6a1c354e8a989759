import stringWidth from "string-width";
import { clip } from "../render/clip.js";
import { safeLine } from "../render/safe-text.js";

/** Pads a string with spaces to `width` terminal columns. */
function padToWidth(text: string, width: number): string {
	const w = stringWidth(text);
	return w >= width ? text : text + " ".repeat(width - w);
}

/** How wide a table may get. */
export interface TableOptions {
	/** Terminal columns when known: the widest columns are narrowed until each line fits. */
	readonly width?: number | undefined;
	/** Columns any one cell may take, whatever the terminal (default `MAX_CELL`). */
	readonly maxCell?: number;
	/** Columns fitting to the terminal never narrows (ids a person copies). */
	readonly keep?: readonly number[];
}

/** A cell never takes more than this many columns, so a 5,000-character title cannot flood the output. */
const MAX_CELL = 120;
/** Fitting to the terminal never narrows a column below this. */
const MIN_COLUMN = 8;
const GAP = 2;

/** Narrows the widest columns until the row (with gaps) fits in `width`, none below `MIN_COLUMN`. */
function fitColumns(widths: number[], width: number, keep: readonly number[]): number[] {
	const fitted = [...widths];
	let total = fitted.reduce((sum, w) => sum + w, 0) + GAP * Math.max(0, fitted.length - 1);
	while (total > width) {
		let widest = -1;
		for (let i = 0; i < fitted.length; i++) {
			if (!keep.includes(i) && (widest < 0 || fitted[i]! > fitted[widest]!)) widest = i;
		}
		if (widest < 0 || fitted[widest]! <= MIN_COLUMN) break;
		fitted[widest]! -= 1;
		total -= 1;
	}
	return fitted;
}

/**
 * Left-aligned columns separated by two spaces; the last column is not padded. Every cell is
 * made one safe line (session content never reaches the terminal raw) and cut with `…` to the
 * cap and, when the terminal width is known, to what fits.
 */
export function formatTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
	const maxCell = options.maxCell ?? MAX_CELL;
	const cells = rows.map((row) => row.map((cell) => clip(safeLine(cell), maxCell)));
	let widths: number[] = [];
	for (const row of cells) {
		for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i] ?? 0, stringWidth(row[i]!));
	}
	if (options.width !== undefined && options.width > 0) widths = fitColumns(widths, options.width, options.keep ?? []);
	return cells
		.map((row) =>
			row
				.map((cell, i) => {
					const width = widths[i] ?? 0;
					const cut = clip(cell, width);
					return i === row.length - 1 ? cut : padToWidth(cut, width);
				})
				.join("  "),
		)
		.join("\n");
}
