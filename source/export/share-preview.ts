import { serializeConversation } from "../agent/compaction/serialize-conversation.js";
import { loadRedactionConfig } from "../redaction/config.js";
import { redactEntries } from "../redaction/redact.js";
import { entryMessage } from "../session/message-shape.js";
import type { SessionManager } from "../session/session-manager.js";
import type { StoredEntry } from "../session/types.js";
import { describeScope, type ExportScope, entriesInScope } from "./export-scope.js";
import { describeRedaction } from "./redact-export.js";

/** What the confirm step of /share shows: the title, and the lines `v` reveals. */
export interface SharePreview {
	title: string;
	details: string[];
}

const SNIPPET_CHARS = 100;
const REDACTED = "[REDACTED:";

/** The role an entry is shown as: the message's role, else the entry type. */
function roleOf(entry: StoredEntry): string {
	const message = entryMessage(entry);
	if (!message) return entry.type;
	return message.role === "toolResult" ? "tool result" : message.role;
}

/** `at` when it lies within [low, high], else `fallback`. */
function near(at: number, low: number, high: number, fallback: number): number {
	return at >= low && at <= high ? at : fallback;
}

/** One line of the (already redacted) entry, starting shortly before its first redaction so it shows what was taken out. */
function snippetOf(entry: StoredEntry): string {
	const message = entryMessage(entry);
	const text = message ? serializeConversation([message]).replace(/^\[[^\]]+\]: /, "") : JSON.stringify(entry);
	const flat = text.replace(/\s+/g, " ").trim();
	const at = flat.indexOf(REDACTED);
	const start = Math.max(0, Math.min(at < 0 ? 0 : at - 40, flat.length - SNIPPET_CHARS));
	const end = Math.min(flat.length, start + SNIPPET_CHARS);
	// Cut at spaces where there are any near the edges, so no word is shown in half.
	const from = start > 0 ? near(flat.indexOf(" ", start), start, start + 20, start) : 0;
	const to = end < flat.length ? near(flat.lastIndexOf(" ", end), end - 20, end, end) : end;
	return `${from > 0 ? "…" : ""}${flat.slice(from, to).trim()}${to < flat.length ? "…" : ""}`;
}

/**
 * The confirm step of a share of `scope` to `destination`: the scope, where it goes and the secrets
 * found; the details name each entry holding one by role, short id and a redacted snippet.
 */
export function previewShare(sessionManager: SessionManager, scope: ExportScope, destination: string): SharePreview {
	const { entries } = entriesInScope(sessionManager, scope);
	const { entries: redacted, summary } = redactEntries(entries, { config: loadRedactionConfig().config });
	const secrets = describeRedaction(summary) ?? "no secrets found";
	const title = `Share ${describeScope(scope, entries.length)} to ${destination}? ${secrets}${summary.total > 0 ? " — they are redacted before upload" : ""}`;
	const byId = new Map(redacted.map((entry) => [entry.id, entry]));
	const details = summary.byEntry.map((found) => {
		const entry = byId.get(found.entryId);
		const where = entry
			? `${roleOf(entry)} ${found.entryId.slice(0, 8)}: "${snippetOf(entry)}"`
			: `entry ${found.entryId}`;
		return `${where} — ${found.kinds.join(", ")}: ${found.previews.join(", ")}`;
	});
	return { title, details: details.length > 0 ? details : ["Nothing to redact was found."] };
}
