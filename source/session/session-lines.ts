import { mayStayOnDisk, pushSkeleton, SKELETON_FIELDS, SkeletonColumns } from "./lazy-entry.js";
import type { ScannedLine } from "./line-scan.js";
import { skimJsonLine } from "./line-skim.js";
import { RowIds } from "./row-ids.js";
import { checkHeaderVersion, isSessionHeader, type VersionCheck } from "./session-header.js";
import {
	CURRENT_SESSION_VERSION,
	type FileEntry,
	type JsonlLineError,
	type SessionHeader,
	type StoredEntry,
} from "./types.js";

/** Why a `message` entry that holds no message is skipped (the doctor uses the same words). */
export const MESSAGE_WITHOUT_MESSAGE = "message entry has no message object";

/**
 * What reading a session found. `E` is what the entries are held as: parsed objects, or (a big v3
 * file read lazily) the rows of one `SkeletonColumns`.
 */
export type SessionRead<E> =
	| { kind: "empty" }
	| { kind: "invalid"; reason: string }
	| {
			kind: "ok";
			header: SessionHeader;
			/** Entries in file order (header excluded). */
			entries: E;
			/** Lines that were skipped: unparseable, too long, not objects, without a type or id, or duplicate ids. */
			skipped: JsonlLineError[];
			/** The file does not end with a newline: the next append must start a new line first. */
			missingFinalNewline: boolean;
			/** What the header's version says, read with the entries (a damaged one keeps the tree). */
			version: VersionCheck;
	  };

/** Why a parser made with `skeletonsOnly` stopped at the header. */
export const NOT_SKELETONS = "not a current-version session (its entries cannot be skeletons)";

/** The words for a line longer than anything that can be decoded. */
export function tooLongLine(bytes: number): string {
	return `line is ${bytes.toLocaleString("en-US")} bytes, too long to read; left in the file untouched`;
}

function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Turns a session's lines into its header and entries with the loader's rules: the first non-blank
 * line must be a header; unreadable lines are skipped and reported; entries of v2+ files need a
 * unique string id (v1 entries get theirs from the migration). With `lazy`, a v3 file's big
 * entries are kept as skeleton rows (`SkeletonColumns`) whose bodies stay on disk.
 */
export class SessionLineParser {
	readonly #lazy: boolean;
	readonly #skeletonsOnly: boolean;
	#header: SessionHeader | undefined;
	#invalid: string | undefined;
	/** Entries held as objects (a small file, or one a skeleton cannot be made of). */
	#entries: StoredEntry[] = [];
	/** Line number of each entry, for the id checks a header without a version defers. */
	readonly #lines: number[] = [];
	readonly #skipped: JsonlLineError[] = [];
	#idsChecked = true;
	#someId = false;
	/** Ids taken so far (entries kept as objects). */
	#seen: Set<string> | undefined;
	/** Ids of the skeleton rows; for a resumed skeleton, indexed only when a line after it needs the check. */
	#rowIds: RowIds | undefined;
	/** Where this load's skeletons are rows (made on the first one, or the resumed cache's). */
	#columns: SkeletonColumns | undefined;

	/** `skeletonsOnly`: a file that is not v3 (whose entries would all be objects) stops at its header, as not a session. */
	constructor(options: { lazy?: boolean; skeletonsOnly?: boolean } = {}) {
		this.#lazy = options.lazy === true;
		this.#skeletonsOnly = options.skeletonsOnly === true;
	}

	/** A parser that goes on from a cached skeleton: the lines after it are read as if they followed. */
	static resume(
		header: SessionHeader,
		columns: SkeletonColumns,
		skipped: readonly JsonlLineError[],
	): SessionLineParser {
		const parser = new SessionLineParser({ lazy: true });
		parser.#header = header;
		parser.#columns = columns;
		for (const line of skipped) parser.#skipped.push(line);
		parser.#someId = columns.size > 0;
		return parser;
	}

	/** False once the file is known not to be a session (the scan can stop). */
	push(line: ScannedLine): boolean {
		if (this.#invalid) return false;
		if (line.raw && this.#pushSkimmed(line, line.raw)) return true;
		if (line.text !== null && line.text.trim().length === 0) return true;
		if (!this.#header) return this.#pushHeader(line);
		if (line.text === null) {
			this.#skipped.push({ line: line.number, message: tooLongLine(line.length) });
			return true;
		}
		let value: unknown;
		try {
			value = JSON.parse(line.text);
		} catch (error) {
			this.#skipped.push({ line: line.number, message: describeError(error) });
			return true;
		}
		if (value === null || typeof value !== "object" || Array.isArray(value)) {
			this.#skipped.push({ line: line.number, message: "not a JSON object" });
			return true;
		}
		this.#pushEntry(value as StoredEntry & { id?: unknown }, line);
		return true;
	}

	/**
	 * A skeleton row from a long line's skim (`skimJsonLine`): its long strings are never decoded.
	 * False when the line must be parsed whole: no skeleton is made of it, its body is kept, or the
	 * skim cannot vouch for it (the whole parse then gives its error).
	 */
	#pushSkimmed(line: ScannedLine, raw: Buffer): boolean {
		if (!this.#lazy || this.#header?.version !== CURRENT_SESSION_VERSION) return false;
		const text = skimJsonLine(raw, SKELETON_FIELDS);
		if (text === undefined) return false;
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			return false;
		}
		if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
		if (!mayStayOnDisk(value as StoredEntry)) return false;
		this.#pushEntry(value as StoredEntry & { id?: unknown }, line);
		return true;
	}

	#pushHeader(line: ScannedLine): boolean {
		let value: unknown;
		try {
			value = line.text === null ? undefined : JSON.parse(line.text);
		} catch {
			value = undefined;
		}
		if (value === undefined) this.#invalid = "first line is not valid JSON";
		else if (!isSessionHeader(value)) this.#invalid = "first line is not a session header";
		else if (this.#skeletonsOnly && value.version !== CURRENT_SESSION_VERSION) this.#invalid = NOT_SKELETONS;
		else {
			this.#header = value;
			// A header without a numeric version is v1 unless some entry carries an id: decided at the end.
			this.#idsChecked = typeof value.version === "number";
		}
		return this.#invalid === undefined;
	}

	#pushEntry(entry: StoredEntry & { id?: unknown }, line: ScannedLine): void {
		if (typeof entry.type !== "string") {
			this.#skipped.push({ line: line.number, message: "entry has no type" });
			return;
		}
		const message = (entry as { message?: unknown }).message;
		if (entry.type === "message" && (message === null || message === undefined)) {
			this.#skipped.push({ line: line.number, message: MESSAGE_WITHOUT_MESSAGE });
			return;
		}
		if (typeof entry.id === "string") this.#someId = true;
		if (!this.#idsChecked) {
			this.#entries.push(entry);
			this.#lines.push(line.number);
			return;
		}
		const version = this.#header!.version;
		if (typeof version === "number" && version < 2) {
			this.#entries.push(entry);
			return;
		}
		// A big v3 file: every entry keeps where its line is (rewrites copy the line); small ones stay in memory too.
		const skeleton = this.#lazy && version === CURRENT_SESSION_VERSION;
		if (!skeleton) {
			if (this.#acceptId(entry, line.number)) this.#entries.push(entry);
			return;
		}
		this.#columns ??= new SkeletonColumns();
		if (!this.#acceptRowId(entry, line.number, this.#columns)) return;
		const row = pushSkeleton(this.#columns, entry, line.offset, line.length, !mayStayOnDisk(entry));
		this.#rowIds!.add(row, entry.id as string);
	}

	/** `#acceptId` for a skeleton row: ids are looked up through the rows, not kept as a set of strings. */
	#acceptRowId(entry: { id?: unknown }, line: number, columns: SkeletonColumns): boolean {
		if (typeof entry.id !== "string") {
			this.#skipped.push({ line, message: "entry has no id" });
			return false;
		}
		// A warm open with nothing appended never indexes the half a million ids.
		this.#rowIds ??= new RowIds(columns);
		if (this.#rowIds.has(entry.id)) {
			this.#skipped.push({ line, message: `duplicate entry id ${entry.id}` });
			return false;
		}
		return true;
	}

	#acceptId(entry: { id?: unknown }, line: number): boolean {
		if (typeof entry.id !== "string") {
			this.#skipped.push({ line, message: "entry has no id" });
			return false;
		}
		this.#seen ??= new Set();
		if (this.#seen.has(entry.id)) {
			this.#skipped.push({ line, message: `duplicate entry id ${entry.id}` });
			return false;
		}
		this.#seen.add(entry.id);
		return true;
	}

	/** The result once every line was pushed; `trim: false` leaves the columns' room (they are about to be encoded and dropped). */
	finish(missingFinalNewline: boolean, options: { trim?: boolean } = {}): SessionRead<StoredEntry[] | SkeletonColumns> {
		if (this.#invalid) return { kind: "invalid", reason: this.#invalid };
		const header = this.#header;
		if (!header) return { kind: "empty" };
		const version = checkHeaderVersion(header, this.#someId);
		let entries: StoredEntry[] | SkeletonColumns = this.#columns ?? this.#entries;
		if (!this.#idsChecked && version.kind !== "legacy") {
			// A damaged version over a tree: the same id rules as any v2+ file.
			entries = this.#entries.filter((entry, i) => this.#acceptId(entry as { id?: unknown }, this.#lines[i]!));
		}
		const skipped = this.#skipped.sort((a, b) => a.line - b.line);
		// Appends grow the columns again when they come; half a million rows of slack would stay otherwise.
		if (options.trim !== false) this.#columns?.trim();
		return { kind: "ok", header, entries, skipped, missingFinalNewline, version };
	}
}

/** Header first, then entries: the shape the spec's loader returns. */
export function fileEntriesOf(header: SessionHeader, entries: readonly StoredEntry[]): FileEntry[] {
	return [header, ...entries];
}
