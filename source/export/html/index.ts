import { basename, resolve } from "node:path";
import type { RedactionSummary } from "../../redaction/redact.js";
import type { SessionManager } from "../../session/session-manager.js";
import { collapseToolOutput } from "../collapse-tools.js";
import { readExportSource, writeExportFile } from "../export-io.js";
import { type ExportScope, entriesInScope } from "../export-scope.js";
import { freeDefaultPath } from "../export-target.js";
import { redactExportData } from "../redact-export.js";
import type { ExportData, ExportState } from "./export-data.js";
import { buildHtmlDocument } from "./html-document.js";
import { loadViewerScript } from "./viewer-script.js";

export type { ExportData, ExportState, ExportToolDefinition } from "./export-data.js";

/** Options of `exportSessionToHtml`. */
export interface ExportOptions extends RedactionChoice {
	/** The whole tree (the default, as the spec says for /export), the active branch, or one entry's path. */
	scope?: ExportScope;
	/** Hears how many entries the scope holds. */
	onScope?: (entries: number) => void;
	/** Where to write; relative paths resolve against `cwd`. Default `<cwd>/xcsh-session-<sessionId>.html` (`-2`, `-3`, … if taken). */
	outputPath?: string;
	/** Defaults to process.cwd(). */
	cwd?: string;
}

/** Secrets are redacted unless `redact: false` (`--no-redact`); `onRedacted` hears what was taken out. */
export interface RedactionChoice {
	redact?: boolean;
	/** Cut tool results to their first lines (`--collapse-tools`). */
	collapseTools?: boolean;
	onRedacted?: (summary: RedactionSummary) => void;
	/** `--force`: replace an existing file (never a session). */
	force?: boolean;
}

async function writeExport(
	data: ExportData,
	outputPath: string,
	options: RedactionChoice,
	input: string | undefined,
): Promise<string> {
	let content = options.collapseTools ? { ...data, entries: collapseToolOutput(data.entries) } : data;
	if (options.redact !== false) {
		const redaction = redactExportData(content);
		content = redaction.data;
		options.onRedacted?.(redaction.summary);
	}
	const html = buildHtmlDocument(content, await loadViewerScript());
	await writeExportFile(outputPath, html, { input, replace: options.force });
	return outputPath;
}

function withState(data: ExportData, state: ExportState | undefined): ExportData {
	if (state?.systemPrompt !== undefined) data.systemPrompt = state.systemPrompt;
	if (state?.tools) {
		data.tools = state.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
	}
	return data;
}

/**
 * Exports the session (header, every entry of every branch, the leaf) plus the agent state's
 * system prompt and tools to a self-contained HTML file; returns its absolute path. The session
 * itself is not touched: no entry is added. Entries come from memory, so a `--no-session` session
 * exports like a saved one (its entries hold their images inline, never blob references).
 */
export async function exportSessionToHtml(
	sessionManager: SessionManager,
	state: ExportState | undefined,
	options: ExportOptions = {},
): Promise<string> {
	const cwd = options.cwd ?? process.cwd();
	const header = sessionManager.getHeader();
	const outputPath =
		options.outputPath === undefined
			? await freeDefaultPath(cwd, `xcsh-session-${header.id}`, "html", options.force)
			: resolve(cwd, options.outputPath);
	const { entries, leafId } = entriesInScope(sessionManager, options.scope ?? { kind: "tree" });
	const data: ExportData = { header, entries, leafId, exportedAt: new Date().toISOString() };
	options.onScope?.(entries.length);
	return writeExport(withState(data, state), outputPath, options, sessionManager.getSessionFile());
}

/**
 * The `--export <file> [output]` fast path: reads a session file, migrates and resolves blobs in
 * memory only (the input is never rewritten, unlike opening it), and writes the HTML. Default
 * output `<cwd>/<input name without .jsonl>.html` (`-2`, `-3`, … if taken); returns its absolute path.
 */
export async function exportFromFile(
	inputPath: string,
	outputPath?: string,
	cwd: string = process.cwd(),
	options: RedactionChoice = {},
): Promise<string> {
	const source = await readExportSource(inputPath, cwd);
	const data: ExportData = {
		header: source.header,
		entries: source.entries,
		leafId: source.leafId,
		exportedAt: new Date().toISOString(),
	};
	const output =
		outputPath === undefined
			? await freeDefaultPath(cwd, basename(source.path, ".jsonl"), "html", options.force)
			: resolve(cwd, outputPath);
	return writeExport(data, output, options, source.path);
}
