import { extname } from "node:path";
import { loadRedactionConfig } from "../redaction/config.js";
import { EntryRedaction, type RedactionSummary } from "../redaction/redact.js";
import type { SessionHeader, StoredEntry } from "../session/types.js";
import { atifTrajectory } from "./atif-export.js";
import { type ExportSink, writeExportStream } from "./export-io.js";
import { CONVERSATION_TYPES, labelsOf, PathReader, scopeLeaves } from "./export-paths.js";
import type { ExportScope } from "./export-scope.js";
import { type ExportSource, exportFromSessionFile } from "./export-source.js";
import type { JsonlFormat } from "./export-target.js";
import { type SftTool, sftLine, xcshToolDefinitions } from "./openai-sft-export.js";
import { type PiExportStats, piLines } from "./pi-export.js";
import { xcshVersion } from "./xcsh-version.js";

/** How a pi, ATIF or OpenAI fine-tuning export is written. */
export interface JsonlExportRequest {
	format: JsonlFormat;
	/** pi: the whole file, or one path; atif and openai-sft: every branch, or one path. */
	scope: ExportScope;
	redact?: boolean;
	/** `--force`: replace an existing file (never a session). */
	force?: boolean;
	/** The session file the export is made from: the output may not be it. */
	input?: string | undefined;
	/** openai-sft: put the system prompt first. */
	system?: boolean;
	/** openai-sft: keep the assistant's reasoning. */
	thinking?: boolean;
	onRedacted?: (summary: RedactionSummary) => void;
}

/** What a JSON-lines export wrote. */
export interface JsonlExportResult {
	path: string;
	/** Entries (pi), trajectories (atif) or examples (openai-sft). */
	records: number;
	/** pi: images whose blob was not in the store. */
	missingImages: number;
}

/**
 * Redacts each entry once for the summary: the paths of a tree share their beginning, and a secret
 * read on three paths is still one secret. Repeats go through a second redactor whose count is dropped.
 */
class OnceRedaction {
	readonly #counted: EntryRedaction;
	readonly #repeat: EntryRedaction;
	readonly #seen = new Set<string>();

	constructor() {
		const { config } = loadRedactionConfig();
		this.#counted = new EntryRedaction({ config });
		this.#repeat = new EntryRedaction({ config });
	}

	entry(entry: StoredEntry): StoredEntry {
		if (this.#seen.has(entry.id)) return this.#repeat.entry(entry);
		this.#seen.add(entry.id);
		return this.#counted.entry(entry);
	}

	header(header: SessionHeader): SessionHeader {
		return this.#counted.header(header);
	}

	text(text: string): string {
		return this.#counted.text(text);
	}

	summary(): RedactionSummary {
		return this.#counted.summary();
	}
}

/** "3 trajectories, one per branch", "1 example", "12 entries". */
export function describeRecords(format: JsonlFormat, records: number, scope: ExportScope): string {
	const nouns: Record<JsonlFormat, [string, string]> = {
		pi: ["entry", "entries"],
		atif: ["trajectory", "trajectories"],
		"openai-sft": ["example", "examples"],
	};
	const [one, many] = nouns[format];
	const perBranch = format !== "pi" && scope.kind === "tree" && records > 1 ? ", one per branch" : "";
	return `${records} ${records === 1 ? one : many}${perBranch}`;
}

/** "2 images missing from the blob store (written as a note)", or undefined. */
export function describeMissingImages(count: number): string | undefined {
	if (count === 0) return undefined;
	return `${count} ${count === 1 ? "image" : "images"} missing from the blob store (written as a note)`;
}

/**
 * The system prompt of a path: its `session_init`'s (read through `prepare`, which redacts it and
 * counts its secrets once), else the one xcsh builds for the session's folder (`redactText` then).
 */
async function systemPromptOf(
	reader: PathReader,
	ids: readonly string[],
	prepare: (entry: StoredEntry) => StoredEntry,
	redactText: (text: string) => string,
): Promise<string> {
	for (const id of ids) {
		if (reader.typeOf(id) !== "session_init") continue;
		const entry = reader.source.entry(id);
		const prompt = entry && (prepare(entry) as { systemPrompt?: unknown }).systemPrompt;
		if (typeof prompt === "string") return prompt;
	}
	const header = reader.source.header;
	const [{ buildSystemPrompt }, { createCodingTools }] = await Promise.all([
		import("../agent/system-prompt.js"),
		import("../agent/tools/index.js"),
	]);
	const now = new Date(header.timestamp);
	return redactText(
		buildSystemPrompt({
			cwd: header.cwd,
			tools: createCodingTools(header.cwd),
			...(Number.isNaN(now.getTime()) ? {} : { now }),
		}),
	);
}

/**
 * Writes a session as pi JSONL, ATIF trajectories or OpenAI fine-tuning lines (redacted unless
 * `redact: false`), streamed entry by entry into the export's temp file: memory holds one entry
 * (and, for the trajectory formats, one turn), whatever the session's size.
 */
export async function writeJsonlExport(
	source: ExportSource,
	outputPath: string,
	request: JsonlExportRequest,
): Promise<JsonlExportResult> {
	const redaction = request.redact === false ? undefined : new OnceRedaction();
	const prepare = (entry: StoredEntry): StoredEntry => (redaction ? redaction.entry(entry) : entry);
	const header = redaction ? redaction.header(source.header) : source.header;
	const reader = new PathReader(source);
	function* entriesOf(ids: readonly string[]): Generator<StoredEntry> {
		for (const id of ids) {
			const entry = source.entry(id);
			if (entry) yield prepare(entry);
		}
	}
	const result: JsonlExportResult = { path: outputPath, records: 0, missingImages: 0 };
	let produce: (sink: ExportSink) => Promise<void>;
	if (request.format === "pi") {
		const stats: PiExportStats = { missingImages: 0 };
		const ids = request.scope.kind === "tree" ? undefined : reader.ids(scopeLeaves(reader, request.scope)[0] ?? null);
		produce = async (sink) => {
			const entries = ids
				? entriesOf(ids)
				: (function* () {
						for (const entry of source.entries()) yield prepare(entry);
					})();
			for (const line of piLines(header, entries, stats)) await sink.write(line);
			result.records = (ids ?? source.shapes).length;
			result.missingImages = stats.missingImages;
		};
	} else {
		const paths = scopeLeaves(reader, request.scope)
			.map((leafId) => ({ leafId, ids: reader.ids(leafId) }))
			.filter(({ ids }) => ids.some((id) => CONVERSATION_TYPES.has(reader.typeOf(id) ?? "")));
		if (paths.length === 0) throw new Error("Nothing to export: the session has no messages");
		const single = extname(outputPath).toLowerCase() === ".json";
		if (request.format === "atif" && single && paths.length > 1)
			throw new Error(
				`${paths.length} branches do not fit in one ATIF .json file: use a .jsonl name (one trajectory per line) or --branch`,
			);
		const labels = request.format === "atif" ? labelsOf(source) : new Map<string, string>();
		const tools: ReadonlyMap<string, SftTool> =
			request.format === "openai-sft" ? await xcshToolDefinitions(source.header.cwd) : new Map();
		const prompts = new Map<string, string>();
		if (request.format === "openai-sft" && request.system)
			for (const { leafId, ids } of paths) {
				const redactText = (text: string): string => (redaction ? redaction.text(text) : text);
				prompts.set(leafId, await systemPromptOf(reader, ids, prepare, redactText));
			}
		produce = async (sink) => {
			for (const { leafId, ids } of paths) {
				const pieces =
					request.format === "atif"
						? atifTrajectory(
								{
									header,
									sessionId: paths.length > 1 ? `${header.id}:${leafId}` : header.id,
									leafId,
									labels,
									agentVersion: xcshVersion(),
								},
								entriesOf(ids),
								single ? "file" : "line",
							)
						: sftLine(entriesOf(ids), {
								systemPrompt: prompts.get(leafId),
								thinking: request.thinking === true,
								knownTools: tools,
							});
				let written = false;
				for (const piece of pieces) {
					await sink.write(piece);
					written = true;
				}
				// An openai-sft path with no assistant message has no example.
				if (written) result.records++;
			}
		};
	}
	await writeExportStream(outputPath, { input: request.input, replace: request.force }, produce);
	if (redaction) request.onRedacted?.(redaction.summary());
	return result;
}

/** `xcsh --export f.jsonl [out] --format pi|atif|openai-sft`: reads the file without changing it, writes the export. */
export async function jsonlExportFromFile(
	inputPath: string,
	outputPath: string | undefined,
	cwd: string,
	request: JsonlExportRequest,
): Promise<JsonlExportResult> {
	return exportFromSessionFile(inputPath, outputPath, cwd, request, (source, output, input) =>
		writeJsonlExport(source, output, { ...request, input }),
	);
}
