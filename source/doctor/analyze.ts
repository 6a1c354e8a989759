import { isUtf8 } from "node:buffer";
import { parseBlobRef } from "../session/blob-store.js";
import type { ScannedLine } from "../session/line-scan.js";
import { tooLongLine } from "../session/session-lines.js";
import type { Finding, HeaderCheck } from "./findings.js";
import { declaresVersion, type HeaderEdit, type HeaderLine, inspectHeader } from "./header-check.js";
import { type ChunkedFile, type ReadLimits, withChunkedFile } from "./session-reader.js";
import { measureSlimmable, noSlimCount, type SlimCount } from "./slim-blocks.js";
import { checkTree, type TreeNode } from "./tree-check.js";

/** Lines above this many bytes are reported: xcsh cuts strings at 500,000 characters, so it never writes one. */
export const OVERSIZED_LINE_BYTES = 10 * 1024 * 1024;

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
	/** The file's size when the pass began (the pass reads exactly that many bytes). */
	size: number;
	/** What `--slim` would move to the blob store. */
	slimmable: SlimCount;
}

/** Lets the analysis ask whether a blob exists without knowing where blobs live. */
export type HasBlob = (hash: string) => boolean;

interface Entry {
	type?: unknown;
	id?: unknown;
	parentId?: unknown;
	content?: unknown;
	message?: { role?: unknown; content?: unknown } | null;
}

/** A blob the loader resolves: an image's data, or a tool result text's. */
interface BlobUse {
	hash: string;
	block: "image" | "text";
}

/** Blob hashes the loader resolves: image blocks of message / custom_message content, toolResult texts. */
function blobRefsOf(entry: Entry): BlobUse[] {
	let content: unknown;
	if (entry.type === "custom_message") content = entry.content;
	else if (entry.type === "message" && typeof entry.message === "object" && entry.message !== null) {
		content = entry.message.content;
	}
	if (!Array.isArray(content)) return [];
	const toolResult = entry.type === "message" && entry.message?.role === "toolResult";
	const uses: BlobUse[] = [];
	for (const block of content as { type?: unknown; data?: unknown; text?: unknown }[]) {
		if (block?.type === "image" && typeof block.data === "string") {
			const hash = parseBlobRef(block.data);
			if (hash) uses.push({ hash, block: "image" });
		} else if (toolResult && block?.type === "text" && typeof block.text === "string") {
			const hash = parseBlobRef(block.text);
			if (hash) uses.push({ hash, block: "text" });
		}
	}
	return uses;
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
	blobRefs: (BlobUse & { line: number })[];
	/** Lines whose text holds U+FFFD: their bytes are checked after the pass (the text alone cannot tell). */
	suspects: Utf8Suspect[];
	slimmable: SlimCount;
}

/** A line that may hold bytes that are not UTF-8, and where its finding goes if it does. */
interface Utf8Suspect {
	line: number;
	offset: number;
	length: number;
	/** Index in `findings` the finding is inserted at, to keep the findings in line order. */
	at: number;
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
	for (const use of blobRefsOf(entry)) state.blobRefs.push({ ...use, line });
	measureSlimmable(entry, state.slimmable);
}

function structuralFindings(state: PassState, hasBlob: HasBlob): Finding[] {
	const findings: Finding[] = [];
	for (const [id, lines] of state.idLines) if (lines.length > 1) findings.push({ kind: "duplicate-id", id, lines });
	// A loop: a big damaged file can have more findings than a call takes arguments.
	for (const finding of checkTree(state.nodes)) findings.push(finding);
	const known = new Map<string, boolean>();
	const reported = new Set<string>();
	for (const { hash, line, block } of state.blobRefs) {
		let present = known.get(hash);
		if (present === undefined) {
			present = hasBlob(hash);
			known.set(hash, present);
		}
		const key = `${hash}:${line}`;
		if (present || reported.has(key)) continue;
		reported.add(key);
		findings.push(
			block === "text" ? { kind: "unresolved-blob", hash, line, block } : { kind: "unresolved-blob", hash, line },
		);
	}
	return findings;
}

/** The first non-blank line and what the rest of the file says about it. */
interface Prelude {
	header: HeaderLine | undefined;
	/** The header line's text was too long to decode. */
	headerTooLong: boolean;
	bom: boolean;
	entriesCarryIds: boolean;
	hookMessages: boolean;
}

const HOOK_MESSAGE = '"role":"hookMessage"';

function carriesId(text: string): boolean {
	try {
		const value = JSON.parse(text) as { id?: unknown } | null;
		return typeof value?.id === "string";
	} catch {
		return false;
	}
}

/**
 * Finds the header; when its version is not a number, also reads the lines below it (whether entries
 * carry ids decides v1 or a damaged tree), as the loader does.
 */
async function readPrelude(file: ChunkedFile): Promise<Prelude> {
	const prelude: Prelude = {
		header: undefined,
		headerTooLong: false,
		bom: false,
		entriesCarryIds: false,
		hookMessages: false,
	};
	let lookBelow = false;
	await file.scan((line) => {
		if (line.number === 1 && line.offset === 3) prelude.bom = true;
		if (prelude.header === undefined && !prelude.headerTooLong) {
			if (line.text === null) {
				prelude.headerTooLong = true;
				return false;
			}
			if (line.text.trim().length === 0) return true;
			prelude.header = { text: line.text, number: line.number, offset: line.offset, length: line.length };
			lookBelow = !declaresVersion(line.text);
			prelude.hookMessages = line.text.includes(HOOK_MESSAGE);
			return lookBelow;
		}
		if (line.text === null) return true;
		if (!prelude.entriesCarryIds && carriesId(line.text)) prelude.entriesCarryIds = true;
		if (line.text.includes(HOOK_MESSAGE)) prelude.hookMessages = true;
		return !(prelude.entriesCarryIds && prelude.hookMessages);
	});
	return prelude;
}

function checkLine(state: PassState, line: ScannedLine, size: number): void {
	const { number, offset, length, text } = line;
	const end = offset + length;
	const last = end === size;
	if (text === null) {
		// Never buffered, so it cannot go to the quarantine (a JSON record cannot hold it): it stays in place.
		state.findings.push({ kind: "unparseable-line", line: number, message: tooLongLine(length) });
		return;
	}
	if (text.trim().length === 0) {
		if (last) state.findings.push({ kind: "missing-final-newline" });
		return;
	}
	checkEntryLine(state, text, number, offset, end, last);
	noteLineBytes(state, line);
}

/** The size and encoding checks every decoded, non-blank line gets. */
function noteLineBytes(state: PassState, line: ScannedLine): void {
	if (line.length > OVERSIZED_LINE_BYTES)
		state.findings.push({ kind: "oversized-line", line: line.number, bytes: line.length });
	// Text without U+FFFD came from valid UTF-8; with it, only the bytes can tell.
	if (line.text?.includes("\uFFFD")) {
		state.suspects.push({ line: line.number, offset: line.offset, length: line.length, at: state.findings.length });
	}
}

async function confirmInvalidUtf8(file: ChunkedFile, state: PassState): Promise<void> {
	for (let i = state.suspects.length - 1; i >= 0; i--) {
		const suspect = state.suspects[i]!;
		if (isUtf8(await file.read(suspect.offset, suspect.length))) continue;
		state.findings.splice(suspect.at, 0, { kind: "invalid-utf8", line: suspect.line });
	}
}

function invalidAnalysis(reason: string, size: number): SessionAnalysis {
	return {
		header: { valid: false, reason },
		findings: [],
		quarantine: [],
		headerEdits: [],
		size,
		slimmable: noSlimCount(),
	};
}

/**
 * Diagnoses an open session file line by line, in bounded memory: only ids, parent ids, blob refs and
 * the places of bad lines are kept. Line numbers match the loader's. Never throws on any content.
 */
export async function analyzeChunkedFile(file: ChunkedFile, hasBlob: HasBlob): Promise<SessionAnalysis> {
	const prelude = await readPrelude(file);
	if (prelude.headerTooLong) return invalidAnalysis("first line is not valid JSON", file.size);
	const headerLine = prelude.header;
	if (!headerLine) return invalidAnalysis("empty", file.size);
	const inspected = inspectHeader(headerLine, prelude);
	// The loader refuses a file without a header outright: its lines mean nothing on their own.
	if (!inspected.check.valid) return invalidAnalysis(inspected.check.reason ?? "invalid header", file.size);
	const state: PassState = {
		header: inspected.check,
		headerEdits: inspected.edits,
		legacy: inspected.legacy,
		findings: [...inspected.findings],
		quarantine: [],
		idLines: new Map(),
		nodes: [],
		blobRefs: [],
		suspects: [],
		slimmable: noSlimCount(),
	};
	const headerEnd = headerLine.offset + headerLine.length;
	if (headerEnd === file.size) state.findings.push({ kind: "missing-final-newline" });
	noteLineBytes(state, { ...headerLine });
	await file.scan(
		(line) => {
			checkLine(state, line, file.size);
			return true;
		},
		{ from: headerEnd + 1, firstLineNumber: headerLine.number + 1 },
	);
	await confirmInvalidUtf8(file, state);
	return {
		header: inspected.check,
		findings: [...state.findings, ...structuralFindings(state, hasBlob)],
		quarantine: state.quarantine,
		headerEdits: state.headerEdits,
		size: file.size,
		slimmable: state.slimmable,
	};
}

/** Diagnoses the session file at `path` (see `analyzeChunkedFile`); rejects when it cannot be read. */
export function analyzeSessionFile(path: string, hasBlob: HasBlob, limits: ReadLimits = {}): Promise<SessionAnalysis> {
	return withChunkedFile(path, limits, (file) => analyzeChunkedFile(file, hasBlob));
}
