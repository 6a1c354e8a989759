import { existsSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { createSessionId } from "../session/ids.js";
import { SessionManager } from "../session/session-manager.js";
import { getDefaultSessionDir, sessionFileName } from "../session/session-paths.js";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "../session/types.js";
import { buildSessionLines, itemHash } from "./entry-lines.js";
import type { ImportBatch } from "./import-batch.js";
import { IMPORT_CUSTOM_TYPE, IMPORTER_VERSION, type ImportPlan, type PlanItem, SkipError } from "./import-plan.js";
import { type ImportRecord, readImportRecord, writeImportRecord } from "./import-record.js";

/** What importing one source session did (or, with `dryRun`, would do). */
export type WriteOutcome =
	| { kind: "imported"; sessionFile: string; entries: number }
	| { kind: "appended"; sessionFile: string; entries: number }
	| { kind: "unchanged"; sessionFile: string; entries: 0 }
	/** The source changed in a way that cannot be appended: a new session, with a note. */
	| { kind: "reimported"; sessionFile: string; previousSessionFile: string; entries: number };

/** Where a dry run says a session would go before it exists. */
export const NEW_SESSION = "(new session)";

/** The items in the order they are written: the main line's leaf last, so it is the leaf on reload. */
export function appendOrder(plan: ImportPlan): readonly PlanItem[] {
	const leaf = plan.leafKey;
	if (leaf === undefined || plan.items.at(-1)?.key === leaf) return plan.items;
	if (plan.items.some((item) => item.parent === leaf)) return plan.items;
	const leafItem = plan.items.find((item) => item.key === leaf);
	return leafItem ? [...plan.items.filter((item) => item !== leafItem), leafItem] : plan.items;
}

function hasReply(plan: ImportPlan): boolean {
	return plan.items.some((item) => item.body.kind === "message" && item.body.message.role === "assistant");
}

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

function recordFor(plan: ImportPlan, sessionFile: string, entries: ImportRecord["entries"]): ImportRecord {
	return {
		version: 1,
		tool: plan.tool,
		sourceId: plan.sourceId,
		sourcePath: plan.sourcePath,
		sessionFile,
		importer: IMPORTER_VERSION,
		entries,
	};
}

function lastTime(plan: ImportPlan): number {
	let latest = Date.parse(plan.startedAt) || 0;
	for (const item of plan.items) {
		const ms = Date.parse(item.timestamp);
		if (ms > latest) latest = ms;
	}
	return latest;
}

/** The session file's time is the source's last activity, so the picker lists imports where they happened. */
function dateFile(file: string, plan: ImportPlan): void {
	const ms = lastTime(plan);
	if (ms > 0) utimesSync(file, new Date(ms), new Date(ms));
}

function parentSessionFile(plan: ImportPlan, batch: ImportBatch): string | undefined {
	const source = { tool: plan.tool, sourceId: plan.parentSourceId! };
	const record = readImportRecord(source.tool, source.sourceId);
	return batch.sessionFileOf(source) ?? (record && existsSync(record.sessionFile) ? record.sessionFile : undefined);
}

/** A new session for the plan, written whole through the batch; returns its file. */
async function writeNew(plan: ImportPlan, batch: ImportBatch, note?: string): Promise<string> {
	const id = createSessionId();
	const header: SessionHeader = {
		type: "session",
		version: CURRENT_SESSION_VERSION,
		id,
		timestamp: plan.startedAt,
		cwd: plan.cwd,
	};
	if (plan.title) header.title = plan.title;
	// A subagent session points at its parent's xcsh session when that was imported (before, or in this batch).
	const parent = plan.parentSourceId === undefined ? undefined : parentSessionFile(plan, batch);
	if (parent) header.parentSession = parent;
	const file = join(getDefaultSessionDir(plan.cwd), sessionFileName(plan.startedAt, id));
	const provenance = {
		kind: "provenance",
		tool: plan.tool,
		sourcePath: plan.sourcePath,
		sourceId: plan.sourceId,
		importer: IMPORTER_VERSION,
		importedAt: new Date().toISOString(),
		cwdFrom: plan.cwdOrigin,
		...(plan.badLines.length > 0 ? { unreadableLines: plan.badLines } : {}),
		...(plan.parentSourceId !== undefined ? { parentSourceId: plan.parentSourceId } : {}),
		...(plan.sourceInfo ? { source: plan.sourceInfo } : {}),
		...(note ? { note } : {}),
	};
	await batch.add(file, lastTime(plan), (sink) => {
		const built = buildSessionLines(header, { timestamp: plan.startedAt, data: provenance }, appendOrder(plan), sink);
		return { record: recordFor(plan, file, built.entries), blobs: built.blobs };
	});
	return file;
}

async function appendNew(
	plan: ImportPlan,
	record: ImportRecord,
	fresh: readonly PlanItem[],
	hashes: Map<PlanItem, string>,
): Promise<void> {
	const manager = await SessionManager.open(record.sessionFile, { breadcrumb: false, mustExist: true });
	try {
		let now = plan.startedAt;
		manager.setClock(() => now);
		const ids = new Map(Object.entries(record.entries).map(([key, [id]]) => [key, id]));
		const root = manager.getEntries()[0]?.id ?? "";
		const order = appendOrder({ ...plan, items: fresh });
		appendItems(manager, order, ids, root, (iso) => {
			now = iso;
		});
		await manager.flush();
		for (const item of fresh) record.entries[item.key] = [ids.get(item.key)!, hashes.get(item)!];
		record.sourcePath = plan.sourcePath;
	} finally {
		await manager.close();
	}
}

/** The import record's view of a plan: which items are new, and whether the old ones still match. */
function compare(plan: ImportPlan, record: ImportRecord, hashes: Map<PlanItem, string>) {
	const fresh: PlanItem[] = [];
	let matched = 0;
	let compatible = true;
	for (const item of plan.items) {
		const seen = record.entries[item.key];
		if (!seen) fresh.push(item);
		else if (seen[1] === hashes.get(item)) matched++;
		else compatible = false;
	}
	if (matched !== Object.keys(record.entries).length) compatible = false;
	return { fresh, compatible };
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
	const record = readImportRecord(plan.tool, plan.sourceId);
	const previous = record && existsSync(record.sessionFile) ? record : undefined;
	if (previous) {
		const hashes = new Map(plan.items.map((item) => [item, itemHash(item)] as const));
		const { fresh, compatible } = compare(plan, previous, hashes);
		if (compatible && fresh.length === 0) return { kind: "unchanged", sessionFile: previous.sessionFile, entries: 0 };
		if (compatible) {
			if (!options.dryRun) await appendNew(plan, previous, fresh, hashes);
			if (!options.dryRun) writeImportRecord(previous);
			if (!options.dryRun) dateFile(previous.sessionFile, plan);
			return { kind: "appended", sessionFile: previous.sessionFile, entries: fresh.length };
		}
	}
	if (!hasReply(plan)) throw new SkipError("no assistant reply in it (xcsh keeps only sessions with one)");
	const entries = plan.items.length + 1;
	if (options.dryRun) {
		return previous
			? { kind: "reimported", sessionFile: NEW_SESSION, previousSessionFile: previous.sessionFile, entries }
			: { kind: "imported", sessionFile: NEW_SESSION, entries };
	}
	const note = previous
		? `The source changed since it was imported into ${previous.sessionFile}; imported again as a new session.`
		: undefined;
	const sessionFile = await writeNew(plan, batch, note);
	return previous
		? { kind: "reimported", sessionFile, previousSessionFile: previous.sessionFile, entries }
		: { kind: "imported", sessionFile, entries };
}

/** Thrown by `writePlan` when the batch must finish before this plan can be written. */
export class BatchPending extends Error {}
