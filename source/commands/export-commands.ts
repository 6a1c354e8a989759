import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { getExportsDir } from "../agent-dir.js";
import type { ClipboardMethod } from "../export/clipboard.js";
import type { ShareOptions, ShareResult } from "../export/share.js";
import { parseShellWords } from "../export/shell-words.js";
import { ensurePrivateDir } from "../private-files.js";
import type { AgentSession } from "../session/agent-session.js";
import { type CommandResult, failure, info, type SlashCommand, warning } from "./types.js";

/** What the export commands call; injected so the UI wires the real exporter and tests use stubs. */
export interface ExportCommandDeps {
	/** Writes the session as HTML (to `outputPath`, or the exporter's default) and returns the path. */
	exportHtml(
		session: AgentSession,
		outputPath?: string,
		options?: RedactionChoice & { scope?: ExportScope; onScope?: (entries: number) => void },
	): Promise<string>;
	share(options: ShareOptions): Promise<ShareResult>;
	openInBrowser(target: string): Promise<boolean>;
	/** Where /share would upload, for its confirm step (`describeShareDestination`). */
	shareDestination(signal?: AbortSignal): Promise<string>;
	copyToClipboard(text: string): Promise<ClipboardMethod>;
}

import { findCustomShare } from "../export/custom-share.js";
import { describeScope, type ExportScope, entriesInScope, parseScopeWords, scopeName } from "../export/export-scope.js";
import { chooseExportFormat, type ExportFormat, freeDefaultPath } from "../export/export-target.js";
// The spec's /export used to accept these as "copy instead"; /dump does that now.
import type { RedactionChoice } from "../export/html/index.js";
import { describeRedaction } from "../export/redact-export.js";
import { previewShare, type SharePreview } from "../export/share-preview.js";
import { gistIdOf, readShares, recordShare, revokeShare } from "../export/share-registry.js";
import { type TextFormat, writeTextExport } from "../export/text-export.js";
import { loadRedactionConfig } from "../redaction/config.js";
import { redactText } from "../redaction/redact.js";

const COPY_ARGUMENTS = new Set(["--copy", "clipboard", "copy"]);
/** /export's switches (the rest are the scope words and the path). */
const FLAG_WORDS = new Set(["--no-redact", "--focused", "--collapse-tools", "--force"]);

/** /dump inside a tmux that ignores a pane's OSC 52 (its default `set-clipboard external`). */
const TMUX_DROPS_OSC52 =
	"Not copied: tmux drops the clipboard sequence (OSC 52) unless set-clipboard is on; run tmux set -g set-clipboard on, then /dump again";

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

// The shell would expand ~ for a CLI path; a slash command has no shell, so do it here.
function expandHome(path: string): string {
	if (path === "~") return homedir();
	return path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

async function opened(deps: ExportCommandDeps, target: string, hint: string): Promise<string[]> {
	return (await deps.openInBrowser(target)) ? [] : [hint];
}

/** /dump, /export and /share. */
export function exportCommands(deps: ExportCommandDeps): SlashCommand[] {
	return [
		{
			name: "dump",
			description: "Copy the whole session as text to the clipboard",
			async run({ session }) {
				const raw = session.formatSessionAsText();
				if (!raw) return info("No messages to dump yet");
				const { text, findings } = redactText(raw, { config: loadRedactionConfig().config });
				const note =
					findings.length === 0 ? "" : ` (${findings.length} ${findings.length === 1 ? "secret" : "secrets"} redacted)`;
				try {
					const method = await deps.copyToClipboard(text);
					switch (method) {
						case "clipboard":
							return info(`Session copied to the clipboard${note}`);
						case "osc52":
							return info(`Session copied to the clipboard (OSC 52)${note}`);
						case "osc52-dropped-by-tmux":
							return warning(`${TMUX_DROPS_OSC52}${note}`);
					}
				} catch (error) {
					return failure(`Could not copy to the clipboard: ${messageOf(error)}`);
				}
			},
		},
		{
			name: "export",
			description: "Export the session to an HTML file and open it",
			args: "[path] [--branch | --entry <id>] [--format md|json] [--focused] [--collapse-tools] [--no-redact] [--force]",
			async run({ session }, args) {
				let words: string[];
				try {
					words = parseShellWords(args);
				} catch (error) {
					return failure(messageOf(error));
				}
				if (words.some((word) => COPY_ARGUMENTS.has(word)))
					return warning("Use /dump to copy the session to the clipboard");
				const redact = !words.includes("--no-redact");
				const focused = words.includes("--focused");
				const collapseTools = words.includes("--collapse-tools");
				const force = words.includes("--force");
				const formatAt = words.indexOf("--format");
				const format = formatAt >= 0 ? (words[formatAt + 1] ?? "") : undefined;
				const scoped = parseScopeWords(
					words.filter((word, i) => !FLAG_WORDS.has(word) && (formatAt < 0 || (i !== formatAt && i !== formatAt + 1))),
					{ kind: "tree" },
				);
				if ("error" in scoped) return failure(scoped.error);
				words = scoped.rest;
				let scopeLine = "";
				if (words.length > 1)
					return warning('/export takes one path; quote a path with spaces, e.g. /export "my session.html"');
				const named = words[0] === undefined ? undefined : expandHome(words[0]);
				const chosen = chooseExportFormat(named, format);
				if ("error" in chosen) return failure(chosen.error);
				let requested: string;
				try {
					requested = named ?? (await defaultExportPath(session, chosen.format, force));
				} catch (error) {
					return failure(messageOf(error));
				}
				if (chosen.format !== "html")
					return exportText(session, chosen.format, requested, scoped.scope, { focused, redact, force });
				let path: string;
				let redacted: string | undefined;
				try {
					path = await deps.exportHtml(session, requested, {
						redact,
						collapseTools,
						force,
						scope: scoped.scope,
						onScope: (count) => {
							scopeLine = `Scope: ${describeScope(scoped.scope, count)}`;
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
					...(redact ? [] : ["Not redacted (--no-redact)"]),
				];
				return info([...lines.filter(Boolean), ...(await opened(deps, absolute, hint))].join("\n"));
			},
		},
		{
			name: "share",
			description: "Share the session as HTML (your share module, else a secret GitHub gist)",
			args: "[--tree | --entry <id>] [--collapse-tools] [--yes]",
			async run({ session, signal, setActivity }, args) {
				let words: string[];
				try {
					words = parseShellWords(args);
				} catch (error) {
					return failure(messageOf(error));
				}
				const confirmed = words.includes("--yes");
				const collapseTools = words.includes("--collapse-tools");
				// The active branch by default: what the person is looking at, not abandoned attempts.
				const scoped = parseScopeWords(
					words.filter((w) => w !== "--yes" && w !== "--collapse-tools"),
					{ kind: "branch" },
				);
				if ("error" in scoped) return failure(scoped.error);
				if (scoped.rest.length > 0)
					return warning(`/share takes --tree or --entry <id> (got ${scoped.rest.join(" ")})`);
				const upload = (run: {
					signal?: AbortSignal | undefined;
					setActivity?: ((label: string | undefined) => void) | undefined;
				}) => shareScoped(deps, session, scoped.scope, run.signal, run.setActivity, collapseTools);
				if (confirmed) return upload({ signal, setActivity });
				let preview: SharePreview;
				try {
					preview = previewShare(session.sessionManager, scoped.scope, await deps.shareDestination(signal));
				} catch (error) {
					return failure(messageOf(error));
				}
				return {
					kind: "confirm",
					title: preview.title,
					details: preview.details,
					cancelNotice: "Share cancelled",
					run: upload,
				};
			},
		},
		sharesCommand,
	];
}

/** The upload itself (after confirmation). */
async function shareScoped(
	deps: ExportCommandDeps,
	session: AgentSession,
	scope: ExportScope,
	signal: AbortSignal | undefined,
	setActivity: ((label: string | undefined) => void) | undefined,
	collapseTools: boolean,
): Promise<CommandResult> {
	let result: ShareResult;
	let redacted: string | undefined;
	let scopeLine = "";
	try {
		// Never optional here: nothing leaves the machine unredacted.
		result = await deps.share({
			exportHtml: (outputPath) =>
				deps.exportHtml(session, outputPath, {
					redact: true,
					collapseTools,
					scope,
					onScope: (count) => {
						scopeLine = `Shared ${describeScope(scope, count)}`;
					},
					onRedacted: (summary) => {
						redacted = describeRedaction(summary);
					},
				}),
			signal,
			onPhase: (phase) => setActivity?.(phase),
		});
	} catch (error) {
		return failure(messageOf(error));
	} finally {
		setActivity?.(undefined);
	}
	const recorded = await recordIfShared(session, result, scopeName(scope));
	return shareNotice(deps, result, [scopeLine, ...(redacted ? [`${redacted} before upload`] : []), ...recorded]);
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
		const { entries, leafId } = entriesInScope(manager, scope.kind === "tree" ? { kind: "branch" } : scope);
		const path = await writeTextExport(manager.getHeader(), entries, leafId, resolve(requested), {
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

/** Records a successful share in shares.json; a registry problem is reported, never fatal to the share. */
async function recordIfShared(session: AgentSession, result: ShareResult, scope: string): Promise<string[]> {
	if (result.kind !== "shared") return [];
	const url = result.previewUrl ?? result.url ?? result.gistUrl;
	if (!url) return [];
	try {
		const gistId = result.gistUrl ? gistIdOf(result.gistUrl) : undefined;
		const handler = gistId ? undefined : await findCustomShare();
		await recordShare({
			sessionId: session.sessionManager.getSessionId(),
			sharedAt: new Date().toISOString(),
			url,
			scope,
			...(result.gistUrl ? { gistUrl: result.gistUrl } : {}),
			...(gistId ? { gistId } : {}),
			...(handler ? { handler } : {}),
		});
		return [];
	} catch (error) {
		return [`Not recorded in the share registry: ${messageOf(error)}`];
	}
}

/** /shares [revoke <id>]: this session's shares, and revoking one. */
export const sharesCommand: SlashCommand = {
	name: "shares",
	description: "List this session's shares, or revoke one",
	args: "[revoke <id>]",
	async run({ session }, args) {
		const [sub, id] = args.trim().split(/\s+/);
		try {
			if (sub === "revoke") {
				if (!id) return failure("Usage: /shares revoke <id>");
				const revoked = await revokeShare(id);
				return info(`Revoked ${revoked.url}`);
			}
			if (sub) return failure(`Unknown /shares action: ${sub} (expected revoke)`);
			const mine = (await readShares()).filter((r) => r.sessionId === session.sessionManager.getSessionId());
			if (mine.length === 0) return info("This session has not been shared");
			return info(
				mine
					.map(
						(r) =>
							`${r.id}  ${r.sharedAt.slice(0, 16).replace("T", " ")}  ${r.scope}  ${r.url}${r.revokedAt ? "  (revoked)" : ""}`,
					)
					.join("\n"),
			);
		} catch (error) {
			return failure(messageOf(error));
		}
	},
};

async function shareNotice(
	deps: ExportCommandDeps,
	result: ShareResult,
	context: readonly string[],
): Promise<CommandResult> {
	if (result.kind === "cancelled") return warning("Share cancelled");
	const lines: string[] = [];
	if (result.previewUrl) lines.push(`Preview: ${result.previewUrl}`);
	if (result.gistUrl) lines.push(`Gist: ${result.gistUrl}`);
	if (result.url) lines.push(`Shared: ${result.url}`);
	if (result.message) lines.push(result.message);
	if (lines.length === 0) lines.push("Session shared");
	lines.unshift(...context.filter(Boolean));
	const target = result.previewUrl ?? result.url;
	if (target) lines.push(...(await opened(deps, target, "Could not open a browser; open the link above yourself")));
	return info(lines.join("\n"));
}
