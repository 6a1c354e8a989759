import { resolve } from "node:path";
import type { ImportBatch } from "./import-batch.js";
import { skipReason } from "./import-plan.js";
import type { ImportOptions, ImportResult } from "./import-run.js";
import { planOpencode } from "./opencode.js";
import { OpencodeDatabase } from "./opencode-db.js";
import { importPlan } from "./plan-import.js";
import { fileStamp, readCounts, type StampBook, type StampedSession, sameFile, stillHolds } from "./source-stamp.js";
import { outcomeOf, resultOf } from "./stamp-results.js";

/** An import of a source whose stamp is written once the batch has written its records. */
export interface StampedImport {
	readonly results: ImportResult[];
	/** Stamps the source with the results as the batch settled them (same order and count). */
	readonly stamp?: (settled: readonly ImportResult[]) => void;
}

/**
 * Imports every session of an opencode database through `batch`, oldest first (a parent before
 * its subagents). A database unchanged since its stamp (it and its log) is not even copied; one
 * that changed is, and only its sessions whose marks moved are read.
 */
export async function importDatabase(
	path: string,
	options: ImportOptions,
	batch: ImportBatch,
	book: StampBook,
): Promise<StampedImport> {
	const source = resolve(path);
	// Taken before the copy: a change while it is read shows next time.
	const file = fileStamp(source);
	const wal = fileStamp(`${source}-wal`);
	const stamp = book.read(source, options);
	const known = stamp?.kind === "database" ? stamp : undefined;
	const prior = new Map<string, StampedSession>();
	for (const session of known?.sessions ?? []) if ("outcome" in session) prior.set(session.id, session);
	const holds = (session: StampedSession) => known !== undefined && stillHolds(session.outcome, known, options);
	if (
		known &&
		sameFile(known.file, file) &&
		sameFile(known.wal, wal) &&
		known.sessions.every((session) => "outcome" in session && holds(session))
	)
		return { results: (known.sessions as StampedSession[]).map((s) => resultOf(source, s.outcome, s.id)) };
	let db: OpencodeDatabase;
	try {
		db = OpencodeDatabase.open(source);
	} catch (error) {
		return { results: [{ status: "skipped", source, reason: skipReason(error) }] };
	}
	const parseOptions = { fallbackCwd: options.cwd, cwdGiven: options.cwdGiven };
	const results: ImportResult[] = [];
	let marks: Map<string, string>;
	try {
		marks = db.sessionMarks();
		for (const id of db.sessionIds()) {
			const before = prior.get(id);
			if (before && before.mark === marks.get(id) && holds(before)) {
				results.push(resultOf(source, before.outcome, id));
				continue;
			}
			try {
				readCounts.databaseSessions++;
				const plan = planOpencode(db.readSession(id), source, parseOptions);
				results.push({ ...(await importPlan(plan, source, options, batch)), sourceSession: id });
			} catch (error) {
				results.push({ status: "skipped", source, sourceSession: id, reason: skipReason(error) });
			}
		}
	} finally {
		db.close();
	}
	if (file === null) return { results };
	const stampWith = (settled: readonly ImportResult[]) => {
		const sessions = settled.map((result) => {
			const id = result.sourceSession ?? "";
			const outcome = outcomeOf(result);
			const mark = marks.get(id);
			return outcome && mark !== undefined ? { id, mark, outcome } : { id };
		});
		book.write({ kind: "database", path: source, file, wal, sessions }, options);
	};
	return { results, stamp: stampWith };
}
