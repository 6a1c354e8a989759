/** Figures, formatting and the Markdown table of bench/big-sessions.ts. */

/** A measured series, or why it could not be measured (the error's first line). */
export type Series = { ok: true; values: number[] } | { ok: false; reason: string };

/** One row of the summary table. */
export interface Row {
	measure: string;
	size: string;
	xcsh: string;
	baseline: string;
	pi: string;
	target: string;
	result: "PASS" | "FAIL" | "—";
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The first line of an error, for a table cell. */
export function firstLine(error: unknown): string {
	const text = error instanceof Error ? error.message : String(error);
	return (text.split("\n").find((line) => line.trim() !== "") ?? text).trim().slice(0, 160);
}

/** "fails: …" for a failed series. */
export const fails = (reason: string): string => `fails: ${reason.replace(/\|/g, "/")}`;

export const ms = (value: number): string =>
	value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(value < 100 ? 1 : 0)} ms`;
export const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
export const times = (value: number): string => `${value.toFixed(2)}×`;
export const verdict = (ok: boolean): Row["result"] => (ok ? "PASS" : "FAIL");

/** A series' median formatted, with min–max when there are several values. */
export function cell(series: Series, format: (value: number) => string): string {
	if (!series.ok) return fails(series.reason);
	const values = series.values;
	if (values.length === 1) return format(values[0]!);
	return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

/** The median of a series, or undefined when it failed. */
export function mid(series: Series): number | undefined {
	return series.ok ? median(series.values) : undefined;
}

/** A series from the values of runs that each may have failed: the first failure wins. */
export function seriesOf<T>(runs: readonly (T | Error)[], pick: (run: T) => number): Series {
	const failed = runs.find((run): run is Error => run instanceof Error);
	if (failed) return { ok: false, reason: firstLine(failed) };
	if (runs.length === 0) return { ok: false, reason: "not run" };
	return { ok: true, values: runs.map((run) => pick(run as T)) };
}

/** Prints the summary table. */
export function printTable(rows: readonly Row[], say: (line?: string) => void): void {
	say("| measure | size | xcsh | baseline (same run) | pi 0.73.1 | target | result |");
	say("|---|---|--:|--:|--:|---|---|");
	for (const r of rows)
		say(`| ${r.measure} | ${r.size} | ${r.xcsh} | ${r.baseline} | ${r.pi} | ${r.target} | ${r.result} |`);
}

/** A table row; `ok` undefined means the figure has no target. */
export function row(
	measure: string,
	size: string,
	xcsh: string,
	baseline: string,
	target: string,
	ok: boolean | undefined,
	pi = "—",
): Row {
	return { measure, size, xcsh, baseline, pi, target, result: ok === undefined ? "—" : verdict(ok) };
}

/** Whether a measured value is within its limit; false when either is missing (a failed figure fails). */
export function within(value: number | undefined, limit: number | undefined): boolean {
	return value !== undefined && limit !== undefined && value <= limit;
}
