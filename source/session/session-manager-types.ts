/** Why a session is open read-only: another xcsh has it, or its header is damaged (`xcsh doctor --fix`). */
export type ReadOnlyReason = "held-elsewhere" | "damaged-header";

/** How `open` / `setSessionFile` open a file. */
export interface OpenOptions {
	/** Browse without writing or locking (the session is open in another xcsh). */
	readOnly?: boolean;
}

/** The result of `fork()`. */
export interface ForkResult {
	previousSessionFile: string | undefined;
	sessionFile: string;
}
