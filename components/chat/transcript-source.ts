import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ChatItem, RunningTool } from "../../controllers/chat-controller.js";
import type { ChatItems } from "../../controllers/chat-items.js";
import type { TranscriptSource } from "../../controllers/transcript-viewport.js";
import { itemRows, type RowOptions } from "./item-rows.js";
import { pendingLines, runningLines } from "./live-lines.js";

/** What the transcript shows: the finished items, then the streaming message and the running tools. */
export interface TranscriptParts {
	readonly items: ChatItems;
	readonly pending: AgentMessage | undefined;
	readonly pendingId: string;
	readonly running: readonly RunningTool[];
}

/** Rows of each item, for the options they were drawn with: a finished item never changes. */
const cache = new WeakMap<ChatItem, { readonly signature: string; readonly rows: readonly string[] }>();

function cachedRows(item: ChatItem, options: RowOptions, signature: string): readonly string[] {
	const hit = cache.get(item);
	if (hit?.signature === signature) return hit.rows;
	const rows = itemRows(item, options);
	cache.set(item, { signature, rows });
	return rows;
}

/**
 * The chat as viewport blocks: one per item (rows computed on first use, then cached), then the
 * streaming message (keyed by the id its item will take) and the running tools.
 */
export function transcriptSource(parts: TranscriptParts, options: RowOptions): TranscriptSource {
	const signature = `${options.width}|${options.showThinking}|${options.expandTools}`;
	const { items } = parts;
	const streamed = pendingLines(parts.pending, options.width, options.showThinking);
	const pending = streamed.length > 0 ? ["", ...streamed] : [];
	const running = runningLines(parts.running, options.width);
	return {
		length: items.length + 2,
		key: (index) =>
			index < items.length ? (items.at(index)?.id ?? "") : index === items.length ? parts.pendingId : "running",
		rows: (index) => {
			const item = index < items.length ? items.at(index) : undefined;
			if (item) return cachedRows(item, options, signature);
			return index === items.length ? pending : running;
		},
	};
}
