import { orderEntryKeys } from "../session/jsonl.js";
import { checkHeaderVersion, isSessionHeader } from "../session/session-header.js";
import type { SessionHeader } from "../session/types.js";
import type { Finding, HeaderCheck } from "./findings.js";

const NEWLINE = 0x0a;
const BOM = "\uFEFF";
const BOM_PREFIX = Buffer.from(BOM);
const BOM_BYTES = BOM_PREFIX.length;

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

/** True when some line after `from` is a JSON object with a string id (the loader's test, line by line). */
function entriesCarryIds(bytes: Buffer, from: number): boolean {
	let start = from;
	while (start < bytes.length) {
		const newline = bytes.indexOf(NEWLINE, start);
		const end = newline < 0 ? bytes.length : newline;
		try {
			const value = JSON.parse(bytes.toString("utf8", start, end)) as { id?: unknown } | null;
			if (typeof value?.id === "string") return true;
		} catch {
			// unreadable lines are reported by the main pass
		}
		start = end + 1;
	}
	return false;
}

function countNewlines(bytes: Buffer, end: number): number {
	let count = 0;
	for (let at = bytes.indexOf(NEWLINE); at >= 0 && at < end; at = bytes.indexOf(NEWLINE, at + 1)) count++;
	return count;
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * Checks the header line (`text`, bytes `[lineStart, lineEnd)`): whether it is a header, what comes
 * before it (a BOM, blank lines), and whether its version can be trusted, as the loader reads it.
 */
export function inspectHeader(bytes: Buffer, text: string, lineStart: number, lineEnd: number): HeaderInspection {
	const bomInLine = text.startsWith(BOM);
	const bom = bytes.subarray(0, BOM_BYTES).equals(BOM_PREFIX);
	let value: unknown;
	try {
		value = JSON.parse(bomInLine ? text.slice(BOM.length) : text);
	} catch {
		return invalid("first line is not valid JSON");
	}
	if (!isSessionHeader(value)) return invalid("first line is not a session header");
	const findings: Finding[] = [];
	const edits: HeaderEdit[] = [];
	const jsonStart = lineStart + (bomInLine ? BOM_BYTES : 0);
	if (jsonStart > 0) {
		const blankLines = countNewlines(bytes, lineStart);
		findings.push({ kind: "header-prefix", bom, blankLines });
		const what = [bom ? "a byte order mark" : "", blankLines > 0 ? plural(blankLines, "blank line") : ""]
			.filter(Boolean)
			.join(" and ");
		edits.push({ start: 0, end: jsonStart, text: "", what: `removed ${what} before the header` });
	}
	const version = checkHeaderVersion(value, entriesCarryIds(bytes, lineEnd + 1));
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
			const fixed = bytes.includes('"role":"hookMessage"') ? 2 : 3;
			const header: SessionHeader = orderEntryKeys({ ...value, version: fixed });
			edits.push({
				start: jsonStart,
				end: lineEnd,
				text: JSON.stringify(header),
				what: `set the header's version to ${fixed}`,
			});
			return { check: { valid: true }, findings, edits, legacy: false };
		}
	}
}
