import { setFlagsFromString } from "node:v8";
import type { CliIo } from "./cli-io.js";

/** Flags `xcsh --export` understands. */
export interface ExportFlags {
	redact: boolean;
	format: string | undefined;
	focused: boolean;
	collapseTools: boolean;
	force: boolean;
	/** Only the path to the session's last entry (HTML, pi, ATIF, OpenAI; Markdown and JSON always are). */
	branch?: boolean;
	/** openai-sft: put the system prompt first. */
	system?: boolean;
	/** openai-sft: keep the assistant's reasoning. */
	thinking?: boolean;
}

/**
 * `--thinking` of an export, and the output name. Elsewhere `--thinking` takes a level, so the
 * parser gives it the next word: `--thinking out.jsonl` is the switch and the output, unless an
 * output was named already (then the word is a level, and ignored).
 */
export function exportThinking(
	value: string | undefined,
	positionals: readonly string[],
): { on: boolean; output: string | undefined } {
	const [output] = positionals;
	if (value === undefined) return { on: false, output };
	return { on: true, output: output ?? (value === "" ? undefined : value) };
}

/** Printed (exit 2) without an input file. */
const EXPORT_USAGE =
	"Usage: xcsh --export <session.jsonl> [out.html|out.md|out.json|out.jsonl] [--format f] [--branch] [--force]";

/**
 * `xcsh --export <session.jsonl> [output]` (and `xcsh export …`): the fast path, before any session
 * or UI starts. An output name that does not fit the format, or a flag the format does not take,
 * exits 2; an output that is the input, a session file, inside the sessions folder, or (without
 * --force) any existing file exits 1. Nothing is written then.
 */
export async function runExportCommand(
	input: string,
	output: string | undefined,
	flags: ExportFlags,
	io: Pick<CliIo, "stdout" | "stderr" | "cwd">,
): Promise<number> {
	if (!input) {
		io.stderr(`${EXPORT_USAGE}\n`);
		return 2;
	}
	// A one-shot process that streams a session of any size: V8's default lets the heap grow to ~4×
	// the live set before a full GC (measured: 326 MB peak RSS for a 225 MB session, 46 MB live);
	// optimize-for-size keeps it near the live set (145 MB) for a few percent of time.
	setFlagsFromString("--optimize-for-size");
	const [{ chooseExportFormat, isJsonlFormat }, { formatFlagProblem }, { describeRedaction }] = await Promise.all([
		import("../export/export-target.js"),
		import("../export/export-flags.js"),
		import("../export/redact-export.js"),
	]);
	const chosen = chooseExportFormat(output, flags.format);
	if ("error" in chosen) {
		io.stderr(`${chosen.error}\n`);
		return 2;
	}
	const { format } = chosen;
	const problem = formatFlagProblem(format, flags);
	if (problem) {
		io.stderr(`${problem}\n`);
		return 2;
	}
	try {
		let redacted: string | undefined;
		const choice = {
			redact: flags.redact,
			collapseTools: flags.collapseTools,
			force: flags.force,
			onRedacted: (summary: Parameters<typeof describeRedaction>[0]) => {
				redacted = describeRedaction(summary);
			},
		};
		const scope = flags.branch ? ({ kind: "branch" } as const) : ({ kind: "tree" } as const);
		const lines: string[] = [];
		if (isJsonlFormat(format)) {
			const { jsonlExportFromFile, describeRecords, describeMissingImages } = await import("../export/jsonl-export.js");
			const result = await jsonlExportFromFile(input, output, io.cwd, {
				format,
				scope,
				redact: flags.redact,
				force: flags.force,
				system: flags.system === true,
				thinking: flags.thinking === true,
				onRedacted: choice.onRedacted,
			});
			lines.push(`Exported to: ${result.path}`, describeRecords(format, result.records, scope));
			const missing = describeMissingImages(result.missingImages);
			if (missing) lines.push(missing);
		} else if (format === "html") {
			const { exportFromFile } = await import("../export/html/index.js");
			lines.push(`Exported to: ${await exportFromFile(input, output, io.cwd, { ...choice, scope })}`);
		} else {
			const { textExportFromFile } = await import("../export/text-export.js");
			const path = await textExportFromFile(input, output, io.cwd, { format, focused: flags.focused, ...choice });
			lines.push(`Exported to: ${path}`);
		}
		if (redacted) lines.push(redacted);
		if (!flags.redact) lines.push("Not redacted (--no-redact)");
		io.stdout(`${lines.join("\n")}\n`);
		return 0;
	} catch (error) {
		io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
		return 1;
	}
}
