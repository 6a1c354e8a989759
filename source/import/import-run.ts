import { resolve } from "node:path";
import { parseSource, sourceFiles } from "./detect.js";
import { ImportBatch } from "./import-batch.js";
import { type CwdOrigin, SkipError, type SourceTool } from "./import-plan.js";
import { isOpencodeDatabase, OPENCODE_SQLITE } from "./opencode-storage.js";
import { BatchPending, writePlan } from "./session-writer.js";
import { readSourceText } from "./source-lines.js";

/** What happened to one source file. */
export type ImportResult =
	| {
			status: "imported" | "appended" | "unchanged" | "reimported";
			source: string;
			tool: SourceTool;
			sourceId: string;
			sessionFile: string;
			previousSessionFile?: string;
			entries: number;
			cwd: string;
			cwdFrom: CwdOrigin;
			/** Lines of the source that could not be read (torn or not JSON), 1-based. */
			unreadableLines: number[];
	  }
	| { status: "skipped"; source: string; reason: string };

/** How an import runs. */
export interface ImportOptions {
	from: SourceTool | "auto";
	dryRun: boolean;
	/** The project for sources that keep no cwd (`--cwd`), else the current directory. */
	cwd: string;
	cwdGiven: boolean;
}

function reasonOf(error: unknown): string {
	if (error instanceof SkipError) return error.message;
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT") return "no such file or directory";
	if (code === "EACCES") return "permission denied";
	return error instanceof Error ? error.message : String(error);
}

/** Imports one source file through `batch` (its new session is on disk once the batch finishes). */
async function importInto(path: string, options: ImportOptions, batch: ImportBatch): Promise<ImportResult> {
	const source = resolve(path);
	try {
		// A database is never read whole as text to find out it is not a session.
		if (isOpencodeDatabase(source)) throw new SkipError(OPENCODE_SQLITE);
		const text = readSourceText(source);
		const plan = parseSource(text, source, options.from, { fallbackCwd: options.cwd, cwdGiven: options.cwdGiven });
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
			...(outcome.kind === "reimported" ? { previousSessionFile: outcome.previousSessionFile } : {}),
			entries: outcome.entries,
			cwd: plan.cwd,
			cwdFrom: plan.cwdOrigin,
			unreadableLines: [...plan.badLines],
		};
	} catch (error) {
		return { status: "skipped", source, reason: reasonOf(error) };
	}
}

/** Finishes the batch; a result whose session could not be written becomes a `skipped` one. */
async function settle(results: ImportResult[], batch: ImportBatch): Promise<ImportResult[]> {
	const failures = await batch.finish();
	if (failures.size === 0) return results;
	return results.map((result) => {
		if (result.status !== "imported" && result.status !== "reimported") return result;
		const failure = failures.get(result.sessionFile);
		return failure ? { status: "skipped", source: result.source, reason: reasonOf(failure) } : result;
	});
}

/** Imports one source file; never throws (a file that cannot be imported is a `skipped` result). */
export async function importFile(path: string, options: ImportOptions): Promise<ImportResult> {
	const batch = new ImportBatch();
	const [result] = await settle([await importInto(path, options, batch)], batch);
	return result!;
}

/**
 * Imports every session file under the given files and directories, one after another; new
 * sessions are written in one batch (each file fsynced, each folder once, then the records).
 */
export async function importPaths(paths: readonly string[], options: ImportOptions): Promise<ImportResult[]> {
	const batch = new ImportBatch();
	const results: ImportResult[] = [];
	for (const path of paths) {
		let files: string[];
		try {
			files = sourceFiles(resolve(path));
		} catch (error) {
			results.push({ status: "skipped", source: resolve(path), reason: reasonOf(error) });
			continue;
		}
		for (const file of files) results.push(await importInto(file, options, batch));
	}
	return settle(results, batch);
}
