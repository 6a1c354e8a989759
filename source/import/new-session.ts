import { join } from "node:path";
import type { PendingBlob } from "../session/blob-refs.js";
import { createSessionId } from "../session/ids.js";
import { getDefaultSessionDir, sessionFileName } from "../session/session-paths.js";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "../session/types.js";
import { buildSessionLines, type LineSink } from "./entry-lines.js";
import { IMPORTER_VERSION, type ImportPlan, type PlanHead, type PlanItem } from "./import-plan.js";
import type { ImportRecord } from "./import-record.js";

/** A new session for a plan before its lines are built: its header, file and first (provenance) entry's data. */
export interface NewSession {
	readonly header: SessionHeader;
	readonly file: string;
	readonly provenance: Record<string, unknown>;
	/** The source's last activity (epoch ms), the file's time. */
	readonly mtimeMs: number;
}

/** The items in the order they are written: the main line's leaf last, so it is the leaf on reload. */
export function appendOrder(plan: ImportPlan): readonly PlanItem[] {
	const leaf = plan.leafKey;
	if (leaf === undefined || plan.items.at(-1)?.key === leaf) return plan.items;
	if (plan.items.some((item) => item.parent === leaf)) return plan.items;
	const leafItem = plan.items.find((item) => item.key === leaf);
	return leafItem ? [...plan.items.filter((item) => item !== leafItem), leafItem] : plan.items;
}

/** The source's last activity, in epoch ms (0 when no time parses). */
export function lastTime(plan: ImportPlan): number {
	const latest = new LatestTime();
	latest.see(plan.startedAt);
	for (const item of plan.items) latest.see(item.timestamp);
	return latest.ms();
}

/** The latest of the times it is shown, in epoch ms (0 when none parses). */
export class LatestTime {
	#latest = 0;
	// Times in toISOString's form order as strings: only the latest of them is parsed.
	#latestIso = "";

	see(iso: string): void {
		if (isUtcIso(iso)) {
			if (iso > this.#latestIso) this.#latestIso = iso;
			return;
		}
		const ms = Date.parse(iso);
		if (ms > this.#latest) this.#latest = ms;
	}

	ms(): number {
		const ms = this.#latestIso === "" ? 0 : Date.parse(this.#latestIso);
		return Math.max(ms, this.#latest);
	}
}

/** What toISOString writes for years 0–9999, all in UTC: such strings order as their times do. */
const UTC_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function isUtcIso(iso: string): boolean {
	return iso.length === 24 && UTC_ISO.test(iso);
}

/** The import record of a plan written to `sessionFile`. */
export function recordFor(
	plan: PlanHead,
	sessionFile: string,
	entries: ImportRecord["entries"],
	itemsDigest: string,
): ImportRecord {
	return {
		version: 2,
		tool: plan.tool,
		sourceId: plan.sourceId,
		sourcePath: plan.sourcePath,
		sessionFile,
		importer: IMPORTER_VERSION,
		entries,
		itemsDigest,
	};
}

/** Names and heads a new session for the plan (`note`: why it was imported again; `parentSession`: its parent's file). */
export function newSession(plan: ImportPlan, note?: string, parentSession?: string): NewSession {
	return newSessionOf(plan, lastTime(plan), note, parentSession);
}

/** `newSession` of a plan whose items were sent on as they were read (`mtimeMs`: their last activity). */
export function newSessionOf(plan: PlanHead, mtimeMs: number, note?: string, parentSession?: string): NewSession {
	const id = createSessionId();
	const header: SessionHeader = {
		type: "session",
		version: CURRENT_SESSION_VERSION,
		id,
		timestamp: plan.startedAt,
		cwd: plan.cwd,
	};
	if (plan.title) header.title = plan.title;
	if (parentSession) header.parentSession = parentSession;
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
	const file = join(getDefaultSessionDir(plan.cwd), sessionFileName(plan.startedAt, id));
	return { header, file, provenance, mtimeMs };
}

/** Sends the session's lines to the sink; returns its import record and the blobs its lines refer to. */
export function buildNewSession(
	plan: ImportPlan,
	session: NewSession,
	sink: LineSink,
): { record: ImportRecord; blobs: PendingBlob[] } {
	const root = { timestamp: plan.startedAt, data: session.provenance };
	const built = buildSessionLines(session.header, root, plan.items, appendOrder(plan), sink);
	return { record: recordFor(plan, session.file, built.entries, built.itemsDigest), blobs: built.blobs };
}
