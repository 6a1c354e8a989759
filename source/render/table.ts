import { pad, textWidth, wrapProse } from "./wrap.js";

/** How a column's cells are aligned (`null`: not set, left). */
export type ColumnAlign = "left" | "right" | "center" | null;

/** What a table looks like: a styled header row, plain rows, the rule under the header. */
export interface TableInput {
	readonly header: readonly string[];
	readonly rows: readonly (readonly string[])[];
	readonly align: readonly ColumnAlign[];
	/** Styles a header cell (bold). */
	readonly headerStyle: (text: string) => string;
	/** Styles the separators and the rule (dim). */
	readonly ruleStyle: (text: string) => string;
}

const SEPARATOR = " │ ";
const CROSS = "─┼─";

/** Column widths that fit `width`: the widest columns give up columns first, none below 1. */
function fitColumns(natural: readonly number[], width: number): number[] {
	const widths = [...natural];
	const available = Math.max(widths.length, width - SEPARATOR.length * (widths.length - 1));
	let total = widths.reduce((sum, w) => sum + w, 0);
	while (total > available) {
		const widest = Math.max(...widths);
		if (widest <= 1) break;
		const index = widths.indexOf(widest);
		widths[index] = widest - 1;
		total -= 1;
	}
	return widths;
}

/**
 * An aligned table as lines no wider than `width`: columns padded to their widest cell (measured
 * as the terminal does, so wide characters line up), a rule under the header, and cells wrapped
 * inside their column when the table would be wider than the screen.
 */
export function renderTable(table: TableInput, width: number): string[] {
	const columns = Math.max(table.header.length, ...table.rows.map((row) => row.length));
	const cell = (row: readonly string[], index: number) => row[index] ?? "";
	const all = [table.header, ...table.rows];
	const natural = Array.from({ length: columns }, (_, index) =>
		Math.max(1, ...all.map((row) => textWidth(cell(row, index)))),
	);
	const widths = fitColumns(natural, width);
	const line = (row: readonly string[], style: (text: string) => string): string[] => {
		const wrapped = widths.map((w, index) => wrapProse(cell(row, index), w));
		const height = Math.max(1, ...wrapped.map((cellLines) => cellLines.length));
		return Array.from({ length: height }, (_, rowLine) =>
			widths
				.map((w, index) => {
					const text = wrapped[index]?.[rowLine] ?? "";
					return style(pad(text, w, table.align[index] ?? "left"));
				})
				.join(table.ruleStyle(SEPARATOR))
				.trimEnd(),
		);
	};
	const rule = table.ruleStyle(widths.map((w) => "─".repeat(w)).join(CROSS));
	return [...line(table.header, table.headerStyle), rule, ...table.rows.flatMap((row) => line(row, (text) => text))];
}
