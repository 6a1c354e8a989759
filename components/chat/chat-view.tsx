import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { Box, Static, Text } from "ink";
import type { ChatItem, RunningTool } from "../../controllers/chat-controller.js";
import { clipLines, toolCallLabel } from "../../source/render/tool-labels.js";
import { MessageView } from "./message-view.js";

/** Props of ChatView. */
export interface ChatViewProps {
	readonly items: readonly ChatItem[];
	readonly pending: AgentMessage | undefined;
	readonly running: readonly RunningTool[];
	readonly remountKey: number;
	readonly showThinking: boolean;
	readonly width: number;
	/** Rows the live part (streaming message, tool output) may use; it must stay below the terminal height. */
	readonly liveRows: number;
}

function Welcome({ item }: { readonly item: Extract<ChatItem, { kind: "welcome" }> }) {
	return (
		<Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
			<Text>
				<Text bold color="cyan">
					xcsh
				</Text>{" "}
				<Text dimColor>
					· {item.model} · session {item.session}
				</Text>
			</Text>
			<Text dimColor>{item.cwd}</Text>
			{item.hint ? <Text color="yellow">{item.hint}</Text> : null}
			<Text dimColor>Type a prompt, /help for commands.</Text>
		</Box>
	);
}

function HistoryItem({
	item,
	showThinking,
	width,
}: {
	readonly item: ChatItem;
	readonly showThinking: boolean;
	readonly width: number;
}) {
	switch (item.kind) {
		case "welcome":
			return <Welcome item={item} />;
		case "message":
			return <MessageView message={item.message} showThinking={showThinking} width={width} />;
		case "notice":
			return (
				<Box marginTop={1}>
					<Text
						{...(item.level === "error"
							? { color: "red" }
							: item.level === "warning"
								? { color: "yellow" }
								: { dimColor: true })}
					>
						{item.text}
					</Text>
				</Box>
			);
	}
}

/** Keeps the last `rows` lines of a text, so the live region never reaches the terminal height. */
function tail(text: string, rows: number): string {
	const lines = text.split("\n");
	return lines.length <= rows ? text : lines.slice(-rows).join("\n");
}

/** Finished history in <Static> (drawn once), the streaming message and running tools live below. */
export function ChatView({ items, pending, running, remountKey, showThinking, width, liveRows }: ChatViewProps) {
	const pendingText =
		pending?.role === "assistant"
			? pending.content
					.map((b) =>
						b.type === "text" ? b.text : b.type === "toolCall" ? `● ${toolCallLabel(b.name, b.arguments)}` : "",
					)
					.filter(Boolean)
					.join("\n")
			: "";
	return (
		<>
			<Static key={remountKey} items={items as ChatItem[]}>
				{(item) => (
					<Box key={item.id} width={width}>
						<HistoryItem item={item} showThinking={showThinking} width={width} />
					</Box>
				)}
			</Static>
			{pendingText ? (
				<Box marginTop={1}>
					<Text>{tail(pendingText, Math.max(1, liveRows - running.length * 3))}</Text>
				</Box>
			) : null}
			{running.map((tool) => {
				const { lines } = clipLines(tail(tool.output, 3), 3);
				return (
					<Box key={tool.id} flexDirection="column">
						<Text color="cyan">● {toolCallLabel(tool.name, tool.args)}</Text>
						{lines.map((line, i) => (
							// biome-ignore lint/suspicious/noArrayIndexKey: a rolling tail of output lines
							<Text key={i} dimColor wrap="truncate-end">
								{"    "}
								{line}
							</Text>
						))}
					</Box>
				);
			})}
		</>
	);
}
