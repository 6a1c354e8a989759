import { Box, Text } from "ink";
import type { ChatStatus } from "../controllers/chat-controller.js";
import { safeLine } from "../source/render/safe-text.js";

/** Props of StatusLine. */
export interface StatusLineProps {
	readonly status: ChatStatus;
	readonly width: number;
	/** A passing note (what a background import brought in), shown after the rest. */
	readonly note?: string | undefined;
}

function compact(n: number): string {
	if (n < 1000) return String(n);
	if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
	return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Model, thinking level, session, tokens and cost so far, context-window use, and a passing note. */
export function StatusLine({ status, width, note }: StatusLineProps) {
	const context = status.contextPercent === undefined ? "" : ` · ctx ${status.contextPercent}%`;
	return (
		<Box width={width}>
			<Text wrap="truncate-end" dimColor>
				<Text {...(status.offline ? { color: "yellow" } : {})}>{safeLine(status.model)}</Text>
				{status.thinking !== "off" ? ` · thinking ${status.thinking}` : ""} · {safeLine(status.session)} · ↑
				{compact(status.inputTokens)} ↓{compact(status.outputTokens)} · ${status.cost.toFixed(3)}
				{context}
				{note ? ` · ${safeLine(note)}` : ""}
			</Text>
		</Box>
	);
}
