import { createHash } from "node:crypto";
import { existsSync, utimesSync } from "node:fs";
import { SessionManager } from "../session/session-manager.js";
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

function hashOf(item: PlanItem): string {
	return createHash("sha1")
		.update(JSON.stringify([item.parent, item.timestamp, item.body]))
		.digest("base64url")
		.slice(0, 16);
}

/** The items in the order they are appended: the main line's leaf last, so it is the leaf on reload. */
function appendOrder(plan: ImportPlan): readonly PlanItem[] {
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
function appendItems(
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

function recordFor(plan: ImportPlan, sessionFile: string): ImportRecord {
	return {
		version: 1,
		tool: plan.tool,
		sourceId: plan.sourceId,
		sourcePath: plan.sourcePath,
		sessionFile,
		importer: IMPORTER_VERSION,
		entries: {},
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

async function writeNew(plan: ImportPlan, hashes: Map<PlanItem, string>, note?: string): Promise<ImportRecord> {
	let now = plan.startedAt;
	const manager = await SessionManager.create(plan.cwd, { clock: () => now, breadcrumb: false });
	try {
		if (plan.title) await manager.setSessionName(plan.title);
		const root = manager.appendCustomEntry(IMPORT_CUSTOM_TYPE, {
			kind: "provenance",
			tool: plan.tool,
			sourcePath: plan.sourcePath,
			sourceId: plan.sourceId,
			importer: IMPORTER_VERSION,
			importedAt: new Date().toISOString(),
			cwdFrom: plan.cwdOrigin,
			...(plan.badLines.length > 0 ? { unreadableLines: plan.badLines } : {}),
			...(note ? { note } : {}),
		});
		const ids = new Map<string, string>();
		appendItems(manager, appendOrder(plan), ids, root, (iso) => {
			now = iso;
		});
		await manager.flush();
		const file = manager.getSessionFile()!;
		const record = recordFor(plan, file);
		for (const item of plan.items) record.entries[item.key] = [ids.get(item.key)!, hashes.get(item)!];
		return record;
	} finally {
		await manager.close();
	}
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

/** Writes a plan as a native session: new, appended to its earlier import, unchanged, or anew. */
export async function writePlan(plan: ImportPlan, options: { dryRun: boolean }): Promise<WriteOutcome> {
	const hashes = new Map(plan.items.map((item) => [item, hashOf(item)] as const));
	const record = readImportRecord(plan.tool, plan.sourceId);
	const previous = record && existsSync(record.sessionFile) ? record : undefined;
	if (previous) {
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
	const written = await writeNew(plan, hashes, note);
	writeImportRecord(written);
	dateFile(written.sessionFile, plan);
	return previous
		? { kind: "reimported", sessionFile: written.sessionFile, previousSessionFile: previous.sessionFile, entries }
		: { kind: "imported", sessionFile: written.sessionFile, entries };
}
