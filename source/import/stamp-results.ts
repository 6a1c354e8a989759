import type { ImportResult } from "./import-run.js";
import {
	type FileStamp,
	isContentReason,
	type StampBook,
	type StampedOutcome,
	type StampOptions,
	sameFile,
	stampable,
	stillHolds,
} from "./source-stamp.js";

/** The result an unchanged source (or database session) gives again: what its stamp says. */
export function resultOf(source: string, outcome: StampedOutcome, sourceSession?: string): ImportResult {
	const within = sourceSession === undefined ? {} : { sourceSession };
	switch (outcome.kind) {
		case "skipped":
			return { status: "skipped", source, reason: outcome.reason, ...within };
		case "session":
			return {
				status: "unchanged",
				source,
				tool: outcome.tool,
				sourceId: outcome.sourceId,
				sessionFile: outcome.sessionFile,
				entries: 0,
				cwd: outcome.cwd,
				cwdFrom: outcome.cwdFrom,
				unreadableLines: [...outcome.badLines],
				...within,
			};
		default: {
			const exhaustive: never = outcome;
			throw new Error(`unknown stamped outcome ${String(exhaustive)}`);
		}
	}
}

/** What a stamp keeps of a result; undefined for one that must be tried again (a write or read failed). */
export function outcomeOf(result: ImportResult): StampedOutcome | undefined {
	if (result.status === "skipped")
		return isContentReason(result.reason) ? { kind: "skipped", reason: result.reason } : undefined;
	const { tool, sourceId, sessionFile, cwd, cwdFrom, unreadableLines } = result;
	return { kind: "session", tool, sourceId, sessionFile, cwd, cwdFrom, badLines: unreadableLines };
}

/** The result of a source file unchanged since its last import (by its stamp `now`, taken before any read), else undefined. */
export function knownFile(
	book: StampBook,
	path: string,
	now: FileStamp | null,
	options: StampOptions,
): ImportResult | undefined {
	if (now === null || !stampable(path)) return undefined;
	const stamp = book.read(path, options);
	if (stamp?.kind !== "file" || !sameFile(stamp.file, now) || !stillHolds(stamp.outcome, stamp, options))
		return undefined;
	return resultOf(path, stamp.outcome);
}

/** Stamps a source file with what its import gave (`now`: its stamp before it was read). */
export function stampFile(
	book: StampBook,
	path: string,
	now: FileStamp | null,
	result: ImportResult,
	options: StampOptions,
): void {
	const outcome = outcomeOf(result);
	if (now === null || outcome === undefined || !stampable(path)) return;
	book.write({ kind: "file", path, file: now, outcome }, options);
}
