import type { ClipboardMethod } from "../export/clipboard.js";
import type { ExportScope } from "../export/export-scope.js";
import type { RedactionChoice } from "../export/html/index.js";
import type { ShareOptions, ShareResult } from "../export/share.js";
import type { AgentSession } from "../session/agent-session.js";

/** What /dump, /export and /share call; injected so the UI wires the real exporter and tests use stubs. */
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

/** Opens `target` in a browser; the `hint` line when none opened. */
export async function openedOrHint(deps: ExportCommandDeps, target: string, hint: string): Promise<string[]> {
	return (await deps.openInBrowser(target)) ? [] : [hint];
}
