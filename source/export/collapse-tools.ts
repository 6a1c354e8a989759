import { normalizeMessage } from "../session/message-shape.js";
import type { StoredEntry } from "../session/types.js";

/** Lines of each tool result an export keeps with `--collapse-tools`. */
export const COLLAPSED_TOOL_LINES = 5;

function collapseText(text: string, keep: number): string {
	const lines = text.split("\n");
	if (lines.length <= keep) return text;
	return `${lines.slice(0, keep).join("\n")}\n… +${lines.length - keep} lines (collapsed for the export)`;
}

/** Copies of the entries with tool results (and shell output) cut to their first lines. */
export function collapseToolOutput(entries: readonly StoredEntry[], keep = COLLAPSED_TOOL_LINES): StoredEntry[] {
	return entries.map((entry) => {
		if (entry.type !== "message") return entry;
		const message = normalizeMessage((entry as Extract<StoredEntry, { type: "message" }>).message);
		if (message?.role === "toolResult") {
			const content = message.content.map((b) => (b.type === "text" ? { ...b, text: collapseText(b.text, keep) } : b));
			return { ...entry, message: { ...message, content } } as StoredEntry;
		}
		if (message?.role === "bashExecution") {
			return { ...entry, message: { ...message, output: collapseText(message.output, keep) } } as StoredEntry;
		}
		return entry;
	});
}
