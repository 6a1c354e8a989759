import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ChatItem } from "../../controllers/chat-controller.js";
import { renderMarkdownLines } from "../../source/render/markdown.js";
import { bold, cyan, dim, dimItalic, green, red, yellow } from "../../source/render/paint.js";
import { clipLines, toolCallLabel } from "../../source/render/tool-labels.js";
import { hang, pad, wrapCode, wrapProse } from "../../source/render/wrap.js";

/**
 * Chat items as terminal rows, each no wider than the width and styled on its own: what the
 * transcript viewport slices. Pure functions of the item and the options, so rows are cached per
 * item and only computed for the blocks a window touches.
 */

/** How rows are drawn: width, and the two transcript-wide toggles (Ctrl+T, Ctrl+O). */
export interface RowOptions {
	readonly width: number;
	readonly showThinking: boolean;
	readonly expandTools: boolean;
}

/** Rows of a tool's output shown while tool output is collapsed. */
const COLLAPSED_OUTPUT_ROWS = 4;

/** The one-line stand-in for a hidden thinking block. */
function thinkingSummary(thinking: string): string {
	const lines = thinking.trim().split("\n").length;
	return `∴ thinking (${lines} ${lines === 1 ? "line" : "lines"}, Ctrl+T to show)`;
}

/** One row: cut (not wrapped) at the width, with an ellipsis when cut. */
export function oneRow(text: string, width: number): string {
	// Only the head can show: a tool output of one 1 MB line is not wrapped whole to draw one row.
	const limit = width * 4 + 16;
	const cut = text.length > limit;
	const flat = (cut ? text.slice(0, limit) : text).replaceAll("\t", "    ");
	const rows = wrapCode(flat, width);
	return rows.length <= 1 && !cut ? flat : `${wrapCode(flat, Math.max(1, width - 1))[0] ?? ""}…`;
}

/** The body of an assistant message: markdown, thinking (shown or summarised), one `●` row per tool call. */
export function assistantRows(
	message: Extract<AgentMessage, { role: "assistant" }>,
	options: Pick<RowOptions, "width" | "showThinking">,
): string[] {
	const { width } = options;
	const out: string[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim()) out.push(...renderMarkdownLines(block.text, { width }));
		} else if (block.type === "thinking") {
			if (!block.thinking.trim()) continue;
			if (options.showThinking)
				out.push(dim("∴ thinking (Ctrl+T to hide)"), ...wrapProse(block.thinking.trim(), width).map(dimItalic));
			else out.push(dim(thinkingSummary(block.thinking)));
		} else {
			out.push(cyan(oneRow(`● ${toolCallLabel(block.name, block.arguments)}`, width)));
		}
	}
	return out;
}

function contentText(content: string | readonly { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content.map((b) => (b.type === "text" ? (b.text ?? "") : `[${b.type}]`)).join("\n");
}

/** The note a tail-truncated bash output ends with (it names the file with the whole log). */
const TRUNCATION_NOTE = /\n*(\[Output truncated: [^\n]*\])\s*$/;

/**
 * A tool's output under its call: the first rows, or all of them with Ctrl+O, each row saying what
 * was cut; a truncation note (with the full log's path) is always shown.
 */
function outputRows(text: string, options: RowOptions, paint: (row: string) => string = dim): string[] {
	const note = TRUNCATION_NOTE.exec(text);
	const body = note ? text.slice(0, note.index) : text;
	const room = Math.max(1, options.width - 4);
	const { lines, hidden } = clipLines(body, options.expandTools ? Number.POSITIVE_INFINITY : COLLAPSED_OUTPUT_ROWS);
	const rows: string[] = [];
	if (lines.length === 0) rows.push(dim("  ⎿ (no output)"));
	lines.forEach((line, i) => {
		const lead = i === 0 ? "  ⎿ " : "    ";
		const flat = line.replaceAll("\t", "    ");
		if (options.expandTools) rows.push(...hang(wrapCode(flat, room), lead, "    ").map(paint));
		else rows.push(paint(lead + oneRow(flat, room)));
	});
	if (hidden > 0) rows.push(dim(oneRow(`    … +${hidden} lines (Ctrl+O to show all)`, options.width)));
	if (note?.[1]) rows.push(...hang(wrapProse(note[1], room), "    ", "    ").map(yellow));
	return rows;
}

/** A bordered box around rows already wrapped to `width - 4`. */
function boxRows(inner: readonly string[], width: number, border: (text: string) => string): string[] {
	const room = Math.max(1, width - 4);
	return [
		border(`╭${"─".repeat(room + 2)}╮`),
		...inner.map((row) => `${border("│")} ${pad(row, room)} ${border("│")}`),
		border(`╰${"─".repeat(room + 2)}╯`),
	];
}

function welcomeRows(item: Extract<ChatItem, { kind: "welcome" }>, width: number): string[] {
	const room = Math.max(1, width - 4);
	const title = `${bold(cyan("xcsh"))} ${dim(`· ${item.model} · session ${item.session}`)}`;
	return boxRows(
		[
			...wrapProse(title, room),
			...wrapProse(item.cwd, room).map(dim),
			...(item.hint ? wrapProse(item.hint, room).map(yellow) : []),
			...wrapProse("Type a prompt, /help for commands.", room).map(dim),
		],
		width,
		cyan,
	);
}

function messageRows(message: AgentMessage, options: RowOptions): string[] {
	const { width } = options;
	switch (message.role) {
		case "user":
			return ["", ...hang(wrapProse(contentText(message.content), width - 2).map(bold), bold(green("› ")), "  ")];
		case "assistant":
			return [
				"",
				...assistantRows(message, options),
				...(message.stopReason === "aborted" ? [yellow("(aborted)")] : []),
				...(message.stopReason === "error"
					? wrapProse(`Error: ${message.errorMessage ?? "the model returned an error"}`, width).map(red)
					: []),
			];
		case "toolResult":
			return outputRows(contentText(message.content), options, message.isError ? red : dim);
		case "bashExecution": {
			const note =
				message.truncated && message.fullOutputPath
					? `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`
					: "";
			return ["", cyan(oneRow(`$ ${message.command}`, width)), ...outputRows(message.output + note, options)];
		}
		case "custom":
			return message.display
				? wrapProse(`[${message.customType}] ${contentText(message.content)}`, width).map(dim)
				: [];
		case "branchSummary":
			return ["", ...summaryBox("Summary of the branch left behind", message.summary, width)];
		case "compactionSummary":
			return [
				"",
				...summaryBox(
					`Earlier conversation (compacted, ${message.tokensBefore.toLocaleString("en-US")} tokens)`,
					message.summary,
					width,
				),
			];
		default:
			return [];
	}
}

function summaryBox(title: string, summary: string, width: number): string[] {
	const room = Math.max(1, width - 4);
	return boxRows([dim(title), ...renderMarkdownLines(summary, { width: room })], width, dim);
}

const NOTICE_PAINT = { error: red, warning: yellow, info: dim } as const;

/** The rows of one chat item. */
export function itemRows(item: ChatItem, options: RowOptions): string[] {
	switch (item.kind) {
		case "welcome":
			return welcomeRows(item, options.width);
		case "message":
			return messageRows(item.message, options);
		case "notice":
			return ["", ...wrapProse(item.text, options.width).map(NOTICE_PAINT[item.level])];
	}
}
