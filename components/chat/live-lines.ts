import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { RunningTool } from "../../controllers/chat-controller.js";
import { renderStreamingMarkdown } from "../../source/render/markdown.js";
import { clipLines, toolCallLabel } from "../../source/render/tool-labels.js";
import { wrapCode, wrapProse } from "../../source/render/wrap.js";

const DIM_ITALIC = (text: string) => `\x1b[2m\x1b[3m${text}\x1b[23m\x1b[22m`;
const DIM = (text: string) => `\x1b[2m${text}\x1b[22m`;
const CYAN = (text: string) => `\x1b[36m${text}\x1b[39m`;

/** The one-line stand-in for a hidden thinking block. */
export function thinkingSummary(thinking: string): string {
	const lines = thinking.trim().split("\n").length;
	return `∴ thinking (${lines} ${lines === 1 ? "line" : "lines"}, Ctrl+T to show)`;
}

/** A thinking block shown in full (Ctrl+T), wrapped to the width. */
export function thinkingLines(thinking: string, width: number): string[] {
	return [DIM("∴ thinking (Ctrl+T to hide)"), ...wrapProse(thinking.trim(), width).map(DIM_ITALIC)];
}

/** One row: cut (not wrapped) at the width, so it takes exactly one row. */
function oneRow(text: string, width: number): string {
	const flat = text.replaceAll("\t", "    ");
	const rows = wrapCode(flat, width);
	return rows.length <= 1 ? flat : `${wrapCode(flat, Math.max(1, width - 1))[0] ?? ""}…`;
}

/**
 * The streaming assistant message as terminal rows no wider than `width`: its markdown rendered as
 * it will be once finished, thinking shown or summarised, one `●` header per tool call.
 */
export function pendingLines(message: AgentMessage | undefined, width: number, showThinking: boolean): string[] {
	if (message?.role !== "assistant") return [];
	const out: string[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim()) out.push(...renderStreamingMarkdown(block.text, { width }).lines);
		} else if (block.type === "thinking") {
			if (!block.thinking.trim()) continue;
			out.push(...(showThinking ? thinkingLines(block.thinking, width) : [DIM(thinkingSummary(block.thinking))]));
		} else {
			out.push(CYAN(oneRow(`● ${toolCallLabel(block.name, block.arguments)}`, width)));
		}
	}
	return out;
}

/** Output rows shown under a running tool. */
export const RUNNING_OUTPUT_ROWS = 3;

/**
 * The rows for tools that are running: the `●` header is already drawn with the call in the
 * assistant message above, so only the output's last rows follow (with the tool's name when
 * several run at once, to tell their outputs apart).
 */
export function runningLines(running: readonly RunningTool[], width: number): string[] {
	return running.flatMap((tool) => {
		const name = running.length > 1 ? [DIM(oneRow(`  ⎿ ${toolCallLabel(tool.name, tool.args)}`, width))] : [];
		const all = tool.output.replace(/\s+$/, "").split("\n");
		const { lines } = clipLines(all.slice(-RUNNING_OUTPUT_ROWS).join("\n"), RUNNING_OUTPUT_ROWS);
		const body = lines.length > 0 ? lines : ["running…"];
		return [
			...name,
			...body.map((line, i) => DIM(oneRow(`${i === 0 && name.length === 0 ? "  ⎿ " : "    "}${line}`, width))),
		];
	});
}
