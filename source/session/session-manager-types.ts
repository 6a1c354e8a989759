import type { NewestFirst } from "./session-continue.js";
import type { ReadProgress } from "./session-loader.js";
import type { SessionStorage } from "./session-storage.js";

/** Why a session is open read-only: another xcsh has it, or its header is damaged (`xcsh doctor --fix`). */
export type ReadOnlyReason = "held-elsewhere" | "damaged-header";

/** Where a session's files live: the project's session directory and the storage behind it. */
export interface StorageOptions {
	/** The directory new session files go to (default: the project's directory under the agent dir). */
	sessionDir?: string;
	/** The file system to use (default: the real one, `FileSessionStorage`). */
	storage?: SessionStorage;
	/** Files bigger than this keep their big bodies on disk, read on demand (default 64 MiB, or `XCSH_LAZY_ABOVE_BYTES`). */
	lazyAboveBytes?: number;
}

/** How `continueRecent` finds the newest sessions of a directory. */
export interface ContinueOptions extends StorageOptions {
	/**
	 * Session files of `sessionDir`, newest first. Default: their 4 KB prefixes (`getRecentSessions`);
	 * the CLI passes the session index's listing, which is faster on large directories.
	 */
	newestFirst?: NewestFirst;
	/** Reports reading the session (a big one takes a while) and stops it when aborted. */
	progress?: ReadProgress;
}

/** How `setSessionFile` opens a file. */
export interface OpenOptions {
	/** Browse without writing or locking (the session is open in another xcsh). */
	readOnly?: boolean;
	/**
	 * Record the file as this terminal's last session, for `--continue` (default true). False for a
	 * session opened only to change it, such as a rename from the picker.
	 */
	breadcrumb?: boolean;
	/** Throw `Session file not found` for a missing file instead of starting a new session at that path. */
	mustExist?: boolean;
	/** Progress of reading a big file, and a signal that cancels it. */
	progress?: ReadProgress;
}

/** How `SessionManager.open` opens a file: where, and how. */
export interface OpenFileOptions extends StorageOptions, OpenOptions {}

/** The result of `fork()`. */
export interface ForkResult {
	previousSessionFile: string | undefined;
	sessionFile: string;
}

/** How `SessionManager.create` starts a session. */
export interface CreateOptions extends StorageOptions {
	/** Dates the header and every entry (an import replays another tool's times); default now. */
	clock?: () => string;
	/** false: leaves this terminal's `--continue` target alone. */
	breadcrumb?: boolean;
}
