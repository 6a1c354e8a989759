import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { Box, Text } from "ink";
import { memo } from "react";
import { renderMarkdown } from "../../source/render/markdown.js";
import { clipLines, toolCallLabel } from "../../source/render/tool-labels.js";
import { wrapProse } from "../../source/render/wrap.js";
import { thinkingLines, thinkingSummary } from "./live-lines.js";

/** Props of MessageView. */
export interface MessageViewProps {
	readonly message: AgentMessage;
	readonly showThinking: boolean;
	readonly width: number;
}

const RESULT_LINES = 4;
/** Border and padding of the summary boxes. */
const BOX_CHROME = 4;

function contentText(content: string | readonly { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content.map((b) => (b.type === "text" ? (b.text ?? "") : `[${b.type}]`)).join("\n");
}

function Clipped({ text, color }: { readonly text: string; readonly color?: string }) {
	const { lines, hidden } = clipLines(text, RESULT_LINES);
	if (lines.length === 0) return <Text dimColor> ⎿ (no output)</Text>;
	return (
		<Box flexDirection="column">
			{lines.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: lines of a finished message never reorder
				<Text key={i} {...(color ? { color } : { dimColor: true })} wrap="truncate-end">
					{i === 0 ? "  ⎿ " : "    "}
					{line}
				</Text>
			))}
			{hidden > 0 ? <Text dimColor> … +{hidden} lines</Text> : null}
		</Box>
	);
}

function AssistantView({
	message,
	showThinking,
	width,
}: {
	readonly message: Extract<AgentMessage, { role: "assistant" }>;
	readonly showThinking: boolean;
	readonly width: number;
}) {
	return (
		<Box flexDirection="column" width={width}>
			{message.content.map((block, i) => {
				const key = `${block.type}-${i}`;
				if (block.type === "text")
					return block.text.trim() ? <Text key={key}>{renderMarkdown(block.text, { width })}</Text> : null;
				if (block.type === "thinking") {
					if (!block.thinking.trim()) return null;
					return showThinking ? (
						<Text key={key}>{thinkingLines(block.thinking, width).join("\n")}</Text>
					) : (
						<Text key={key} dimColor>
							{thinkingSummary(block.thinking)}
						</Text>
					);
				}
				return (
					<Text key={key} color="cyan" wrap="truncate-end">
						● {toolCallLabel(block.name, block.arguments)}
					</Text>
				);
			})}
			{message.stopReason === "aborted" ? <Text color="yellow">(aborted)</Text> : null}
			{message.stopReason === "error" ? (
				<Text color="red">Error: {message.errorMessage ?? "the model returned an error"}</Text>
			) : null}
		</Box>
	);
}

/** One message of the chat: user prompt, assistant answer (markdown, thinking, tool calls), tool result, summaries. */
export const MessageView = memo(function MessageView({ message, showThinking, width }: MessageViewProps) {
	switch (message.role) {
		case "user":
			return (
				<Box marginTop={1}>
					<Text bold color="green">
						›{" "}
					</Text>
					<Box width={Math.max(1, width - 2)}>
						<Text bold>{wrapProse(contentText(message.content), width - 2).join("\n")}</Text>
					</Box>
				</Box>
			);
		case "assistant":
			return (
				<Box marginTop={1}>
					<AssistantView message={message} showThinking={showThinking} width={width} />
				</Box>
			);
		case "toolResult":
			return <Clipped text={contentText(message.content)} {...(message.isError ? { color: "red" } : {})} />;
		case "bashExecution":
			return (
				<Box flexDirection="column" marginTop={1}>
					<Text color="cyan">$ {message.command}</Text>
					<Clipped text={message.output} />
				</Box>
			);
		case "custom":
			return message.display ? (
				<Text dimColor>
					[{message.customType}] {contentText(message.content)}
				</Text>
			) : null;
		case "branchSummary":
			return (
				<Box marginTop={1} borderStyle="round" borderDimColor paddingX={1} flexDirection="column">
					<Text dimColor>Summary of the branch left behind</Text>
					<Text>{renderMarkdown(message.summary, { width: width - BOX_CHROME })}</Text>
				</Box>
			);
		case "compactionSummary":
			return (
				<Box marginTop={1} borderStyle="round" borderDimColor paddingX={1} flexDirection="column">
					<Text dimColor>Earlier conversation (compacted, {message.tokensBefore.toLocaleString("en-US")} tokens)</Text>
					<Text>{renderMarkdown(message.summary, { width: width - BOX_CHROME })}</Text>
				</Box>
			);
		default:
			return null;
	}
});
