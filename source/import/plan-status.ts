import { existsSync } from "node:fs";
import { itemHash } from "./entry-lines.js";
import type { ImportPlan, PlanItem } from "./import-plan.js";
import { type ImportRecord, readImportRecord } from "./import-record.js";

/** Where a source stands against its earlier import, if any. */
export type PlanStatus =
	/** Never imported (or its session is gone), or `previous` changed incompatibly: a new session. */
	| { kind: "new"; previous: ImportRecord | undefined }
	| { kind: "unchanged"; record: ImportRecord }
	/** Only new items: they are appended to the earlier session. */
	| { kind: "grown"; record: ImportRecord; fresh: PlanItem[]; hashes: Map<PlanItem, string> };

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

/** Compares a plan with the record of its earlier import. */
export function planStatus(plan: ImportPlan): PlanStatus {
	const record = readImportRecord(plan.tool, plan.sourceId);
	const previous = record && existsSync(record.sessionFile) ? record : undefined;
	if (!previous) return { kind: "new", previous: undefined };
	const hashes = new Map(plan.items.map((item) => [item, itemHash(item)] as const));
	const { fresh, compatible } = compare(plan, previous, hashes);
	if (!compatible) return { kind: "new", previous };
	return fresh.length === 0
		? { kind: "unchanged", record: previous }
		: { kind: "grown", record: previous, fresh, hashes };
}

/** True when the plan holds an assistant reply (xcsh keeps only sessions with one). */
export function hasReply(plan: ImportPlan): boolean {
	return plan.items.some((item) => item.body.kind === "message" && item.body.message.role === "assistant");
}

/** Why a plan without a reply is not imported. */
export const NO_REPLY = "no assistant reply in it (xcsh keeps only sessions with one)";
