import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { getExportsDir } from "../agent-dir.js";
import { formatFlagProblem } from "../export/export-flags.js";
import { describeScope, type ExportScope } from "../export/export-scope.js";
import { managerExportSource, selectScope } from "../export/export-source.js";
import {
	chooseExportFormat,
	EXPORT_FORMATS,
	type ExportFormat,
	freeDefaultPath,
	isJsonlFormat,
} from "../export/export-target.js";
import {
	describeMissingImages,
	describeRecords,
	type JsonlExportRequest,
	writeJsonlExport,
} from "../export/jsonl-export.js";
import { describeRedaction } from "../export/redact-export.js";
import { type TextFormat, writeTextExport } from "../export/text-export.js";
import { ensurePrivateDir } from "../private-files.js";
import type { AgentSession } from "../session/agent-session.js";
import { words } from "./arg-spec.js";
import { type ExportCommandDeps, openedOrHint } from "./export-services.js";
import { flagValue, hasFlag } from "./parse-args.js";
import { EXPORT_SCOPE_FLAGS, scopeOf } from "./scope-flags.js";
import { type CommandResult, failure, info, messageOf, type SlashCommand, warning } from "./types.js";

// The spec's /export used to accept these as "copy instead"; /dump does that now.
const COPY_WORDS = new Set(["clipboard", "copy"]);

const SPEC = words(
	[{ name: "path", optional: true, kind: "path" }],
	[
		...EXPORT_SCOPE_FLAGS,
		{
			name: "--format",
			value: { name: "format", choices: EXPORT_FORMATS },
			description:
				"the file's format (default: from the path's extension, else html); pi: a session pi reads fully, atif: trajectories, openai-sft: fine-tuning lines",
		},
		{ name: "--focused", description: "Markdown and JSON: only the messages, without tool calls and results" },
		{ name: "--collapse-tools", description: "HTML: tool calls start collapsed" },
		{ name: "--system", description: "openai-sft: put the system prompt first" },
		{ name: "--thinking", description: "openai-sft: keep the reasoning (as reasoning_content)" },
		{ name: "--no-redact", description: "keep secrets as they are (they are redacted by default)" },
		{ name: "--force", description: "replace an existing file" },
		{ name: "--copy", hidden: true, description: "" },
	],
	() => '/export takes one path; quote a path with spaces, e.g. /export "my session.html"',
);

// The shell would expand ~ for a CLI path; a slash command has no shell, so do it here.
function expandHome(path: string): string {
	if (path === "~") return homedir();
	return path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

/** /export [path] [flags]: the session as an HTML page (opened), Markdown, JSON, pi JSONL, ATIF or OpenAI fine-tuning lines. */
export function exportCommand(deps: ExportCommandDeps): SlashCommand {
	return {
		name: "export",
		description: "Export the session to an HTML file and open it",
		spec: SPEC,
		async run({ session }, args) {
			const [path] = args.positionals;
			if (hasFlag(args, "--copy") || (path !== undefined && COPY_WORDS.has(path)))
				return warning("Use /dump to copy the session to the clipboard");
			const redact = !hasFlag(args, "--no-redact");
			const force = hasFlag(args, "--force");
			const scope = scopeOf(args, { kind: "tree" });
			const named = path === undefined ? undefined : expandHome(path);
			const chosen = chooseExportFormat(named, flagValue(args, "--format"));
			if ("error" in chosen) return failure(chosen.error);
			const problem = formatFlagProblem(chosen.format, {
				focused: hasFlag(args, "--focused"),
				collapseTools: hasFlag(args, "--collapse-tools"),
				system: hasFlag(args, "--system"),
				thinking: hasFlag(args, "--thinking"),
			});
			if (problem) return failure(problem);
			let requested: string;
			try {
				requested = named ?? (await defaultExportPath(session, chosen.format, force));
			} catch (error) {
				return failure(messageOf(error));
			}
			if (isJsonlFormat(chosen.format))
				return exportJsonl(session, requested, {
					format: chosen.format,
					scope,
					redact,
					force,
					system: hasFlag(args, "--system"),
					thinking: hasFlag(args, "--thinking"),
				});
			if (chosen.format !== "html")
				return exportText(session, chosen.format, requested, scope, {
					focused: hasFlag(args, "--focused"),
					redact,
					force,
				});
			return exportHtml(deps, session, requested, scope, {
				redact,
				force,
				collapseTools: hasFlag(args, "--collapse-tools"),
			});
		},
	};
}

async function exportHtml(
	deps: ExportCommandDeps,
	session: AgentSession,
	requested: string,
	scope: ExportScope,
	options: { redact: boolean; force: boolean; collapseTools: boolean },
): Promise<CommandResult> {
	let path: string;
	let redacted: string | undefined;
	let scopeLine = "";
	try {
		path = await deps.exportHtml(session, requested, {
			...options,
			scope,
			onScope: (count) => {
				scopeLine = `Scope: ${describeScope(scope, count)}`;
			},
			onRedacted: (summary) => {
				redacted = describeRedaction(summary);
			},
		});
	} catch (error) {
		return failure(messageOf(error));
	}
	const absolute = resolve(path);
	const hint = `Could not open a browser; open ${pathToFileURL(absolute).href} yourself`;
	const lines = [
		`Exported to: ${path}`,
		scopeLine,
		...(redacted ? [redacted] : []),
		...(options.redact ? [] : ["Not redacted (--no-redact)"]),
	];
	return info([...lines.filter(Boolean), ...(await openedOrHint(deps, absolute, hint))].join("\n"));
}

/**
 * `<agent dir>/exports/xcsh-session-<id>.<ext>` (`-2`, `-3`, … when taken): the folder is created
 * private like the rest of the agent dir; the file itself keeps the person's umask.
 */
async function defaultExportPath(session: AgentSession, format: ExportFormat, force: boolean): Promise<string> {
	const folder = getExportsDir();
	await ensurePrivateDir(folder);
	return freeDefaultPath(folder, `xcsh-session-${session.sessionManager.getSessionId()}`, format, force);
}

/** /export --format md|json: the path of the scope (the active branch for the whole tree) as text. */
async function exportText(
	session: AgentSession,
	format: TextFormat,
	requested: string,
	scope: ExportScope,
	options: { focused: boolean; redact: boolean; force: boolean },
): Promise<CommandResult> {
	const manager = session.sessionManager;
	let redacted: string | undefined;
	try {
		const source = await managerExportSource(manager);
		const { leafId } = selectScope(source, scope.kind === "tree" ? { kind: "branch" } : scope);
		const path = await writeTextExport(source, leafId, resolve(requested), {
			format,
			focused: options.focused,
			redact: options.redact,
			force: options.force,
			input: manager.getSessionFile(),
			onRedacted: (summary) => {
				redacted = describeRedaction(summary);
			},
		});
		return info(
			[
				`Exported to: ${path}`,
				...(redacted ? [redacted] : []),
				...(options.redact ? [] : ["Not redacted (--no-redact)"]),
			].join("\n"),
		);
	} catch (error) {
		return failure(messageOf(error));
	}
}

/** /export --format pi|atif|openai-sft: the scope (pi: the whole file by default; atif, openai-sft: every branch). */
async function exportJsonl(
	session: AgentSession,
	requested: string,
	request: Omit<JsonlExportRequest, "input" | "onRedacted">,
): Promise<CommandResult> {
	const manager = session.sessionManager;
	let redacted: string | undefined;
	try {
		const source = await managerExportSource(manager);
		const result = await writeJsonlExport(source, resolve(requested), {
			...request,
			input: manager.getSessionFile(),
			onRedacted: (summary) => {
				redacted = describeRedaction(summary);
			},
		});
		const missing = describeMissingImages(result.missingImages);
		return info(
			[
				`Exported to: ${result.path}`,
				describeRecords(request.format, result.records, request.scope),
				...(missing ? [missing] : []),
				...(redacted ? [redacted] : []),
				...(request.redact === false ? ["Not redacted (--no-redact)"] : []),
			].join("\n"),
		);
	} catch (error) {
		return failure(messageOf(error));
	}
}
