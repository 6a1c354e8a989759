import { basename, resolve } from "node:path";
import { log } from "../../logger.js";
import { loadRedactionConfig } from "../../redaction/config.js";
import { EntryRedaction, type RedactionSummary } from "../../redaction/redact.js";
import type { SessionManager } from "../../session/session-manager.js";
import type { StoredEntry } from "../../session/types.js";
import { TurnDiffs } from "../checkpoint-diffs.js";
import { collapseToolOutput } from "../collapse-tools.js";
import { writeExportStream } from "../export-io.js";
import type { ExportScope } from "../export-scope.js";
import {
	type ExportSelection,
	type ExportSource,
	managerExportSource,
	openExportFile,
	selectScope,
} from "../export-source.js";
import { freeDefaultPath } from "../export-target.js";
import type { ExportState } from "./export-data.js";
import { type HtmlPage, LAZY_HTML_ABOVE_BYTES, LAZY_HTML_ABOVE_ENTRIES, writeHtmlPage } from "./html-page.js";
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

/**
 * The entries of a selection as the page carries them, one at a time: collapsed, a turn's
 * checkpoint with its diff, then redacted (the diff too).
 */
async function* prepared(
	selection: ExportSelection,
	collapse: boolean,
	redaction: EntryRedaction | undefined,
	diffs: TurnDiffs,
): AsyncGenerator<StoredEntry> {
	for (let entry of selection.entries()) {
		if (collapse) entry = collapseToolOutput([entry])[0]!;
		entry = await diffs.attach(entry);
		yield redaction ? redaction.entry(entry) : entry;
	}
}

/**
 * Writes the page of a selection, streamed: entries are read, redacted and written one at a time,
 * so the memory of an export is that of one entry whatever the session's size.
 */
async function writeExport(
	source: ExportSource,
	selection: ExportSelection,
	state: ExportState | undefined,
	outputPath: string,
	options: RedactionChoice,
): Promise<string> {
	let redaction: EntryRedaction | undefined;
	if (options.redact !== false) {
		const config = loadRedactionConfig();
		if (config.status === "invalid") log.warn(config.message);
		redaction = new EntryRedaction({ config: config.config });
	}
	const prompt = state?.systemPrompt;
	const page: HtmlPage = {
		header: redaction ? redaction.header(source.header) : source.header,
		entries: prepared(selection, options.collapseTools === true, redaction, await TurnDiffs.of(source.header.cwd)),
		leafId: selection.leafId,
		exportedAt: new Date().toISOString(),
		systemPrompt: prompt !== undefined && redaction ? redaction.text(prompt) : prompt,
		tools: state?.tools?.map(({ name, description, parameters }) => ({ name, description, parameters })),
		lazy: selection.count > LAZY_HTML_ABOVE_ENTRIES || source.bytes > LAZY_HTML_ABOVE_BYTES,
	};
	const viewer = await loadViewerScript();
	await writeExportStream(outputPath, { input: source.path, replace: options.force }, (sink) =>
		writeHtmlPage(sink, page, viewer, outputPath),
	);
	if (redaction) options.onRedacted?.(redaction.summary());
	return outputPath;
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
	const source = await managerExportSource(sessionManager);
	const selection = selectScope(source, options.scope ?? { kind: "tree" });
	options.onScope?.(selection.count);
	return writeExport(source, selection, state, outputPath, options);
}

/**
 * The `--export <file> [output]` fast path (`--branch`: the last entry's path only): reads a session file, migrates and resolves blobs in
 * memory only (the input is never rewritten, unlike opening it), and writes the HTML. Default
 * output `<cwd>/<input name without .jsonl>.html` (`-2`, `-3`, … if taken); returns its absolute path.
 */
export async function exportFromFile(
	inputPath: string,
	outputPath?: string,
	cwd: string = process.cwd(),
	options: RedactionChoice & { scope?: ExportScope } = {},
): Promise<string> {
	const source = await openExportFile(inputPath, cwd);
	try {
		const output =
			outputPath === undefined
				? await freeDefaultPath(cwd, basename(source.path ?? inputPath, ".jsonl"), "html", options.force)
				: resolve(cwd, outputPath);
		return await writeExport(
			source,
			selectScope(source, options.scope ?? { kind: "tree" }),
			undefined,
			output,
			options,
		);
	} finally {
		source.close();
	}
}
