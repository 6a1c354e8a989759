import { isUtf8 } from "node:buffer";
import { parseBlobRef } from "../session/blob-store.js";
import type { Finding, HeaderCheck } from "./findings.js";
import { type HeaderEdit, inspectHeader } from "./header-check.js";
import { checkTree, type TreeNode } from "./tree-check.js";

/** Lines above this many bytes are reported: xcsh cuts strings at 500,000 characters, so it never writes one. */
export const OVERSIZED_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

import { MESSAGE_WITHOUT_MESSAGE } from "../session/session-loader.js";

export { MESSAGE_WITHOUT_MESSAGE };

/** A line `repairSessionFile` moves to the quarantine: bytes `[start, end)` of the file, newline excluded. */
export interface QuarantineItem {
	line: number;
	start: number;
	end: number;
	reason: string;
}

/** What one pass over a session file's bytes found (everything but the lock, which is not in the bytes). */
export interface SessionAnalysis {
	header: HeaderCheck;
	findings: Finding[];
	/** In file order; empty when the header is invalid (such a file is never rewritten). */
	quarantine: QuarantineItem[];
	/** What `--fix` changes before and in the header line (a BOM, blank lines, a damaged version). */
	headerEdits: HeaderEdit[];
}

/** Lets the analysis ask whether a blob exists without knowing where blobs live. */
export type HasBlob = (hash: string) => boolean;

interface Entry {
	type?: unknown;
	id?: unknown;
	parentId?: unknown;
	content?: unknown;
	message?: { content?: unknown } | null;
}

/** Blob hashes of the image blocks the loader resolves (message and custom_message content). */
function blobRefsOf(entry: Entry): string[] {
	let content: unknown;
	if (entry.type === "custom_message") content = entry.content;
	else if (entry.type === "message" && typeof entry.message === "object" && entry.message !== null) {
		content = entry.message.content;
	}
	if (!Array.isArray(content)) return [];
	const hashes: string[] = [];
	for (const block of content as { type?: unknown; data?: unknown }[]) {
		if (block?.type !== "image" || typeof block.data !== "string") continue;
		const hash = parseBlobRef(block.data);
		if (hash) hashes.push(hash);
	}
	return hashes;
}

function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Mutable state of the pass; kept in one object so the per-line step stays a plain function. */
interface PassState {
	header: HeaderCheck | undefined;
	headerEdits: HeaderEdit[];
	legacy: boolean;
	findings: Finding[];
	quarantine: QuarantineItem[];
	/** id → every line that carries it as a loadable entry (first one kept). */
	idLines: Map<string, number[]>;
	nodes: TreeNode[];
	blobRefs: { hash: string; line: number }[];
}

function quarantineLine(state: PassState, line: number, start: number, end: number, reason: string): void {
	state.quarantine.push({ line, start, end, reason });
}

/**
 * Mirrors `parseSessionText`: the lines the loader skips are reported here with the same reasons, plus
 * `message` entries without a message, which the loader keeps but cannot index.
 */
function checkEntryLine(state: PassState, text: string, line: number, start: number, end: number, last: boolean) {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		if (last) {
			state.findings.push({ kind: "torn-tail", line });
			quarantineLine(state, line, start, end, "torn tail: the last line was cut off");
		} else {
			const message = describeError(error);
			state.findings.push({ kind: "unparseable-line", line, message });
			quarantineLine(state, line, start, end, message);
		}
		return;
	}
	if (last) state.findings.push({ kind: "missing-final-newline" });
	const skip = (message: string) => {
		state.findings.push({ kind: "unparseable-line", line, message });
		quarantineLine(state, line, start, end, message);
	};
	if (value === null || typeof value !== "object" || Array.isArray(value)) return skip("not a JSON object");
	const entry = value as Entry;
	if (typeof entry.type !== "string") return skip("entry has no type");
	// The loader skips such a line too (same reason): nothing can be shown or sent for it.
	if (entry.type === "message" && (entry.message === null || entry.message === undefined)) {
		return skip(MESSAGE_WITHOUT_MESSAGE);
	}
	if (!state.legacy) {
		// v1 entries get their ids and a linear parent chain from the migration: nothing to check yet.
		if (typeof entry.id !== "string") return skip("entry has no id");
		const lines = state.idLines.get(entry.id);
		if (lines) {
			lines.push(line);
			quarantineLine(state, line, start, end, `duplicate entry id ${entry.id}`);
			return;
		}
		state.idLines.set(entry.id, [line]);
		state.nodes.push({ id: entry.id, parentId: typeof entry.parentId === "string" ? entry.parentId : null, line });
	}
	for (const hash of blobRefsOf(entry)) state.blobRefs.push({ hash, line });
}

function decodeLine(bytes: Buffer, start: number, end: number): string | Error {
	try {
		return bytes.toString("utf8", start, end);
	} catch (error) {
		// A line past V8's string limit (~512 MB) cannot even be decoded.
		return error instanceof Error ? error : new Error(String(error));
	}
}

function structuralFindings(state: PassState, hasBlob: HasBlob): Finding[] {
	const findings: Finding[] = [];
	for (const [id, lines] of state.idLines) if (lines.length > 1) findings.push({ kind: "duplicate-id", id, lines });
	findings.push(...checkTree(state.nodes));
	const known = new Map<string, boolean>();
	const reported = new Set<string>();
	for (const { hash, line } of state.blobRefs) {
		let present = known.get(hash);
		if (present === undefined) {
			present = hasBlob(hash);
			known.set(hash, present);
		}
		const key = `${hash}:${line}`;
		if (present || reported.has(key)) continue;
		reported.add(key);
		findings.push({ kind: "unresolved-blob", hash, line });
	}
	return findings;
}

/**
 * Diagnoses a session file's bytes in one pass: lines are cut at newline bytes (a newline never
 * occurs inside a UTF-8 sequence, so line numbers match the loader's), decoded one at a time, and
 * only ids, parent ids and blob refs are kept. Never throws on any input.
 */
export function analyzeSessionBytes(bytes: Buffer, hasBlob: HasBlob): SessionAnalysis {
	const state: PassState = {
		header: undefined,
		headerEdits: [],
		legacy: false,
		findings: [],
		quarantine: [],
		idLines: new Map(),
		nodes: [],
		blobRefs: [],
	};
	// Checking the whole buffer first keeps the common, valid case to one fast scan.
	const wholeIsUtf8 = isUtf8(bytes);
	let start = 0;
	let line = 0;
	while (start < bytes.length) {
		const newline = bytes.indexOf(NEWLINE, start);
		const end = newline < 0 ? bytes.length : newline;
		const last = newline < 0;
		line++;
		const size = end - start;
		const text = decodeLine(bytes, start, end);
		const lineStart = start;
		start = end + 1;
		if (typeof text === "string" && text.trim().length === 0) {
			if (last && state.header?.valid) state.findings.push({ kind: "missing-final-newline" });
			continue;
		}
		if (state.header === undefined) {
			const inspected =
				typeof text === "string"
					? inspectHeader(bytes, text, lineStart, end)
					: { check: { valid: false, reason: text.message }, findings: [], edits: [], legacy: false };
			state.header = inspected.check;
			// The loader refuses a file without a header outright: its lines mean nothing on their own.
			if (!state.header.valid) return { header: state.header, findings: [], quarantine: [], headerEdits: [] };
			state.legacy = inspected.legacy;
			state.findings.push(...inspected.findings);
			state.headerEdits = inspected.edits;
			if (last) state.findings.push({ kind: "missing-final-newline" });
		} else if (typeof text === "string") {
			checkEntryLine(state, text, line, lineStart, end, last);
		} else {
			state.findings.push({ kind: "unparseable-line", line, message: text.message });
			quarantineLine(state, line, lineStart, end, text.message);
		}
		if (size > OVERSIZED_LINE_BYTES) state.findings.push({ kind: "oversized-line", line, bytes: size });
		if (!wholeIsUtf8 && !isUtf8(bytes.subarray(lineStart, end))) state.findings.push({ kind: "invalid-utf8", line });
	}
	const header = state.header ?? { valid: false, reason: "empty" };
	if (!header.valid) return { header, findings: [], quarantine: [], headerEdits: [] };
	return {
		header,
		findings: [...state.findings, ...structuralFindings(state, hasBlob)],
		quarantine: state.quarantine,
		headerEdits: state.headerEdits,
	};
}
