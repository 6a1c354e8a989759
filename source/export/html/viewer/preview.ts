/// <reference lib="dom" />
import { argsSummary, blocksOf, messageOf, plainText, roleOf } from "./content.js";
import { arr, str, type ViewEntry } from "./data.js";
import { oneLine } from "./dom.js";

/** The visual kind of an entry: drives the CSS class of tree rows and conversation blocks. */
export type EntryKind = "user" | "assistant" | "tool" | "bash" | "custom" | "summary" | "meta";

/** The visual kind of an entry. */
export function kindOf(entry: ViewEntry): EntryKind {
	switch (roleOf(entry)) {
		case "user":
			return "user";
		case "assistant":
			return "assistant";
		case "toolResult":
			return "tool";
		case "bashExecution":
			return "bash";
		case "custom":
			return "custom";
		case "branchSummary":
		case "compactionSummary":
			return "summary";
	}
	if (entry.type === "compaction" || entry.type === "branch_summary") return "summary";
	if (entry.type === "custom_message") return "custom";
	return "meta";
}

function assistantPreview(content: unknown): string {
	const blocks = blocksOf(content);
	const text = blocks.find((b) => b.kind === "text" && b.text.trim().length > 0);
	if (text?.kind === "text") return text.text;
	const call = blocks.find((b) => b.kind === "toolCall");
	if (call?.kind === "toolCall") return `→ ${call.name} ${argsSummary(call.args)}`;
	return blocks.some((b) => b.kind === "thinking") ? "(thinking)" : "(empty)";
}

function messagePreview(entry: ViewEntry): string {
	const message = messageOf(entry) ?? {};
	switch (str(message.role)) {
		case "user":
			return plainText(message.content) || "(image)";
		case "assistant":
			return assistantPreview(message.content);
		case "toolResult":
			return `${str(message.toolName) ?? "tool"}: ${plainText(message.content).slice(0, 400)}`;
		case "bashExecution":
			return `$ ${str(message.command) ?? ""}`;
		case "custom":
			return `${str(message.customType) ?? "custom"}: ${plainText(message.content)}`;
		case "branchSummary":
		case "compactionSummary":
			return `summary: ${str(message.summary) ?? ""}`;
		default:
			return str(message.role) ?? "message";
	}
}

/** The untrimmed one-line description of an entry. */
function describe(entry: ViewEntry): string {
	const raw = entry.raw;
	switch (entry.type) {
		case "message":
			return messagePreview(entry);
		case "thinking_level_change":
			return `thinking: ${str(raw.thinkingLevel) ?? "?"}`;
		case "model_change":
			return `model: ${modelName(entry)}`;
		case "compaction":
			return `compaction: ${str(raw.summary) ?? ""}`;
		case "branch_summary":
			return `branch summary: ${str(raw.summary) ?? ""}`;
		case "custom":
			return `custom: ${str(raw.customType) ?? ""}`;
		case "custom_message":
			return `${str(raw.customType) ?? "custom"}: ${plainText(raw.content)}`;
		case "label":
			return `label: ${str(raw.label) ?? "(cleared)"}`;
		case "ttsr_injection":
			return `rules: ${arr(raw.injectedRules)
				.filter((r) => typeof r === "string")
				.join(", ")}`;
		case "session_init":
			return "session init";
		case "mode_change":
			return `mode: ${str(raw.mode) ?? "?"}`;
		default:
			return entry.type;
	}
}

/** "provider/modelId" of a model_change entry, reading the old `{provider, modelId}` shape too. */
export function modelName(entry: ViewEntry): string {
	const model = str(entry.raw.model);
	if (model) return model;
	const provider = str(entry.raw.provider);
	const id = str(entry.raw.modelId);
	return provider && id ? `${provider}/${id}` : (id ?? "?");
}

const previews = new WeakMap<ViewEntry, string>();

/** A short one-line preview of an entry (cached: the tree asks for it on every scroll). */
export function previewOf(entry: ViewEntry): string {
	let preview = previews.get(entry);
	if (preview === undefined) {
		preview = oneLine(describe(entry).slice(0, 600), 140);
		previews.set(entry, preview);
	}
	return preview;
}

/** Everything searchable in an entry, lowercased (capped: a huge tool output would dominate memory). */
export function searchTextOf(entry: ViewEntry, label: string | undefined): string {
	const parts = [describe(entry), label ?? ""];
	const message = messageOf(entry);
	if (message) {
		for (const block of blocksOf(message.content)) {
			if (block.kind === "text" || block.kind === "thinking") parts.push(block.text);
			else if (block.kind === "toolCall") parts.push(block.name, argsSummary(block.args));
		}
		parts.push(str(message.output) ?? "");
	}
	return parts.join("\n").slice(0, 20_000).toLowerCase();
}
