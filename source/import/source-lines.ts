import { constants } from "node:buffer";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { SkipError } from "./import-plan.js";

/** A parsed JSONL line and its 1-based line number. */
export interface SourceLine {
	readonly line: number;
	readonly value: Record<string, unknown>;
}

/** A JSONL source read leniently: objects in order, and the lines that were not JSON objects. */
export interface SourceLines {
	readonly lines: SourceLine[];
	readonly badLines: number[];
}

/** Reads a file read-only (never opened for writing) as text. */
export function readSourceText(path: string): string {
	const fd = openSync(path, "r");
	try {
		// Longer than a string can be: said plainly rather than in V8's words about string lengths.
		const { size } = fstatSync(fd);
		if (size > constants.MAX_STRING_LENGTH)
			throw new SkipError(
				`at ${Math.round(size / 1e6)} MB it is too big to read whole (xcsh reads only a first import of a Claude Code or Codex source in pieces)`,
			);
		return readFileSync(fd, { encoding: "utf8" });
	} finally {
		closeSync(fd);
	}
}

/** Splits JSONL text into objects; blank lines are ignored, torn or non-object lines are listed. */
export function parseSourceLines(text: string): SourceLines {
	const lines: SourceLine[] = [];
	const badLines = forEachSourceLine(text, (value, line) => {
		lines.push({ line, value });
	});
	return { lines, badLines };
}

/** Where a reader gets a source's lines: hands each JSON object line to `each`, returns the unreadable ones (1-based). */
export type LineSource = (each: (value: Record<string, unknown>, line: number) => void) => number[];

/** The lines of JSONL text as a `LineSource`. */
export function textLines(text: string): LineSource {
	return (each) => forEachSourceLine(text, each);
}

/**
 * Hands each JSON object line of JSONL text to `each` as it is parsed (so none need be kept);
 * blank lines are ignored; returns the torn or non-object lines (1-based).
 */
export function forEachSourceLine(
	text: string,
	each: (value: Record<string, unknown>, line: number) => void,
): number[] {
	const badLines: number[] = [];
	let start = 0;
	let number = 0;
	while (start < text.length) {
		let end = text.indexOf("\n", start);
		if (end < 0) end = text.length;
		number++;
		const raw = text.slice(start, end);
		start = end + 1;
		readLine(raw, number, each, badLines);
	}
	return badLines;
}

/** Parses one line (its text without the newline): an object goes to `each`, a torn or non-object line to `badLines`. */
export function readLine(
	raw: string,
	number: number,
	each: (value: Record<string, unknown>, line: number) => void,
	badLines: number[],
): void {
	// Only a line that starts with a space can be blank (a JSON line starts with "{").
	if (raw.length === 0 || (raw.charCodeAt(0) <= 32 && raw.trim() === "")) return;
	let value: unknown;
	try {
		value = JSON.parse(raw);
	} catch {
		badLines.push(number);
		return;
	}
	if (isRecord(value)) each(value, number);
	else badLines.push(number);
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string field, or undefined. */
export function str(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

/**
 * Already what `toISOString` writes (days past 28 excepted, where a date may not exist): most
 * sources' times are, and checking is some twenty times cheaper than parsing and formatting.
 */
const CANONICAL_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** An ISO time from a string or epoch milliseconds, or undefined when it is neither. */
export function isoTime(value: unknown): string | undefined {
	if (typeof value === "string" && CANONICAL_TIME.test(value)) return value;
	const ms = typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : Number.NaN;
	return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Epoch milliseconds of an ISO time (0 when it does not parse). */
export function epochMs(iso: string): number {
	const ms = Date.parse(iso);
	return Number.isNaN(ms) ? 0 : ms;
}
