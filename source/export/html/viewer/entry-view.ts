/// <reference lib="dom" />
import { checkpointElement } from "./checkpoint-view.js";
import { arr, num, str, type ViewEntry } from "./data.js";
import { el, lazyDetails, pre } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { formatTime, messageElement, messageFrame, type PathContext, renderContent } from "./message-view.js";
import { modelName } from "./preview.js";

function marker(entry: ViewEntry, text: string): HTMLElement {
	const node = el("div", `entry event type-${entry.type.replace(/[^\w-]/g, "")}`, text);
	node.dataset.id = entry.id;
	const time = formatTime(entry.timestamp);
	if (time) node.title = time;
	return node;
}

function summaryBox(entry: ViewEntry, kind: string, title: string, summary: string): HTMLElement {
	const box = el("section", `entry summary-box ${kind}`);
	box.dataset.id = entry.id;
	box.append(el("div", "summary-title", title));
	const body = el("div", "markdown");
	body.append(renderMarkdown(summary));
	box.append(body);
	return box;
}

function sessionInitElement(entry: ViewEntry): HTMLElement {
	const tools = arr(entry.raw.tools).filter((t) => typeof t === "string");
	const box = el("section", "entry summary-box session-init");
	box.dataset.id = entry.id;
	box.append(
		lazyDetails("system-prompt", "Session init: system prompt", () => pre(str(entry.raw.systemPrompt) ?? "")),
		el("div", "note", tools.length > 0 ? `Tools: ${tools.join(", ")}` : "No tools"),
	);
	const task = str(entry.raw.task);
	if (task) box.append(el("div", "note", `Task: ${task}`));
	return box;
}

function customMessageElement(entry: ViewEntry): HTMLElement {
	const { root, body } = messageFrame(entry, "custom", str(entry.raw.customType) ?? "Custom message");
	renderContent(body, entry.raw.content, undefined);
	// Extension messages with display: false reach the model but were never shown to the person.
	if (entry.raw.display === false) root.classList.add("not-displayed");
	return root;
}

/** One entry of the shown path as a conversation element (undefined when it shows inside another). */
export function entryElement(entry: ViewEntry, context: PathContext): HTMLElement | undefined {
	const raw = entry.raw;
	switch (entry.type) {
		case "message":
			return messageElement(entry, context);
		case "compaction": {
			const tokens = num(raw.tokensBefore);
			const title = `Compaction${tokens === undefined ? "" : ` · ${tokens.toLocaleString()} tokens before`}`;
			return summaryBox(entry, "compaction", title, str(raw.summary) ?? "");
		}
		case "branch_summary":
			return summaryBox(entry, "branch-summary", "Branch summary", str(raw.summary) ?? "");
		case "model_change":
			return marker(entry, `Model → ${modelName(entry)}`);
		case "thinking_level_change":
			return marker(entry, `Thinking → ${str(raw.thinkingLevel) ?? "?"}`);
		case "mode_change":
			return marker(entry, `Mode → ${str(raw.mode) ?? "?"}`);
		case "label":
			return marker(entry, `Label ${str(raw.label) === undefined ? "cleared" : `“${str(raw.label)}”`}`);
		case "custom":
			if (raw.customType === "checkpoint") return checkpointElement(entry);
			return marker(entry, `Extension state: ${str(raw.customType) ?? "?"}`);
		case "ttsr_injection":
			return marker(
				entry,
				`Rules injected: ${arr(raw.injectedRules)
					.filter((r) => typeof r === "string")
					.join(", ")}`,
			);
		case "session_init":
			return sessionInitElement(entry);
		case "custom_message":
			return customMessageElement(entry);
		default:
			return marker(entry, `Entry of unknown type “${entry.type}”`);
	}
}
