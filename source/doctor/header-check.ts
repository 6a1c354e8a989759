import { orderEntryKeys } from "../session/jsonl.js";
import { checkHeaderVersion, isSessionHeader } from "../session/session-header.js";
import type { SessionHeader } from "../session/types.js";
import type { Finding, HeaderCheck } from "./findings.js";

const BOM = "\uFEFF";
const BOM_BYTES = Buffer.byteLength(BOM);

/** Bytes `[start, end)` of the file that `--fix` replaces with `text` (the header's normalisation). */
export interface HeaderEdit {
	start: number;
	end: number;
	text: string;
	/** What the edit does, for the repair's report. */
	what: string;
}

/** What the doctor makes of the header line. */
export interface HeaderInspection {
	check: HeaderCheck;
	findings: Finding[];
	edits: HeaderEdit[];
	/** v1: entries get their ids from the migration, so missing ids are not damage. */
	legacy: boolean;
}

function invalid(reason: string): HeaderInspection {
	return { check: { valid: false, reason }, findings: [], edits: [], legacy: false };
}

/** The header line as a line scan reported it. */
export interface HeaderLine {
	/** The line's text (a BOM at the very start of the file is already stripped). */
	text: string;
	/** 1-based line number: the lines before it are blank. */
	number: number;
	/** Byte offset of the line's first byte. */
	offset: number;
	/** Length in bytes, newline excluded. */
	length: number;
}

/** What the rest of the file says about the header, gathered by a scan of the lines below it. */
export interface HeaderContext {
	/** The file starts with a UTF-8 byte order mark. */
	bom: boolean;
	/** Some line after the header is a JSON object with a string id (the loader's test). */
	entriesCarryIds: boolean;
	/** Some line holds a v2 `hookMessage` role (migrated on the next open). */
	hookMessages: boolean;
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * Checks the header line: whether it is a header, what comes before it (a BOM, blank lines), and
 * whether its version can be trusted, as the loader reads it.
 */
export function inspectHeader(line: HeaderLine, context: HeaderContext): HeaderInspection {
	const { text } = line;
	const bomInLine = text.startsWith(BOM);
	const bom = context.bom;
	let value: unknown;
	try {
		value = JSON.parse(bomInLine ? text.slice(BOM.length) : text);
	} catch {
		return invalid("first line is not valid JSON");
	}
	if (!isSessionHeader(value)) return invalid("first line is not a session header");
	const findings: Finding[] = [];
	const edits: HeaderEdit[] = [];
	const jsonStart = line.offset + (bomInLine ? BOM_BYTES : 0);
	if (jsonStart > 0) {
		const blankLines = line.number - 1;
		findings.push({ kind: "header-prefix", bom, blankLines });
		const what = [bom ? "a byte order mark" : "", blankLines > 0 ? plural(blankLines, "blank line") : ""]
			.filter(Boolean)
			.join(" and ");
		edits.push({ start: 0, end: jsonStart, text: "", what: `removed ${what} before the header` });
	}
	const version = checkHeaderVersion(value, context.entriesCarryIds);
	switch (version.kind) {
		case "declared":
			if (version.version < 3) findings.push({ kind: "needs-migration", version: version.version });
			return { check: { valid: true, version: version.version }, findings, edits, legacy: version.version < 2 };
		case "legacy":
			findings.push({ kind: "needs-migration", version: 1 });
			return { check: { valid: true, version: 1 }, findings, edits, legacy: true };
		case "malformed": {
			findings.push({ kind: "malformed-version", value: version.value });
			// A v2 file's legacy roles are still migrated (with a backup) on the next open.
			const fixed = context.hookMessages ? 2 : 3;
			const header: SessionHeader = orderEntryKeys({ ...value, version: fixed });
			edits.push({
				start: jsonStart,
				end: line.offset + line.length,
				text: JSON.stringify(header),
				what: `set the header's version to ${fixed}`,
			});
			return { check: { valid: true }, findings, edits, legacy: false };
		}
	}
}

/** True when the header line's JSON declares a numeric version: nothing below it needs a look first. */
export function declaresVersion(text: string): boolean {
	try {
		const value = JSON.parse(text.startsWith(BOM) ? text.slice(BOM.length) : text) as { version?: unknown } | null;
		return typeof value?.version === "number";
	} catch {
		return true;
	}
}
