import { existsSync, utimesSync } from "node:fs";
import type { SessionManager } from "../session/session-manager.js";
import { digestOf } from "./entry-lines.js";
import type { ImportBatch } from "./import-batch.js";
import {
	IMPORT_CUSTOM_TYPE,
	IMPORTER_VERSION,
	type ImportPlan,
	type PlanItem,
	SkipError,
	type SourceTool,
} from "./import-plan.js";
import {
	type ImportRecord,
	type ImportRecordV1,
	readImportRecord,
	recordedIds,
	writeImportRecord,
} from "./import-record.js";
import { appendOrder, buildNewSession, lastTime, newSession } from "./new-session.js";
import { hasReply, NO_REPLY, planStatus } from "./plan-status.js";

/** What importing one source session did (or, with `dryRun`, would do). */
export type WriteOutcome =
	| { kind: "imported"; sessionFile: string; entries: number }
	| { kind: "appended"; sessionFile: string; entries: number }
	| { kind: "unchanged"; sessionFile: string; entries: 0 }
	/** The source changed in a way that cannot be appended: a new session, with a note. */
	| {
			kind: "reimported";
			sessionFile: string;
			previousSessionFile: string;
			entries: number;
			/** The importer of the earlier import, when it was another (which mapped the source differently). */
			previousImporter?: string;
	  };

/** Where a dry run says a session would go before it exists. */
export const NEW_SESSION = "(new session)";

/** Appends items to a session, mapping source keys to entry ids in `ids`; returns how many. */
export function appendItems(
	manager: SessionManager,
	items: readonly PlanItem[],
	ids: Map<string, string>,
	root: string,
	setTime: (iso: string) => void,
): number {
	let written = 0;
	for (const item of items) {
		const parentId = item.parent === null ? root : (ids.get(item.parent) ?? root);
		setTime(item.timestamp);
		let id: string;
		const body = item.body;
		if (body.kind === "branchSummary") id = manager.branchWithSummary(parentId, body.summary, body.details);
		else {
			manager.branch(parentId);
			switch (body.kind) {
				case "message":
					id = manager.appendMessage(body.message);
					break;
				case "hidden":
					id = manager.appendCustomMessageEntry(IMPORT_CUSTOM_TYPE, body.content, false, body.details);
					break;
				case "model":
					id = manager.appendModelChange(body.model);
					break;
				case "thinking":
					id = manager.appendThinkingLevelChange(body.level);
					break;
				case "compaction": {
					const kept = body.firstKeptKey === null ? undefined : ids.get(body.firstKeptKey);
					id = manager.appendCompaction(body.summary, undefined, kept ?? "", body.tokensBefore, body.details);
					break;
				}
				case "label": {
					const target = ids.get(body.targetKey);
					id = target
						? manager.appendLabelChange(target, body.label)
						: manager.appendCustomEntry(IMPORT_CUSTOM_TYPE, { label: body.label, targetKey: body.targetKey });
					break;
				}
				case "custom":
					id = manager.appendCustomEntry(body.customType, body.data);
					break;
				default: {
					const exhaustive: never = body;
					throw new Error(`unknown plan item ${String(exhaustive)}`);
				}
			}
		}
		ids.set(item.key, id);
		written++;
	}
	return written;
}

/** The session file's time is the source's last activity, so the picker lists imports where they happened. */
function dateFile(file: string, plan: ImportPlan): void {
	const ms = lastTime(plan);
	if (ms > 0) utimesSync(file, new Date(ms), new Date(ms));
}

/** The xcsh session a source session was imported into (earlier, or in this batch), if it was. */
export function importedSessionFile(tool: SourceTool, sourceId: string, batch: ImportBatch): string | undefined {
	const record = readImportRecord(tool, sourceId);
	return (
		batch.sessionFileOf({ tool, sourceId }) ??
		(record && existsSync(record.sessionFile) ? record.sessionFile : undefined)
	);
}

/** A new session for the plan, written whole through the batch; returns its file. */
async function writeNew(plan: ImportPlan, batch: ImportBatch, note?: string): Promise<string> {
	// A subagent session points at its parent's xcsh session when that was imported (before, or in this batch).
	const parent =
		plan.parentSourceId === undefined ? undefined : importedSessionFile(plan.tool, plan.parentSourceId, batch);
	const session = newSession(plan, note, parent);
	await batch.add(session.file, session.mtimeMs, (sink) => buildNewSession(plan, session, sink));
	return session.file;
}

/** Appends the fresh items to the earlier import's session; returns the record it now has (always v2). */
async function appendNew(
	plan: ImportPlan,
	record: ImportRecord | ImportRecordV1,
	fresh: readonly PlanItem[],
): Promise<ImportRecord> {
	// Loaded only to append: a first import never opens a session, and the module is a large part of the start.
	const { SessionManager } = await import("../session/session-manager.js");
	const manager = await SessionManager.open(record.sessionFile, { breadcrumb: false, mustExist: true });
	try {
		let now = plan.startedAt;
		manager.setClock(() => now);
		const ids = recordedIds(record);
		const root = manager.getEntries()[0]?.id ?? "";
		const order = appendOrder({ ...plan, items: fresh });
		appendItems(manager, order, ids, root, (iso) => {
			now = iso;
		});
		await manager.flush();
		// Every item of the plan is recorded now: the digest is of all of them.
		const entries: Record<string, string> = {};
		for (const item of plan.items) entries[item.key] = ids.get(item.key)!;
		const { tool, sourceId, sessionFile, importer } = record;
		return {
			version: 2,
			tool,
			sourceId,
			sourcePath: plan.sourcePath,
			sessionFile,
			importer,
			entries,
			itemsDigest: digestOf(plan.items),
		};
	} finally {
		await manager.close();
	}
}

/**
 * Writes a plan as a native session: new (written whole through `batch`, on disk once the batch
 * finishes), appended to its earlier import, unchanged, or anew.
 */
export async function writePlan(
	plan: ImportPlan,
	options: { dryRun: boolean },
	batch: ImportBatch,
): Promise<WriteOutcome> {
	// An earlier import of this source still in the batch: its record must exist before it is compared.
	if (batch.holds(plan)) throw new BatchPending();
	const status = planStatus(plan);
	if (status.kind === "unchanged") return { kind: "unchanged", sessionFile: status.record.sessionFile, entries: 0 };
	if (status.kind === "grown") {
		const { record, fresh } = status;
		if (!options.dryRun) writeImportRecord(await appendNew(plan, record, fresh));
		if (!options.dryRun) dateFile(record.sessionFile, plan);
		return { kind: "appended", sessionFile: record.sessionFile, entries: fresh.length };
	}
	const previous = status.previous;
	if (!hasReply(plan)) throw new SkipError(NO_REPLY);
	const entries = plan.items.length + 1;
	// An import by another importer whose items differ: the mapping changed (the source may not have).
	const older = previous && previous.importer !== IMPORTER_VERSION ? { previousImporter: previous.importer } : {};
	if (options.dryRun) {
		return previous
			? { kind: "reimported", sessionFile: NEW_SESSION, previousSessionFile: previous.sessionFile, entries, ...older }
			: { kind: "imported", sessionFile: NEW_SESSION, entries };
	}
	const note = !previous
		? undefined
		: older.previousImporter
			? `Imported again by ${IMPORTER_VERSION}, which maps this source differently from ${older.previousImporter} (its import into ${previous.sessionFile} is left as it was).`
			: `The source changed since it was imported into ${previous.sessionFile}; imported again as a new session.`;
	const sessionFile = await writeNew(plan, batch, note);
	return previous
		? { kind: "reimported", sessionFile, previousSessionFile: previous.sessionFile, entries, ...older }
		: { kind: "imported", sessionFile, entries };
}

/** Thrown by `writePlan` when the batch must finish before this plan can be written. */
export class BatchPending extends Error {}
