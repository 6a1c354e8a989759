import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { SessionEntry, UnknownSessionEntry } from "./types.js";
import { isKnownEntry } from "./types.js";

/** What a tree row stands for; filters and colours key on it. */
export type TreeRowKind =
	| "user"
	| "assistant"
	| "toolCall"
	| "toolResult"
	| "bash"
	| "customMessage"
	| "branchSummary"
	| "compaction"
	| "model"
	| "thinking"
	| "label"
	| "custom"
	| "mode"
	| "sessionInit"
	| "ttsr"
	| "unknown";

/** The one-line text of an entry and its kind. */
export interface EntrySummary {
	readonly kind: TreeRowKind;
	readonly text: string;
}

/** The tree's filters, in the order Tab cycles through them. */
export type TreeFilter = "default" | "no-tools" | "user" | "labeled" | "all";

/** Every filter, in Tab order. */
export const TREE_FILTERS: readonly TreeFilter[] = ["default", "no-tools", "user", "labeled", "all"];

/** The filter Tab moves to after `filter`. */
export function nextFilter(filter: TreeFilter): TreeFilter {
	return TREE_FILTERS[(TREE_FILTERS.indexOf(filter) + 1) % TREE_FILTERS.length] ?? "default";
}

// Rows are one line: a long paste only needs its head scanned, and the view truncates to the width anyway.
const MAX_TEXT = 200;
const SCAN = 1000;

/** Collapses whitespace and caps the length, so any text fits on one row. */
export function oneLine(text: string): string {
	const head = text.length > SCAN ? text.slice(0, SCAN) : text;
	// Most summaries are already one clean line; skip the rewrite for them.
	const flat = /[^\S ]| {2}|^ | $/.test(head) ? head.replace(/\s+/g, " ").trim() : head;
	return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT - 1)}…` : flat;
}

function head(text: string): string {
	return text.length > SCAN ? text.slice(0, SCAN) : text;
}

type Blocks = string | readonly { readonly type: string; readonly text?: string }[];

function contentText(content: Blocks | undefined): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	let text = "";
	let images = 0;
	for (const block of content) {
		// Only the head is looked at: a 200 KB tool output is not copied whole to summarise it.
		if (block.type === "text" && typeof block.text === "string")
			text += text ? ` ${head(block.text)}` : head(block.text);
		else if (block.type === "image") images++;
		if (text.length > SCAN) break;
	}
	if (text.trim() === "" && images > 0) return images === 1 ? "[image]" : `[${images} images]`;
	return text;
}

// The argument a person recognises a tool call by, in order of preference.
const PRIMARY_ARGS = ["path", "file_path", "filePath", "command", "pattern", "url", "query"] as const;

function toolCallText(name: string, args: Readonly<Record<string, unknown>> | undefined): string {
	for (const key of PRIMARY_ARGS) {
		const value = args?.[key];
		if (typeof value === "string") return `${name} ${value}`;
	}
	return name;
}

function summarizeAssistant(message: AgentMessage & { role: "assistant" }): EntrySummary {
	let text = "";
	let thinking = false;
	const tools: string[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			const part = typeof block.text === "string" ? head(block.text) : block.text;
			text += text ? ` ${part}` : part;
		} else if (block.type === "thinking") thinking = true;
		else if (block.type === "toolCall") tools.push(toolCallText(block.name, block.arguments));
	}
	const toolText = tools.length > 0 ? `[tool] ${tools.join(", ")}` : "";
	if (text.trim() !== "") return { kind: "assistant", text: oneLine(`assistant: ${text} ${toolText}`) };
	if (toolText !== "") return { kind: "toolCall", text: oneLine(toolText) };
	if (message.stopReason === "error" || message.stopReason === "aborted") {
		return { kind: "assistant", text: oneLine(`assistant: (${message.errorMessage ?? message.stopReason})`) };
	}
	return { kind: "assistant", text: thinking ? "assistant: (thinking)" : "assistant: (empty)" };
}

function summarizeMessage(message: AgentMessage): EntrySummary {
	switch (message.role) {
		case "user":
			return { kind: "user", text: oneLine(`user: ${contentText(message.content)}`) };
		case "assistant":
			return summarizeAssistant(message);
		case "toolResult": {
			const status = message.isError ? " (error)" : "";
			return {
				kind: "toolResult",
				text: oneLine(`[result] ${message.toolName}${status}: ${contentText(message.content)}`),
			};
		}
		case "bashExecution": {
			const exit = message.exitCode !== undefined && message.exitCode !== 0 ? ` (exit ${message.exitCode})` : "";
			return { kind: "bash", text: oneLine(`[bash] ${message.command}${exit}`) };
		}
		case "custom":
			return {
				kind: "customMessage",
				text: oneLine(`[custom] ${message.customType}: ${contentText(message.content)}`),
			};
		case "branchSummary":
			return { kind: "branchSummary", text: oneLine(`[branch summary] ${message.summary}`) };
		case "compactionSummary":
			return { kind: "compaction", text: oneLine(`[compaction] ${message.summary}`) };
		default: {
			const unknown: never = message;
			return { kind: "unknown", text: `[message ${(unknown as { role?: string }).role ?? "?"}]` };
		}
	}
}

function summarizeKnown(entry: SessionEntry): EntrySummary {
	switch (entry.type) {
		case "message":
			return summarizeMessage(entry.message);
		case "compaction":
			return { kind: "compaction", text: oneLine(`[compaction] ${entry.shortSummary ?? entry.summary}`) };
		case "branch_summary":
			return { kind: "branchSummary", text: oneLine(`[branch summary] ${entry.summary}`) };
		case "model_change": {
			const model = entry.model ?? `${entry.provider ?? "?"}/${entry.modelId ?? "?"}`;
			const role = entry.role !== undefined && entry.role !== "default" ? ` (${entry.role})` : "";
			return { kind: "model", text: oneLine(`[model] ${model}${role}`) };
		}
		case "thinking_level_change":
			return { kind: "thinking", text: oneLine(`[thinking] ${entry.thinkingLevel}`) };
		case "label":
			return { kind: "label", text: oneLine(`[label] ${entry.label ?? "(cleared)"}`) };
		case "custom":
			return { kind: "custom", text: oneLine(`[custom] ${entry.customType}`) };
		case "custom_message":
			return { kind: "customMessage", text: oneLine(`[custom] ${entry.customType}: ${contentText(entry.content)}`) };
		case "ttsr_injection":
			return { kind: "ttsr", text: oneLine(`[ttsr] ${entry.injectedRules.join(", ")}`) };
		case "session_init":
			return { kind: "sessionInit", text: oneLine(`[session init] tools: ${entry.tools.join(", ")}`) };
		case "mode_change":
			return { kind: "mode", text: oneLine(`[mode] ${entry.mode}`) };
		default: {
			const unknown: never = entry;
			return { kind: "unknown", text: `[${(unknown as { type: string }).type}]` };
		}
	}
}

/** The one-line summary of an entry, e.g. `user: …`, `[tool] read src/a.ts`, `[model] openai/gpt-4o`. */
export function summarizeEntry(entry: SessionEntry | UnknownSessionEntry): EntrySummary {
	if (!isKnownEntry(entry)) return { kind: "unknown", text: oneLine(`[${entry.type}]`) };
	try {
		return summarizeKnown(entry);
	} catch {
		// A hand-edited or foreign file can hold a known type with missing fields; one odd entry must
		// not take the whole tree down.
		return { kind: "unknown", text: oneLine(`[${entry.type}]`) };
	}
}

/**
 * The kind `summarizeEntry` gives an entry, without making its text: a big session's first open
 * needs the kind of every entry (the tree's filters) and the text of none.
 */
export function entryKind(entry: SessionEntry | UnknownSessionEntry): TreeRowKind {
	if (!isKnownEntry(entry)) return "unknown";
	try {
		return kindOfKnown(entry);
	} catch {
		return "unknown";
	}
}

/** `summarizeKnown(entry).kind`, failing where it fails (a known type with missing fields). */
function kindOfKnown(entry: SessionEntry): TreeRowKind {
	switch (entry.type) {
		case "message":
			return kindOfMessage(entry.message);
		case "compaction":
			return "compaction";
		case "branch_summary":
			return "branchSummary";
		case "model_change":
			return "model";
		case "thinking_level_change":
			return "thinking";
		case "label":
			return "label";
		case "custom":
			return "custom";
		case "custom_message":
			return "customMessage";
		case "ttsr_injection":
			return Array.isArray(entry.injectedRules) ? "ttsr" : "unknown";
		case "session_init":
			return Array.isArray(entry.tools) ? "sessionInit" : "unknown";
		case "mode_change":
			return "mode";
		default: {
			const unknown: never = entry;
			return unknown;
		}
	}
}

function kindOfMessage(message: AgentMessage): TreeRowKind {
	switch (message.role) {
		case "user":
			return "user";
		case "assistant": {
			let text = false;
			let tool = false;
			for (const block of message.content) {
				if (block.type === "text") text ||= `${block.text}`.trim() !== "";
				else if (block.type === "toolCall") tool = true;
			}
			return text || !tool ? "assistant" : "toolCall";
		}
		case "toolResult":
			return "toolResult";
		case "bashExecution":
			return "bash";
		case "custom":
			return "customMessage";
		case "branchSummary":
			return "branchSummary";
		case "compactionSummary":
			return "compaction";
		default:
			return "unknown";
	}
}

// Entries the session keeps for itself; the default view is about the conversation.
const BOOKKEEPING: ReadonlySet<TreeRowKind> = new Set<TreeRowKind>([
	"label",
	"custom",
	"model",
	"thinking",
	"mode",
	"sessionInit",
	"ttsr",
	"unknown",
]);

/** Whether a row of `kind` (with `label`) is shown under `filter`. */
export function passesFilter(kind: TreeRowKind, label: string | undefined, filter: TreeFilter): boolean {
	switch (filter) {
		case "default":
			return !BOOKKEEPING.has(kind);
		case "no-tools":
			return !BOOKKEEPING.has(kind) && kind !== "toolCall" && kind !== "toolResult";
		case "user":
			return kind === "user";
		case "labeled":
			return label !== undefined;
		case "all":
			return true;
		default: {
			const unknown: never = filter;
			return unknown;
		}
	}
}
