import type { SessionHeader } from "./types.js";

const BOM = "\uFEFF";

/** True when a parsed value is a usable session header. */
export function isSessionHeader(value: unknown): value is SessionHeader {
	const header = value as Partial<SessionHeader> | null;
	return typeof header === "object" && header !== null && header.type === "session" && typeof header.id === "string";
}

/** Where the header line sits in a session's text. */
export interface HeaderLine {
	/** The header's JSON, without a byte order mark. */
	line: string;
	/** Index of the line's first character in the text (after any BOM and blank lines). */
	start: number;
	/** Index just past the line's newline (or the text's end). */
	next: number;
	/** 1-based line number. */
	number: number;
}

/**
 * The first non-blank line of a session's text, a leading UTF-8 BOM dropped: editors and other tools
 * add both, and every reader (loader, listings, index, doctor) must find the same header.
 */
export function locateHeaderLine(text: string): HeaderLine | undefined {
	let start = text.startsWith(BOM) ? BOM.length : 0;
	let number = 1;
	while (start < text.length) {
		const newline = text.indexOf("\n", start);
		const end = newline < 0 ? text.length : newline;
		const line = text.slice(start, end);
		if (line.trim().length > 0) return { line, start, next: newline < 0 ? text.length : newline + 1, number };
		start = end + 1;
		number++;
	}
	return undefined;
}

/** The header of a session's text, or undefined when its first non-blank line is not one. */
export function parseHeaderOf(text: string): { header: SessionHeader; location: HeaderLine } | undefined {
	const location = locateHeaderLine(text);
	if (!location) return undefined;
	try {
		const value: unknown = JSON.parse(location.line);
		return isSessionHeader(value) ? { header: value, location } : undefined;
	} catch {
		return undefined;
	}
}

/** What a header's `version` says, read together with the entries below it. */
export type VersionCheck =
	/** A number: the file is what it says. */
	| { kind: "declared"; version: number }
	/** No usable version and entries without ids: v1, as the spec says of an absent version. */
	| { kind: "legacy" }
	/** Not a number (`"3"`, `null`, missing) although the entries carry ids: a damaged v2+ header. */
	| { kind: "malformed"; value: string };

/**
 * Reads the header's version. A file whose entries already carry ids is a tree: migrating it as v1
 * would re-chain every parent to the line before and flatten its branches.
 */
export function checkHeaderVersion(header: SessionHeader, entriesCarryIds: boolean): VersionCheck {
	const version: unknown = (header as { version?: unknown }).version;
	if (typeof version === "number") return { kind: "declared", version };
	if (!entriesCarryIds) return { kind: "legacy" };
	return { kind: "malformed", value: "version" in header ? JSON.stringify(version) : "missing" };
}

/** True when any entry (after the header) has a string id. */
export function someEntryHasId(entries: readonly unknown[]): boolean {
	for (const entry of entries) {
		const value = entry as { type?: unknown; id?: unknown } | null;
		if (value && value.type !== "session" && typeof value.id === "string") return true;
	}
	return false;
}

/** The load report's words for a damaged version. */
export function describeMalformedVersion(value: string): string {
	return `the header's version is ${value}, not a number`;
}
