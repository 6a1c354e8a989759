import type { LoadedState } from "./session-load-state.js";
import { SessionLockedError } from "./session-lock.js";
import type { ReadOnlyReason } from "./session-manager-types.js";
import type { SessionStorage } from "./session-storage.js";

/** A session lock a manager holds. */
export type HeldLock = { release: () => void; stillHeld: () => boolean };

/** Throws `SessionLockedError` when another xcsh has the file: asked before reading a file of gigabytes. */
export function refuseIfHeld(storage: SessionStorage, file: string): void {
	const holder = storage.lockHolder(file);
	if (holder) throw new SessionLockedError(file, holder);
}

/** Why a loaded file opens read-only: a damaged header is never written under (`xcsh doctor --fix` first). */
export function readOnlyReasonOf(
	loaded: LoadedState | undefined,
	readOnly: boolean | undefined,
): ReadOnlyReason | undefined {
	if (loaded?.report.headerProblem !== undefined) return "damaged-header";
	return readOnly === true ? "held-elsewhere" : undefined;
}

/** Takes the file's lock to write it, and removes copies a dead writer left (no rewrite runs under our lock). */
export function lockForWriting(storage: SessionStorage, file: string): HeldLock {
	const result = storage.lock(file);
	if (result.kind === "held") throw new SessionLockedError(file, result.holder);
	storage.removeStaleTemps(file);
	return result;
}
