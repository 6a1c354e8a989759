import type { ImportBatch } from "./import-batch.js";
import type { ImportPlan } from "./import-plan.js";
import { SkipError } from "./import-plan.js";
import type { ImportOptions, ImportResult } from "./import-run.js";
import { BatchPending, writePlan } from "./session-writer.js";

/** Writes one source session's plan through `batch`; throws when it cannot be imported. */
export async function importPlan(
	plan: ImportPlan,
	source: string,
	options: ImportOptions,
	batch: ImportBatch,
): Promise<Exclude<ImportResult, { status: "skipped" }>> {
	if (plan.items.length === 0) throw new SkipError("no entries in it");
	let outcome: Awaited<ReturnType<typeof writePlan>>;
	try {
		outcome = await writePlan(plan, { dryRun: options.dryRun }, batch);
	} catch (error) {
		if (!(error instanceof BatchPending)) throw error;
		// The same source twice in one run: the first one's record is written, then this is compared to it.
		await batch.finish();
		outcome = await writePlan(plan, { dryRun: options.dryRun }, batch);
	}
	return {
		status: outcome.kind,
		source,
		tool: plan.tool,
		sourceId: plan.sourceId,
		sessionFile: outcome.sessionFile,
		...(outcome.kind === "reimported"
			? {
					previousSessionFile: outcome.previousSessionFile,
					...(outcome.previousImporter ? { previousImporter: outcome.previousImporter } : {}),
				}
			: {}),
		entries: outcome.entries,
		cwd: plan.cwd,
		cwdFrom: plan.cwdOrigin,
		unreadableLines: [...plan.badLines],
	};
}
