import { findCustomShare } from "../export/custom-share.js";
import { describeScope, type ExportScope, scopeName } from "../export/export-scope.js";
import { describeRedaction } from "../export/redact-export.js";
import type { ShareResult } from "../export/share.js";
import { previewShare, type SharePreview } from "../export/share-preview.js";
import { gistIdOf, recordShare } from "../export/share-registry.js";
import type { AgentSession } from "../session/agent-session.js";
import { words } from "./arg-spec.js";
import { type ExportCommandDeps, openedOrHint } from "./export-services.js";
import { hasFlag } from "./parse-args.js";
import { SHARE_SCOPE_FLAGS, scopeOf } from "./scope-flags.js";
import {
	type CommandContext,
	type CommandResult,
	failure,
	info,
	messageOf,
	type SlashCommand,
	warning,
} from "./types.js";

const SPEC = words(
	[],
	[
		...SHARE_SCOPE_FLAGS,
		{ name: "--collapse-tools", description: "tool calls start collapsed in the page" },
		{ name: "--yes", description: "share without asking first" },
	],
	(extra) => `/share takes --tree or --entry <id> (got ${extra.join(" ")})`,
);

type Run = Pick<CommandContext, "signal" | "setActivity">;

/** /share: the session as redacted HTML, uploaded by the person's share module or as a secret gist, after a confirm step. */
export function shareCommand(deps: ExportCommandDeps): SlashCommand {
	return {
		name: "share",
		description: "Share the session as HTML (your share module, else a secret GitHub gist)",
		spec: SPEC,
		async run({ session, signal, setActivity }, args) {
			const scope = scopeOf(args, { kind: "branch" });
			const collapseTools = hasFlag(args, "--collapse-tools");
			const upload = (run: Run) => shareScoped(deps, session, scope, run, collapseTools);
			if (hasFlag(args, "--yes"))
				return upload({ ...(signal ? { signal } : {}), ...(setActivity ? { setActivity } : {}) });
			let preview: SharePreview;
			try {
				preview = previewShare(session.sessionManager, scope, await deps.shareDestination(signal));
			} catch (error) {
				return failure(messageOf(error));
			}
			return {
				kind: "confirm",
				title: preview.title,
				confirmLabel: "share",
				detailsLabel: "what is redacted",
				details: preview.details,
				cancelNotice: "Share cancelled",
				run: upload,
			};
		},
	};
}

/** The upload itself (after confirmation). */
async function shareScoped(
	deps: ExportCommandDeps,
	session: AgentSession,
	scope: ExportScope,
	{ signal, setActivity }: Run,
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
	if (target)
		lines.push(...(await openedOrHint(deps, target, "Could not open a browser; open the link above yourself")));
	return info(lines.join("\n"));
}
