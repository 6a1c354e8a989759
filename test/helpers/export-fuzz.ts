/**
 * Session files of odd but loadable shape for the exporters' property (test/export/exporters-fuzz.test.ts,
 * bench/export-fuzz.ts): content as a string, an array, an object, a number or missing; summaries,
 * names and commands that are not strings; tool calls without names or with odd arguments; blocks
 * that are null or numbers; messages that are strings or arrays. The loader accepts all of these (an
 * entry needs only a type and, from v2 on, a unique string id), so every exporter must too.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { readExportSource } from "../../source/export/export-io.js";
import { exportFromFile } from "../../source/export/html/index.js";
import { textExportFromFile } from "../../source/export/text-export.js";
import { redactEntries, redactText } from "../../source/redaction/redact.js";
import { formatSessionAsText } from "../../source/session/format-session-text.js";
import { pathToEntry } from "../../source/session/session-context.js";
import { parseSessionText } from "../../source/session/session-loader.js";

/** Fixed, so a failure replays exactly (the suite and bench/export-fuzz.ts share the stream). */
export const EXPORT_FUZZ_SEED = 20_261_212;

const TS = "2026-03-01T10:00:00.000Z";
const HASH = "0123456789abcdef".repeat(4);

/** Any JSON value, small; now and then an object that cannot be turned into a string (`${value}` throws). */
const anything: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 12, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
	{ weight: 1, arbitrary: fc.constant({ toString: 1, valueOf: 2 }) },
);
/** Mostly a string, sometimes anything else. */
const textish: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
	{ weight: 1, arbitrary: fc.constantFrom("a ``` fence", "line\nline", "ghp_FAKETpnAMD2zhau2IfUknAkMIQJqgDmFwp7F") },
	{ weight: 2, arbitrary: anything },
);
const optional = { requiredKeys: [] as [] };

const blockArb: fc.Arbitrary<unknown> = fc.oneof(
	fc.record({ type: fc.constant("text"), text: textish }, optional),
	fc.record({ type: fc.constant("thinking"), thinking: textish }, optional),
	fc.record({ type: fc.constant("toolCall"), id: textish, name: textish, arguments: anything }, optional),
	fc.record(
		{
			type: fc.constant("image"),
			data: fc.oneof(fc.constantFrom(`blob:sha256:${HASH}`, "iVBORw0KGgo=", "blob:sha256:zz"), anything),
			mimeType: textish,
		},
		optional,
	),
	fc.record({ type: anything, text: textish }, optional),
	anything,
);

const contentArb: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
	{ weight: 4, arbitrary: fc.array(blockArb, { maxLength: 4 }) },
	{ weight: 1, arbitrary: blockArb },
	{ weight: 1, arbitrary: anything },
);

const ROLES = [
	"user",
	"assistant",
	"toolResult",
	"bashExecution",
	"custom",
	"branchSummary",
	"compactionSummary",
	"hookMessage",
	"future",
];

const messageArb: fc.Arbitrary<unknown> = fc.oneof(
	{
		weight: 8,
		arbitrary: fc.record(
			{
				role: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ROLES) }, { weight: 1, arbitrary: anything }),
				content: contentArb,
				timestamp: fc.oneof(fc.nat(), anything),
				toolName: textish,
				isError: anything,
				command: textish,
				output: textish,
				exitCode: anything,
				excludeFromContext: anything,
				customType: textish,
				display: anything,
				summary: textish,
				provider: textish,
				model: textish,
				stopReason: fc.oneof(fc.constantFrom("stop", "error", "aborted", "toolUse"), anything),
				errorMessage: textish,
			},
			{ requiredKeys: ["role"] },
		),
	},
	{ weight: 1, arbitrary: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(anything, { maxLength: 3 })) },
);

/** One entry's fields besides type, id and parentId. */
const bodyArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
	{ weight: 8, arbitrary: fc.record({ type: fc.constant("message"), message: messageArb }) },
	{
		weight: 2,
		arbitrary: fc.record(
			{
				type: fc.constant("custom_message"),
				customType: textish,
				content: contentArb,
				display: anything,
				details: anything,
			},
			{ requiredKeys: ["type"] },
		),
	},
	{
		weight: 2,
		arbitrary: fc.record(
			{ type: fc.constant("branch_summary"), summary: textish, fromId: textish },
			{ requiredKeys: ["type"] },
		),
	},
	{
		weight: 2,
		arbitrary: fc.record(
			{ type: fc.constant("compaction"), summary: textish, tokensBefore: anything, firstKeptEntryId: textish },
			{ requiredKeys: ["type"] },
		),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			type: fc.constantFrom("model_change", "thinking_level_change", "label", "session_info", "custom", "future_kind"),
			data: anything,
			name: textish,
			label: textish,
			targetId: textish,
		}),
	},
);

const headerArb = fc.record(
	{
		version: fc.oneof({ weight: 8, arbitrary: fc.constant(3) }, { weight: 1, arbitrary: fc.constantFrom(2, 1) }),
		timestamp: fc.oneof({ weight: 3, arbitrary: fc.constant(TS) }, { weight: 1, arbitrary: anything }),
		cwd: fc.oneof({ weight: 3, arbitrary: fc.constant("/work/fuzz") }, { weight: 1, arbitrary: anything }),
		title: anything,
	},
	{ requiredKeys: ["version"] },
);

/** A generated session file and its shape, for a readable counterexample. */
export interface ExportFuzzCase {
	text: string;
}

/** Session text the loader accepts, with entries of every odd shape; mostly one chain so the path is long. */
export function exportableSession(): fc.Arbitrary<ExportFuzzCase> {
	return fc
		.record({
			header: headerArb,
			bodies: fc.array(bodyArb, { minLength: 1, maxLength: 12 }),
			parents: fc.array(fc.oneof({ weight: 8, arbitrary: fc.constant("chain") }, { weight: 1, arbitrary: anything }), {
				maxLength: 12,
			}),
			timestamps: fc.array(fc.oneof({ weight: 8, arbitrary: fc.constant(TS) }, { weight: 1, arbitrary: anything }), {
				maxLength: 12,
			}),
		})
		.map(({ header, bodies, parents, timestamps }) => {
			const lines = [JSON.stringify({ type: "session", id: "fuzz", ...header })];
			bodies.forEach((body, i) => {
				const parent = parents[i] ?? "chain";
				const parentId = parent === "chain" ? (i === 0 ? null : `e${i - 1}`) : parent;
				lines.push(JSON.stringify({ ...body, id: `e${i}`, parentId, timestamp: timestamps[i] ?? TS }));
			});
			const text = `${lines.join("\n")}\n`;
			return { text, [fc.toStringMethod]: () => `ExportFuzzCase(${JSON.stringify(text)})` };
		});
}

/** One exporter as the property runs it. */
export interface FuzzedExporter {
	name: string;
	run(file: string, dir: string): Promise<unknown>;
}

const DUMP_STATE = { systemPrompt: "system", model: "fuzz/model", thinkingLevel: "off", tools: [] };

/** Every exporter: HTML, Markdown and JSON (plain, focused, collapsed, unredacted), the /dump text and the redaction pass. */
export const EXPORTERS: readonly FuzzedExporter[] = [
	{ name: "html", run: (file, dir) => exportFromFile(file, join(dir, "out.html"), dir, { force: true }) },
	{
		name: "html --collapse-tools --no-redact",
		run: (file, dir) =>
			exportFromFile(file, join(dir, "out.html"), dir, { force: true, collapseTools: true, redact: false }),
	},
	{ name: "md", run: (file, dir) => textExportFromFile(file, join(dir, "out.md"), dir, { format: "md", force: true }) },
	{
		name: "md --focused --collapse-tools",
		run: (file, dir) =>
			textExportFromFile(file, join(dir, "out.md"), dir, {
				format: "md",
				force: true,
				focused: true,
				collapseTools: true,
			}),
	},
	{
		name: "json",
		run: (file, dir) => textExportFromFile(file, join(dir, "out.json"), dir, { format: "json", force: true }),
	},
	{
		name: "json --focused",
		run: (file, dir) =>
			textExportFromFile(file, join(dir, "out.json"), dir, { format: "json", force: true, focused: true }),
	},
	{
		name: "dump",
		run: async (file, dir) => {
			const source = await readExportSource(file, dir);
			const byId = new Map(source.entries.map((e) => [e.id, e]));
			const leaf = source.leafId === null ? undefined : byId.get(source.leafId);
			const text = formatSessionAsText(leaf ? pathToEntry(leaf, byId) : [], DUMP_STATE);
			return redactText(text);
		},
	},
	{
		name: "redaction",
		run: async (file, dir) => {
			const source = await readExportSource(file, dir);
			return redactEntries(source.entries, { header: source.header });
		},
	},
];

/** The exporters that threw on one file, with their messages; the file must be one the loader accepts. */
export async function runEveryExporter(text: string, dir: string): Promise<{ exporter: string; error: string }[]> {
	if (parseSessionText(text).kind !== "ok") throw new Error("the generator made a file the loader refuses");
	mkdirSync(dir, { recursive: true });
	const file = join(dir, "session.jsonl");
	writeFileSync(file, text);
	const failures: { exporter: string; error: string }[] = [];
	for (const exporter of EXPORTERS) {
		try {
			await exporter.run(file, dir);
		} catch (error) {
			failures.push({ exporter: exporter.name, error: error instanceof Error ? error.message : String(error) });
		}
	}
	return failures;
}
