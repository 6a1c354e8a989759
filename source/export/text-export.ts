import { basename, resolve } from "node:path";
import { loadRedactionConfig } from "../redaction/config.js";
import { type RedactionSummary, redactEntries } from "../redaction/redact.js";
import { pathToEntry } from "../session/session-context.js";
import type { SessionHeader, StoredEntry } from "../session/types.js";
import { collapseToolOutput } from "./collapse-tools.js";
import { readExportSource, writeExportFile } from "./export-io.js";
import { freeDefaultPath } from "./export-target.js";
import { sessionToJson, sessionToMarkdown } from "./markdown-export.js";

/** The text formats besides HTML. */
export type TextFormat = "md" | "json";

/** How a Markdown / JSON export is written. */
export interface TextExportRequest {
	format: TextFormat;
	focused?: boolean;
	redact?: boolean;
	collapseTools?: boolean;
	onRedacted?: (summary: RedactionSummary) => void;
	/** `--force`: replace an existing file (never a session). */
	force?: boolean;
	/** The session file the export is made from: the output may not be it. */
	input?: string | undefined;
}

/** Writes the path root → `leafId` as Markdown or JSON (redacted unless `redact: false`); returns the path. */
export async function writeTextExport(
	header: SessionHeader,
	entries: readonly StoredEntry[],
	leafId: string | null,
	outputPath: string,
	request: TextExportRequest,
): Promise<string> {
	const byId = new Map(entries.map((e) => [e.id, e]));
	const leaf = leafId === null ? undefined : byId.get(leafId);
	let path = leaf ? pathToEntry(leaf, byId) : [];
	if (request.collapseTools) path = collapseToolOutput(path);
	let shownHeader = header;
	if (request.redact !== false) {
		const result = redactEntries(path, { config: loadRedactionConfig().config, header });
		path = result.entries;
		shownHeader = result.header ?? header;
		request.onRedacted?.(result.summary);
	}
	const options = { focused: request.focused === true };
	const text =
		request.format === "md" ? sessionToMarkdown(shownHeader, path, options) : sessionToJson(shownHeader, path, options);
	await writeExportFile(outputPath, text, { input: request.input, replace: request.force });
	return outputPath;
}

/** `xcsh --export f.jsonl out.md|out.json`: reads the file without changing it, writes the text export. */
export async function textExportFromFile(
	inputPath: string,
	outputPath: string | undefined,
	cwd: string,
	request: TextExportRequest,
): Promise<string> {
	const source = await readExportSource(inputPath, cwd);
	const output =
		outputPath === undefined
			? await freeDefaultPath(cwd, basename(source.path, ".jsonl"), request.format, request.force)
			: resolve(cwd, outputPath);
	return writeTextExport(source.header, source.entries, source.leafId, output, { ...request, input: source.path });
}
