/// <reference lib="dom" />
import { messageOf, plainText, roleOf } from "./content.js";
import { str, type ViewData, type ViewTool } from "./data.js";
import { el, lazyDetails, oneLine, pre } from "./dom.js";
import { formatTime } from "./message-view.js";
import { computeStats } from "./stats.js";

const ROLE_NAMES: Record<string, string> = {
	user: "user",
	assistant: "assistant",
	toolResult: "tool results",
	bashExecution: "shell",
	custom: "custom",
	branchSummary: "branch summaries",
	compactionSummary: "summaries",
};

/** The session's title: the header title, else the first user message, else the id. */
export function sessionTitle(data: ViewData): string {
	const title = str(data.header.title);
	if (title) return title;
	const first = data.entries.find((entry) => roleOf(entry) === "user");
	const text = first ? oneLine(plainText(messageOf(first)?.content), 80) : "";
	return text || `Session ${str(data.header.id) ?? ""}`;
}

function fact(name: string, value: string, id?: string): HTMLElement {
	const item = el("div", "fact");
	if (id) item.id = id;
	item.append(el("span", "fact-name", name), el("span", "fact-value", value));
	return item;
}

function toolsElement(tools: readonly ViewTool[]): HTMLElement {
	return lazyDetails("tools", `Tools (${tools.length})`, () => {
		const list = el("div", "tool-defs");
		for (const tool of tools) {
			const item = el("div", "tool-def");
			item.append(el("div", "tool-name", tool.name), el("div", "tool-description", tool.description));
			item.append(pre(JSON.stringify(tool.parameters ?? {}, null, 2) ?? "", "tool-args-json"));
			list.append(item);
		}
		return list;
	});
}

/** The page header: title, id, cwd, creation time, stats, and the agent state's prompt and tools. */
export function renderHeader(data: ViewData): HTMLElement {
	const header = el("header", "page-header");
	header.append(el("h1", "session-title", sessionTitle(data)));
	const stats = computeStats(data.entries);
	const facts = el("div", "facts");
	facts.append(
		fact("Session", str(data.header.id) ?? "?"),
		fact("Directory", str(data.header.cwd) ?? "?"),
		fact("Created", formatTime(data.header.timestamp) || (str(data.header.timestamp) ?? "?")),
		fact("Models", stats.models.join(", ") || "—"),
		fact(
			"Messages",
			[...stats.roles].map(([role, count]) => `${count.toLocaleString()} ${ROLE_NAMES[role] ?? role}`).join(", ") ||
				"0",
			"stat-messages",
		),
		fact(
			"Tokens",
			`${stats.inputTokens.toLocaleString()} in · ${stats.outputTokens.toLocaleString()} out` +
				(stats.cacheReadTokens > 0 ? ` · ${stats.cacheReadTokens.toLocaleString()} cache read` : "") +
				(stats.cacheWriteTokens > 0 ? ` · ${stats.cacheWriteTokens.toLocaleString()} cache write` : ""),
			"stat-tokens",
		),
		fact("Cost", `$${stats.cost.toFixed(4)}`, "stat-cost"),
	);
	header.append(facts);
	const state = el("div", "agent-state");
	if (data.systemPrompt !== undefined) {
		const prompt = data.systemPrompt;
		state.append(lazyDetails("system-prompt", "System prompt", () => pre(prompt)));
	}
	if (data.tools.length > 0) state.append(toolsElement(data.tools));
	if (state.childElementCount > 0) header.append(state);
	return header;
}
