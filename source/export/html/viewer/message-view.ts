/// <reference lib="dom" />
import { blocksOf, messageOf } from "./content.js";
import { num, rec, str, type ViewEntry } from "./data.js";
import { el, lazyDetails, pre } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { imageElement, orphanResultElement, toolCallElement } from "./tool-view.js";

/** What rendering one entry needs to know about the rest of the shown path. */
export interface PathContext {
	/** toolCallId → its tool result entry on the shown path. */
	readonly results: Pick<ReadonlyMap<string, ViewEntry>, "get">;
	/** Tool results shown inside their call (so not shown again on their own). */
	readonly consumed: ReadonlySet<string>;
}

/** A readable local time for an ISO timestamp or epoch ms. */
export function formatTime(value: unknown): string {
	const date = typeof value === "number" ? new Date(value) : new Date(String(value ?? ""));
	return Number.isNaN(date.getTime()) ? "" : date.toLocaleString();
}

/** The frame shared by every message: role line with time and a permalink, then the body. */
export function messageFrame(entry: ViewEntry, role: string, title: string): { root: HTMLElement; body: HTMLElement } {
	const root = el("article", `entry message role-${role}`);
	root.dataset.id = entry.id;
	const head = el("header", "message-head");
	head.append(el("span", "message-role", title));
	const time = formatTime(entry.timestamp);
	if (time) head.append(el("time", "message-time", time));
	const link = el("a", "permalink", "#");
	link.href = `#${encodeURIComponent(entry.id)}`;
	link.title = "Link to this entry";
	head.append(link);
	const body = el("div", "message-body");
	root.append(head, body);
	return { root, body };
}

function markdownBlock(text: string): HTMLElement {
	const block = el("div", "markdown");
	block.append(renderMarkdown(text));
	return block;
}

function usageLine(message: Readonly<Record<string, unknown>>): string {
	const usage = rec(message.usage);
	const parts = [str(message.model) ?? ""];
	if (usage) {
		parts.push(`in ${(num(usage.input) ?? 0).toLocaleString()}`, `out ${(num(usage.output) ?? 0).toLocaleString()}`);
		const cacheRead = num(usage.cacheRead) ?? 0;
		if (cacheRead > 0) parts.push(`cache ${cacheRead.toLocaleString()}`);
		const cost = num(rec(usage.cost)?.total);
		if (cost !== undefined && cost > 0) parts.push(`$${cost.toFixed(4)}`);
	}
	return parts.filter(Boolean).join(" · ");
}

/** Appends message content: markdown text, collapsible thinking, tool calls with results, images. */
export function renderContent(body: HTMLElement, content: unknown, context: PathContext | undefined): void {
	for (const block of blocksOf(content)) {
		switch (block.kind) {
			case "text":
				if (block.text.length > 0) body.append(markdownBlock(block.text));
				break;
			case "thinking":
				body.append(
					lazyDetails("thinking", block.redacted ? "Thinking (redacted)" : "Thinking", () => markdownBlock(block.text)),
				);
				break;
			case "toolCall":
				body.append(toolCallElement(block.name, block.args, context?.results.get(block.id)));
				break;
			case "image":
				body.append(imageElement(block.mimeType, block.data));
				break;
		}
	}
}

function assistantElement(
	entry: ViewEntry,
	message: Readonly<Record<string, unknown>>,
	context: PathContext,
): HTMLElement {
	const { root, body } = messageFrame(entry, "assistant", "Assistant");
	root.querySelector(".message-head")?.append(el("span", "message-meta", usageLine(message)));
	renderContent(body, message.content, context);
	const stop = str(message.stopReason);
	if (stop === "error" || stop === "aborted") {
		body.append(el("div", "error-box", `${stop}${str(message.errorMessage) ? `: ${str(message.errorMessage)}` : ""}`));
	}
	return root;
}

function bashElement(entry: ViewEntry, message: Readonly<Record<string, unknown>>): HTMLElement {
	const { root, body } = messageFrame(entry, "bash", "Shell");
	body.append(pre(`$ ${str(message.command) ?? ""}`, "bash-command"));
	const output = str(message.output) ?? "";
	const exit = num(message.exitCode);
	const status = message.cancelled === true ? "cancelled" : exit === undefined ? "" : `exit ${exit}`;
	const lines = output ? output.split("\n").length : 0;
	body.append(lazyDetails("bash-output", `Output (${lines} lines${status ? `, ${status}` : ""})`, () => pre(output)));
	return root;
}

/** A message entry as a conversation block (undefined for a tool result already shown in its call). */
export function messageElement(entry: ViewEntry, context: PathContext): HTMLElement | undefined {
	const message = messageOf(entry) ?? {};
	const role = str(message.role) ?? "unknown";
	switch (role) {
		case "user": {
			const { root, body } = messageFrame(entry, "user", "User");
			renderContent(body, message.content, undefined);
			return root;
		}
		case "assistant":
			return assistantElement(entry, message, context);
		case "toolResult": {
			if (context.consumed.has(entry.id)) return undefined;
			const { root, body } = messageFrame(entry, "tool", "Tool result");
			body.append(orphanResultElement(entry));
			return root;
		}
		case "bashExecution":
			return bashElement(entry, message);
		case "custom": {
			const { root, body } = messageFrame(entry, "custom", str(message.customType) ?? "Custom");
			renderContent(body, message.content, undefined);
			return root;
		}
		case "branchSummary":
		case "compactionSummary": {
			const { root, body } = messageFrame(entry, "summary", role === "branchSummary" ? "Branch summary" : "Summary");
			body.append(markdownBlock(str(message.summary) ?? ""));
			return root;
		}
		default: {
			const { root, body } = messageFrame(entry, "unknown", role);
			renderContent(body, message.content, undefined);
			return root;
		}
	}
}
