import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import type { RedactionSummary } from "../../redaction/redact.js";
import { migrateSessionEntries } from "../../session/migrations.js";
import { resolveBlobRefs } from "../../session/persist-transform.js";
import type { StoredEntry } from "../../session/session-entries.js";
import { readSessionFile } from "../../session/session-loader.js";
import type { SessionManager } from "../../session/session-manager.js";
import { FileSessionStorage, tempPathFor } from "../../session/session-storage.js";
import type { SessionHeader } from "../../session/types.js";
import { collapseToolOutput } from "../collapse-tools.js";
import { type ExportScope, entriesInScope } from "../export-scope.js";
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
	/** Where to write; relative paths resolve against `cwd`. Default `<cwd>/xcsh-session-<sessionId>.html`. */
	outputPath?: string;
	/** Defaults to process.cwd(). */
	cwd?: string;
}

/**
 * Writes through a sibling temp file and a rename, so a reader (or a browser already showing the
 * file) never sees half a page. No fsync: an export can always be made again.
 */
async function writeAtomically(path: string, text: string): Promise<void> {
	const temp = tempPathFor(path);
	try {
		// `/export "new dir/page.html"` names a folder that may not exist yet.
		await mkdir(dirname(path), { recursive: true });
		await writeFile(temp, text);
		await rename(temp, path);
	} catch (error) {
		await unlink(temp).catch(() => undefined);
		throw error;
	}
}

/** Secrets are redacted unless `redact: false` (`--no-redact`); `onRedacted` hears what was taken out. */
export interface RedactionChoice {
	redact?: boolean;
	/** Cut tool results to their first lines (`--collapse-tools`). */
	collapseTools?: boolean;
	onRedacted?: (summary: RedactionSummary) => void;
}

async function writeExport(data: ExportData, outputPath: string, options: RedactionChoice): Promise<string> {
	let content = options.collapseTools ? { ...data, entries: collapseToolOutput(data.entries) } : data;
	if (options.redact !== false) {
		const redaction = redactExportData(content);
		content = redaction.data;
		options.onRedacted?.(redaction.summary);
	}
	const html = buildHtmlDocument(content, await loadViewerScript());
	await writeAtomically(outputPath, html);
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
 * itself is not touched: no entry is added.
 */
export async function exportSessionToHtml(
	sessionManager: SessionManager,
	state: ExportState | undefined,
	options: ExportOptions = {},
): Promise<string> {
	if (!sessionManager.isPersisted()) throw new Error("Cannot export in-memory session to HTML");
	const cwd = options.cwd ?? process.cwd();
	const header = sessionManager.getHeader();
	const outputPath = resolve(cwd, options.outputPath ?? `xcsh-session-${header.id}.html`);
	const { entries, leafId } = entriesInScope(sessionManager, options.scope ?? { kind: "tree" });
	const data: ExportData = { header, entries, leafId, exportedAt: new Date().toISOString() };
	options.onScope?.(entries.length);
	return writeExport(withState(data, state), outputPath, options);
}

/**
 * The `--export <file> [output]` fast path: reads a session file, migrates and resolves blobs in
 * memory only (the input is never rewritten, unlike opening it), and writes the HTML. Default
 * output `<cwd>/<input name without .jsonl>.html`; returns its absolute path.
 */
export async function exportFromFile(
	inputPath: string,
	outputPath?: string,
	cwd: string = process.cwd(),
	options: RedactionChoice = {},
): Promise<string> {
	const input = resolve(cwd, inputPath);
	const storage = new FileSessionStorage();
	const read = await readSessionFile(input, storage);
	if (read.kind === "missing") throw new Error(`File not found: ${input}`);
	if (read.kind !== "ok") throw new Error(`Not a session file: ${input}`);
	migrateSessionEntries(read.entries);
	await resolveBlobRefs(read.entries, storage.blobs);
	const entries = read.entries.slice(1) as StoredEntry[];
	const data: ExportData = {
		header: read.entries[0] as SessionHeader,
		entries,
		// As when the file is opened: the leaf is the last entry.
		leafId: entries.at(-1)?.id ?? null,
		exportedAt: new Date().toISOString(),
	};
	return writeExport(data, resolve(cwd, outputPath ?? `${basename(input, ".jsonl")}.html`), options);
}
