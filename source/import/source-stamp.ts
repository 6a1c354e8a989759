import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { PRIVATE_FILE_MODE } from "../private-files.js";
import { type CwdOrigin, IMPORTER_VERSION, type SourceTool } from "./import-plan.js";
import { hasImportRecord, importsDir } from "./import-record.js";
import { isStorageSessionFile } from "./opencode-storage.js";
import { NO_REPLY } from "./plan-status.js";

/*
 * What the last import made of each source, kept by the source's path beside the import records
 * (`imports/sources.json`), so an import with nothing new reads no source. A file counts as unchanged
 * when its size, mtime and inode are as they were, as the session index decides (source/index/
 * session-scan.ts `isUnchanged`): sources are appended to or rewritten (a new inode when renamed
 * over). An opencode database changes whenever any session does: there each session is compared by
 * its row's `time_updated` and its messages' count and latest `time_updated`. A stamp is taken
 * before the source is read and written only once the import's records are, so a source that
 * changed while it was read is read again next time. A stamp of another importer is ignored: a
 * new mapping reads every source again.
 */

/** Sources this process read and parsed (files, database sessions): an import with nothing new reads none. */
export const readCounts = { files: 0, databaseSessions: 0 };

/** What a stat says of a file that tells a change. */
export interface FileStamp {
	readonly size: number;
	readonly mtimeMs: number;
	readonly ino: number;
}

/** What importing a source (or a database session) gave, said again while it is unchanged. */
export type StampedOutcome =
	| {
			readonly kind: "session";
			readonly tool: SourceTool;
			readonly sourceId: string;
			readonly sessionFile: string;
			readonly cwd: string;
			readonly cwdFrom: CwdOrigin;
			readonly badLines: readonly number[];
	  }
	| { readonly kind: "skipped"; readonly reason: string };

/** The options an outcome depends on. */
export interface StampOptions {
	readonly from: SourceTool | "auto";
	readonly cwd: string;
	readonly cwdGiven: boolean;
}

interface StampBase extends StampOptions {
	readonly version: 1;
	readonly importer: string;
	readonly path: string;
}

/** One database session: its mark (see `OpencodeDatabase.sessionMarks`) and outcome. */
export interface StampedSession {
	readonly id: string;
	readonly mark: string;
	readonly outcome: StampedOutcome;
}

/** The stamp of a source file, or of an opencode database (with its write-ahead log). */
export type SourceStamp =
	| (StampBase & { readonly kind: "file"; readonly file: FileStamp; readonly outcome: StampedOutcome })
	| (StampBase & {
			readonly kind: "database";
			readonly file: FileStamp;
			readonly wal: FileStamp | null;
			/** Every session, in import order (one whose import failed has no outcome). */
			readonly sessions: readonly (StampedSession | { readonly id: string })[];
	  });

/** The size, mtime and inode of a file, or null when it cannot be stat'ed. */
export function fileStamp(path: string): FileStamp | null {
	try {
		const { size, mtimeMs, ino } = statSync(path);
		return { size, mtimeMs, ino };
	} catch {
		return null;
	}
}

/** True when both stamps are of the same unchanged file (two nulls: both missing). */
export function sameFile(a: FileStamp | null, b: FileStamp | null): boolean {
	if (a === null || b === null) return a === b;
	return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/**
 * True for a source a stamp can stand for: an opencode storage session file is not (its messages
 * are files of their own, elsewhere in the tree, whose changes its stat does not show).
 */
export function stampable(path: string): boolean {
	return !isStorageSessionFile(basename(path));
}

/** Where the stamps live: one file, read once and written once per import. */
function bookPath(): string {
	return join(importsDir(), "sources.json");
}

function readBook(): Record<string, SourceStamp> {
	try {
		const parsed = JSON.parse(readFileSync(bookPath(), "utf8")) as { version?: unknown; stamps?: unknown };
		return parsed.version === 1 && typeof parsed.stamps === "object" && parsed.stamps !== null
			? (parsed.stamps as Record<string, SourceStamp>)
			: {};
	} catch {
		return {};
	}
}

/** A stamp as its maker gives it (the importer and options are added when it is written). */
export type NewStamp =
	| Omit<Extract<SourceStamp, { kind: "file" }>, keyof StampBase>
	| Omit<Extract<SourceStamp, { kind: "database" }>, keyof StampBase>;

/**
 * Every source's stamp, by path: read when an import starts, saved when it ends. Two imports at
 * once may each save over the other's new stamps; a source whose stamp was lost is only read
 * again (and found unchanged by its record).
 */
export class StampBook {
	readonly #stamps: Record<string, SourceStamp>;
	readonly #written = new Map<string, SourceStamp>();

	private constructor(stamps: Record<string, SourceStamp>) {
		this.#stamps = stamps;
	}

	/** The stamps on disk now (none when there are none or they cannot be read). */
	static load(): StampBook {
		return new StampBook(readBook());
	}

	/** The stamp of the last import of `source` by this importer with these options, if any. */
	read(source: string, options: StampOptions): SourceStamp | undefined {
		const stamp = this.#written.get(source) ?? this.#stamps[source];
		if (stamp?.version !== 1 || stamp.importer !== IMPORTER_VERSION || stamp.path !== source) return undefined;
		return stamp.from === options.from ? stamp : undefined;
	}

	/** Stamps a source (saved by `save`). */
	write(stamp: NewStamp & { readonly path: string }, options: StampOptions): void {
		const { from, cwd, cwdGiven } = options;
		this.#written.set(stamp.path, { version: 1, importer: IMPORTER_VERSION, from, cwd, cwdGiven, ...stamp });
	}

	/**
	 * Saves the new stamps over what is on disk now (temp file, then rename: a torn book is never
	 * read). Never throws: without its stamp a source is only read again next time.
	 */
	save(): void {
		if (this.#written.size === 0) return;
		const path = bookPath();
		const temp = `${path}.${process.pid}.tmp`;
		try {
			const stamps = { ...readBook(), ...Object.fromEntries(this.#written) };
			mkdirSync(importsDir(), { recursive: true, mode: 0o700 });
			writeFileSync(temp, JSON.stringify({ version: 1, stamps }), { mode: PRIVATE_FILE_MODE });
			renameSync(temp, path);
			this.#written.clear();
		} catch {
			rmSync(temp, { force: true });
		}
	}
}

/**
 * True when an outcome still holds: its session and import record are there (either gone, and
 * the source is imported again), and a working directory the source does not keep is the one
 * asked for now.
 */
export function stillHolds(outcome: StampedOutcome, stamp: SourceStamp, options: StampOptions): boolean {
	switch (outcome.kind) {
		case "skipped":
			return true;
		case "session":
			if (outcome.cwdFrom !== "source" && (stamp.cwd !== options.cwd || stamp.cwdGiven !== options.cwdGiven))
				return false;
			return fileStamp(outcome.sessionFile) !== null && hasImportRecord(outcome.tool, outcome.sourceId);
		default: {
			const exhaustive: never = outcome;
			throw new Error(`unknown stamped outcome ${String(exhaustive)}`);
		}
	}
}

/** Reasons a source is skipped that come from what it holds (not from a failure to read or write it). */
const CONTENT_REASONS = new Set(["empty file", "no entries in it", NO_REPLY]);

/** True for a skip reason a stamp may say again: the source gives it whenever it is read as it is. */
export function isContentReason(reason: string): boolean {
	return CONTENT_REASONS.has(reason) || reason.startsWith("not a session of a known tool");
}
