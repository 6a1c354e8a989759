/** The Markdown tables bench/index-scale.ts prints for the README. */
import type { PickerFigures } from "./index-scale-pty.js";

/** A latency figure: every sample of it. */
export interface SearchFigure {
	label: string;
	samples: number[];
}

/** One query: its hits (the default limit is 20) and median ms, this project and all projects. */
export interface QueryFigure {
	query: string;
	project: { hits: number; ms: number };
	all: { hits: number; ms: number };
}

/** Everything one run measured. */
export interface Results {
	/** "10,000 sessions, 3.01 GB" */
	size: string;
	totalBytes: number;
	dbBytes: number;
	buildMs: number;
	readMs: number;
	parseMs: number;
	changed: number[];
	unchanged: number[];
	changedSessions: number;
	runs: number;
	searches: SearchFigure[];
	queries: QueryFigure[];
	picker: PickerFigures | undefined;
	planted: string;
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** `3.01 GB` */
export const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(2)} GB`;
const ms = (value: number): string => (value < 10 ? `${value.toFixed(1)} ms` : `${value.toFixed(0)} ms`);
const seconds = (millis: number): string => `${(millis / 1000).toFixed(1)} s`;
const mbps = (bytes: number, millis: number): number => bytes / 1e6 / (millis / 1000);
const verdict = (pass: boolean): string => (pass ? "pass" : "**FAIL**");

function table(header: readonly string[], align: string, rows: readonly (readonly string[])[]): void {
	console.log(`| ${header.join(" | ")} |`);
	console.log(
		`|${align
			.split("")
			.map((a) => (a === "r" ? "--:" : "---"))
			.join("|")}|`,
	);
	for (const row of rows) console.log(`| ${row.join(" | ")} |`);
	console.log("");
}

function figureRows(r: Results): string[][] {
	const build = mbps(r.totalBytes, r.buildMs);
	const [changed, unchanged] = [median(r.changed), median(r.unchanged)];
	const rows = [
		[
			`cold index build (${r.size}, median of 3)`,
			`${seconds(r.buildMs)} · ${build.toFixed(0)} MB/s`,
			"≥ 100 MB/s",
			verdict(build >= 100),
		],
		[
			`refresh, ${r.changedSessions} sessions changed (median of ${r.runs})`,
			ms(changed),
			"≤ 200 ms",
			verdict(changed <= 200),
		],
		[`refresh, nothing changed (median of ${r.runs})`, ms(unchanged), "—", "—"],
	];
	for (const { label, samples } of r.searches) {
		const value = `${ms(median(samples))} (p95 ${ms(percentile(samples, 95))})`;
		rows.push([`${label} (median of ${samples.length})`, value, "≤ 50 ms", verdict(median(samples) <= 50)]);
	}
	if (r.picker) {
		const first = median(r.picker.slash);
		const label = `picker first paint: \`/resume\` + Enter → first rows (median of ${r.runs})`;
		rows.push([label, ms(first), "≤ 100 ms", verdict(first <= 100)]);
	}
	return rows;
}

function baselineRows(r: Results): string[][] {
	const rate = (millis: number): string => `${seconds(millis)} · ${mbps(r.totalBytes, millis).toFixed(0)} MB/s`;
	const rows = [
		["raw read of every session byte (readFile, warm)", rate(r.readMs), `build ${(r.buildMs / r.readMs).toFixed(1)}×`],
		["read + JSON.parse of every line", rate(r.parseMs), `build ${(r.buildMs / r.parseMs).toFixed(1)}×`],
	];
	if (r.picker) {
		const [plain, resume, again] = [r.picker.spawnPlain, r.picker.spawnResume, r.picker.reopen].map(median);
		rows.push(
			["spawn of plain `xcsh` → first frame", ms(plain!), "—"],
			["spawn of `xcsh --resume` → first rows (extra)", ms(resume!), `${(resume! / plain!).toFixed(2)}× plain`],
			["`/resume` again in the same process → first rows (extra)", ms(again!), "—"],
		);
	}
	return rows;
}

/** Prints the figures with their targets, the baselines of the same run, and search per query. */
export function printReport(r: Results): void {
	table(["figure", "value", "target", "result"], "lrll", figureRows(r));
	table(["baseline (same run)", "value", "ratio"], "lrr", baselineRows(r));
	table(
		["search query", "hits, this project", "median", "hits, all projects", "median"],
		"lrrrr",
		r.queries.map(({ query, project, all }) => [
			`\`${query}\``,
			String(project.hits),
			ms(project.ms),
			String(all.hits),
			ms(all.ms),
		]),
	);
	console.log(`Index: ${gb(r.dbBytes)} for ${gb(r.totalBytes)} of sessions. Planted phrase ${r.planted}`);
}
