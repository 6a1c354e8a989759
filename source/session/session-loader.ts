import { parseJsonlLenient } from "./jsonl.js";
import {
	checkHeaderVersion,
	isSessionHeader,
	locateHeaderLine,
	someEntryHasId,
	type VersionCheck,
} from "./session-header.js";
import { FileSessionStorage, type SessionStorage } from "./session-storage.js";
import type { FileEntry, JsonlLineError, SessionHeader } from "./types.js";

/** What reading a session file found. */
export type SessionFileRead =
	| { kind: "missing" }
	| { kind: "empty" }
	| { kind: "invalid"; reason: string }
	| {
			kind: "ok";
			/** Header first, then entries in file order. */
			entries: FileEntry[];
			/** Lines that were skipped: unparseable, not objects, without a type or id, or duplicate ids. */
			skipped: JsonlLineError[];
			/** The file does not end with a newline: the next append must start a new line first. */
			missingFinalNewline: boolean;
			/** What the header's version says, read with the entries (a damaged one keeps the tree). */
			version: VersionCheck;
	  };

/** Why a `message` entry that holds no message is skipped (the doctor uses the same words). */
export const MESSAGE_WITHOUT_MESSAGE = "message entry has no message object";

export { isSessionHeader };

function headerProblem(text: string): string | undefined {
	const first = locateHeaderLine(text);
	if (!first) return "empty";
	try {
		return isSessionHeader(JSON.parse(first.line)) ? undefined : "first line is not a session header";
	} catch {
		return "first line is not valid JSON";
	}
}

/**
 * Parses session text. Entries of v2+ files need a string id: one without, or with an id already
 * seen, is skipped and reported (v1 entries get their ids from the migration instead).
 */
export function parseSessionText(raw: string): SessionFileRead {
	// A byte order mark is not part of the header's JSON (editors add one); line numbers are unchanged.
	const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
	if (text.trim().length === 0) return { kind: "empty" };
	const problem = headerProblem(text);
	if (problem) return { kind: "invalid", reason: problem };
	const parsed = parseJsonlLenient<FileEntry>(text);
	const skipped = parsed.errors;
	const header = parsed.values[0] as SessionHeader;
	const version = checkHeaderVersion(header, someEntryHasId(parsed.values.slice(1)));
	const legacy = version.kind === "legacy" || (version.kind === "declared" && version.version < 2);
	const entries: FileEntry[] = [header];
	const seen = new Set<string>();
	// parseJsonlLenient drops blank lines, so line numbers for skipped entries are recovered lazily.
	let lineNumbers: number[] | undefined;
	const lineOf = (valueIndex: number): number => {
		lineNumbers ??= numberParsedLines(text);
		return lineNumbers[valueIndex] ?? 0;
	};
	for (let i = 1; i < parsed.values.length; i++) {
		const entry = parsed.values[i] as FileEntry & { id?: unknown };
		if (typeof entry.type !== "string") {
			skipped.push({ line: lineOf(i), message: "entry has no type" });
			continue;
		}
		const message = (entry as { message?: unknown }).message;
		if (entry.type === "message" && (message === null || message === undefined)) {
			skipped.push({ line: lineOf(i), message: MESSAGE_WITHOUT_MESSAGE });
			continue;
		}
		if (!legacy) {
			if (typeof entry.id !== "string") {
				skipped.push({ line: lineOf(i), message: "entry has no id" });
				continue;
			}
			if (seen.has(entry.id)) {
				skipped.push({ line: lineOf(i), message: `duplicate entry id ${entry.id}` });
				continue;
			}
			seen.add(entry.id);
		}
		entries.push(entry);
	}
	skipped.sort((a, b) => a.line - b.line);
	return {
		kind: "ok",
		entries,
		skipped,
		missingFinalNewline: parsed.missingFinalNewline,
		version,
	};
}

/** 1-based line numbers of the lines that parsed to objects, in order. */
function numberParsedLines(text: string): number[] {
	const numbers: number[] = [];
	const lines = text.split("\n");
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		if (line.trim().length === 0) continue;
		try {
			const value: unknown = JSON.parse(line);
			if (value !== null && typeof value === "object" && !Array.isArray(value)) numbers.push(i + 1);
		} catch {
			// unparseable lines are already reported by parseJsonlLenient
		}
	}
	return numbers;
}

/** Reads and parses a session file, telling a missing file from an empty or foreign one. */
export async function readSessionFile(path: string, storage: SessionStorage): Promise<SessionFileRead> {
	let text: string;
	try {
		text = await storage.readText(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
		throw error;
	}
	return parseSessionText(text);
}

/** The spec's loader: header + entries, or [] for a missing, empty or non-session file. */
export async function loadEntriesFromFile(
	path: string,
	storage: SessionStorage = new FileSessionStorage(),
): Promise<FileEntry[]> {
	const read = await readSessionFile(path, storage);
	return read.kind === "ok" ? read.entries : [];
}
