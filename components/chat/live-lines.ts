import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { RunningTool } from "../../controllers/chat-controller.js";
import { dim } from "../../source/render/paint.js";
import { clipLines, toolCallLabel } from "../../source/render/tool-labels.js";
import { assistantRows, oneRow } from "./item-rows.js";

/**
 * The streaming assistant message as rows: its markdown rendered as it will be once finished
 * (blocks before the last are final, see `renderStreamingMarkdown`), so nothing jumps at the end.
 */
export function pendingLines(message: AgentMessage | undefined, width: number, showThinking: boolean): string[] {
	if (message?.role !== "assistant") return [];
	return assistantRows(message, { width, showThinking });
}

/** Output rows shown under a running tool. */
const RUNNING_OUTPUT_ROWS = 3;

/**
 * The rows for tools that are running: the `●` header is already drawn with the call in the
 * assistant message above, so only the output's last rows follow (with the tool's name when
 * several run at once, to tell their outputs apart).
 */
export function runningLines(running: readonly RunningTool[], width: number): string[] {
	return running.flatMap((tool) => {
		const name = running.length > 1 ? [dim(oneRow(`  ⎿ ${toolCallLabel(tool.name, tool.args)}`, width))] : [];
		const all = tool.output.replace(/\s+$/, "").split("\n");
		const { lines } = clipLines(all.slice(-RUNNING_OUTPUT_ROWS).join("\n"), RUNNING_OUTPUT_ROWS);
		const body = lines.length > 0 ? lines : ["running…"];
		return [
			...name,
			...body.map((line, i) => dim(oneRow(`${i === 0 && name.length === 0 ? "  ⎿ " : "    "}${line}`, width))),
		];
	});
}
