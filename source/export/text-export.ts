import { loadRedactionConfig } from "../redaction/config.js";
import { EntryRedaction, type RedactionSummary } from "../redaction/redact.js";
import type { StoredEntry } from "../session/types.js";
import { collapseToolOutput } from "./collapse-tools.js";
import { writeExportStream } from "./export-io.js";
import { type ExportSource, exportFromSessionFile, pathIds } from "./export-source.js";
import { jsonPieces, markdownPieces } from "./markdown-export.js";

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

/** The entries of the path root → `leafId`, read, collapsed and redacted one at a time. */
function* preparedPath(
	source: ExportSource,
	leafId: string | null,
	request: TextExportRequest,
	redaction: EntryRedaction | undefined,
): Generator<StoredEntry> {
	for (const id of pathIds(source.shapes, leafId)) {
		let entry = source.entry(id);
		if (!entry) continue;
		if (request.collapseTools) entry = collapseToolOutput([entry])[0]!;
		yield redaction ? redaction.entry(entry) : entry;
	}
}

/**
 * Writes the path root → `leafId` as Markdown or JSON (redacted unless `redact: false`), entry by
 * entry into the export's temp file, so a session of any size is written in the memory of one entry;
 * returns the path.
 */
export async function writeTextExport(
	source: ExportSource,
	leafId: string | null,
	outputPath: string,
	request: TextExportRequest,
): Promise<string> {
	const redaction = request.redact === false ? undefined : new EntryRedaction({ config: loadRedactionConfig().config });
	const header = redaction ? redaction.header(source.header) : source.header;
	const options = { focused: request.focused === true };
	await writeExportStream(outputPath, { input: request.input, replace: request.force }, async (sink) => {
		const path = preparedPath(source, leafId, request, redaction);
		const pieces = request.format === "md" ? markdownPieces(header, path, options) : jsonPieces(header, path, options);
		for (const piece of pieces) await sink.write(piece);
	});
	if (redaction) request.onRedacted?.(redaction.summary());
	return outputPath;
}

/** `xcsh --export f.jsonl out.md|out.json`: reads the file without changing it, writes the text export. */
export async function textExportFromFile(
	inputPath: string,
	outputPath: string | undefined,
	cwd: string,
	request: TextExportRequest,
): Promise<string> {
	return exportFromSessionFile(inputPath, outputPath, cwd, request, (source, output, input) =>
		writeTextExport(source, source.leafId, output, { ...request, input }),
	);
}
