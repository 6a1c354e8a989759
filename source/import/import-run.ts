import { resolve } from "node:path";
import { parseSource, sourceFiles } from "./detect.js";
import { type CwdOrigin, SkipError, type SourceTool } from "./import-plan.js";
import { writePlan } from "./session-writer.js";
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

/** Imports one source file; never throws (a file that cannot be imported is a `skipped` result). */
export async function importFile(path: string, options: ImportOptions): Promise<ImportResult> {
	const source = resolve(path);
	try {
		const text = readSourceText(source);
		const plan = parseSource(text, source, options.from, { fallbackCwd: options.cwd, cwdGiven: options.cwdGiven });
		if (plan.items.length === 0) throw new SkipError("no entries in it");
		const outcome = await writePlan(plan, { dryRun: options.dryRun });
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

/** Imports every session file under the given files and directories, one after another. */
export async function importPaths(paths: readonly string[], options: ImportOptions): Promise<ImportResult[]> {
	const results: ImportResult[] = [];
	for (const path of paths) {
		let files: string[];
		try {
			files = sourceFiles(resolve(path));
		} catch (error) {
			results.push({ status: "skipped", source: resolve(path), reason: reasonOf(error) });
			continue;
		}
		for (const file of files) results.push(await importFile(file, options));
	}
	return results;
}
