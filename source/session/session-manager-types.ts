/** Why a session is open read-only: another xcsh has it, or its header is damaged (`xcsh doctor --fix`). */
export type ReadOnlyReason = "held-elsewhere" | "damaged-header";

/** How `open` / `setSessionFile` open a file. */
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
}

/** The result of `fork()`. */
export interface ForkResult {
	previousSessionFile: string | undefined;
	sessionFile: string;
}
