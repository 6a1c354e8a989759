import { createReadStream } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { tempPathFor } from "../../session/session-storage.js";
import type { SessionHeader, StoredEntry } from "../../session/types.js";
import { type ExportSink, FileSink } from "../export-io.js";
import { entrySummary } from "./entry-summary.js";
import type { ExportToolDefinition } from "./export-data.js";
import { jsonForScript, pageHead, pageTail } from "./html-document.js";

/** A session's page above this many entries embeds its entries in chunks parsed only when shown. */
export const LAZY_HTML_ABOVE_ENTRIES = 5_000;
/** …or when the session file is bigger than this (a few big tool results make a heavy page too). */
export const LAZY_HTML_ABOVE_BYTES = 32 * 1024 * 1024;
/** Characters of entry JSON per chunk: one chunk parses in about a millisecond. */
const CHUNK_CHARS = 256 * 1024;

/** Everything a page shows, its entries prepared (collapsed, redacted) and read one at a time. */
export interface HtmlPage {
	header: SessionHeader;
	entries: AsyncIterable<StoredEntry> | Iterable<StoredEntry>;
	leafId: string | null;
	exportedAt: string;
	systemPrompt?: string | undefined;
	tools?: readonly ExportToolDefinition[] | undefined;
	/** Chunked entries and an index of summaries (see `LAZY_HTML_ABOVE_ENTRIES`), else one JSON object. */
	lazy: boolean;
}

/** The page's fields after the entries, as JSON members (`,"leafId":…`) in the order pages always had. */
function trailingMembers(page: HtmlPage): string {
	const { leafId, exportedAt, systemPrompt, tools } = page;
	return `,${jsonForScript({ leafId, exportedAt, systemPrompt, tools }).slice(1, -1)}`;
}

/**
 * The self-contained page as today's exporter always wrote it: one `#session-data` JSON object
 * (header, entries, leaf, state), written entry by entry.
 */
async function writeInline(sink: ExportSink, page: HtmlPage): Promise<void> {
	await sink.write(
		`<script type="application/json" id="session-data">{"header":${jsonForScript(page.header)},"entries":[`,
	);
	let first = true;
	for await (const entry of page.entries) {
		await sink.write(first ? jsonForScript(entry) : `,${jsonForScript(entry)}`);
		first = false;
	}
	await sink.write(`]${trailingMembers(page)}}</script>`);
}

/**
 * The lazy page: entries in `<script type="application/json" id="xcsh-chunk-N">` arrays of about
 * `CHUNK_CHARS`, then `#session-data` with the header, state, the chunk sizes and a summary of every
 * entry (written to a temp file beside the export meanwhile, then copied in). The browser keeps the
 * chunks as unparsed text; the viewer parses a chunk only when it shows one of its entries.
 */
async function writeLazy(sink: ExportSink, page: HtmlPage, outputPath: string): Promise<void> {
	const indexPath = tempPathFor(outputPath);
	const handle = await open(indexPath, "wx");
	try {
		const index = new FileSink(handle);
		const chunkSizes: number[] = [];
		let inChunk = 0;
		let chunkChars = 0;
		const closeChunk = async (): Promise<void> => {
			await sink.write("]</script>\n");
			chunkSizes.push(inChunk);
			inChunk = 0;
			chunkChars = 0;
		};
		let entries = 0;
		for await (const entry of page.entries) {
			if (inChunk === 0) await sink.write(`<script type="application/json" id="xcsh-chunk-${chunkSizes.length}">[`);
			const json = jsonForScript(entry);
			await sink.write(inChunk === 0 ? json : `,${json}`);
			await index.write(`${entries === 0 ? "" : ","}${jsonForScript(entrySummary(entry))}`);
			entries++;
			inChunk++;
			chunkChars += json.length;
			if (chunkChars >= CHUNK_CHARS) await closeChunk();
		}
		if (inChunk > 0) await closeChunk();
		await index.flush();
		await handle.close();
		await sink.write(
			`<script type="application/json" id="session-data">{"header":${jsonForScript(page.header)}${trailingMembers(page)},"chunkSizes":${JSON.stringify(chunkSizes)},"entries":[`,
		);
		for await (const text of createReadStream(indexPath, { encoding: "utf8" })) await sink.write(text as string);
		await sink.write("]}</script>");
	} finally {
		await handle.close().catch(() => undefined);
		await unlink(indexPath).catch(() => undefined);
	}
}

/** Writes the whole page to `sink`: head, the session's data (inline or lazy), the viewer. */
export async function writeHtmlPage(
	sink: ExportSink,
	page: HtmlPage,
	viewerScript: string,
	outputPath: string,
): Promise<void> {
	await sink.write(pageHead(page.header, viewerScript));
	if (page.lazy) await writeLazy(sink, page, outputPath);
	else await writeInline(sink, page);
	await sink.write(pageTail(viewerScript));
}
