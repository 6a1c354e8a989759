import { existsSync } from "node:fs";
import { digestOf, itemHash } from "./entry-lines.js";
import type { ImportPlan, PlanItem } from "./import-plan.js";
import { type ImportRecord, type ImportRecordV1, readImportRecord } from "./import-record.js";

/** Where a source stands against its earlier import, if any. */
export type PlanStatus =
	/** Never imported (or its session is gone), or `previous` changed incompatibly: a new session. */
	| { kind: "new"; previous: ImportRecord | ImportRecordV1 | undefined }
	| { kind: "unchanged"; record: ImportRecord | ImportRecordV1 }
	/** Only new items: they are appended to the earlier session. */
	| { kind: "grown"; record: ImportRecord | ImportRecordV1; fresh: PlanItem[] };

/** Whether the items under the record's keys are still what was imported (v1: a hash per item, v2: one digest). */
function stillMatches(old: readonly PlanItem[], record: ImportRecord | ImportRecordV1): boolean {
	if (old.length !== Object.keys(record.entries).length) return false;
	if (record.version === 2) return digestOf(old) === record.itemsDigest;
	return old.every((item) => record.entries[item.key]![1] === itemHash(item));
}

/** Compares a plan with the record of its earlier import. */
export function planStatus(plan: ImportPlan): PlanStatus {
	const record = readImportRecord(plan.tool, plan.sourceId);
	const previous = record && existsSync(record.sessionFile) ? record : undefined;
	if (!previous) return { kind: "new", previous: undefined };
	const fresh: PlanItem[] = [];
	const old: PlanItem[] = [];
	for (const item of plan.items) (Object.hasOwn(previous.entries, item.key) ? old : fresh).push(item);
	if (!stillMatches(old, previous)) return { kind: "new", previous };
	return fresh.length === 0 ? { kind: "unchanged", record: previous } : { kind: "grown", record: previous, fresh };
}

/** True when the plan holds an assistant reply (xcsh keeps only sessions with one). */
export function hasReply(plan: ImportPlan): boolean {
	return plan.items.some((item) => item.body.kind === "message" && item.body.message.role === "assistant");
}

/** Why a plan without a reply is not imported. */
export const NO_REPLY = "no assistant reply in it (xcsh keeps only sessions with one)";
