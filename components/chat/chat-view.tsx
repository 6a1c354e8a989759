import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { Box, Static, Text } from "ink";
import type { ChatItem, RunningTool } from "../../controllers/chat-controller.js";
import { wrapProse } from "../../source/render/wrap.js";
import { pendingLines, runningLines } from "./live-lines.js";
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

/** Border and padding of the welcome box: its text wraps inside. */
const WELCOME_CHROME = 4;

function Welcome({ item, width }: { readonly item: Extract<ChatItem, { kind: "welcome" }>; readonly width: number }) {
	// As wide as the editor and the status line below it (the whole terminal width).
	return (
		<Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
			<Text>
				<Text bold color="cyan">
					xcsh
				</Text>{" "}
				<Text dimColor>
					· {item.model} · session {item.session}
				</Text>
			</Text>
			<Text dimColor>{wrapProse(item.cwd, width - WELCOME_CHROME).join("\n")}</Text>
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
			return <Welcome item={item} width={width} />;
		case "message":
			return <MessageView message={item.message} showThinking={showThinking} width={width} />;
		case "notice":
			return (
				<Box marginTop={1} width={width}>
					<Text
						{...(item.level === "error"
							? { color: "red" }
							: item.level === "warning"
								? { color: "yellow" }
								: { dimColor: true })}
					>
						{wrapProse(item.text, width).join("\n")}
					</Text>
				</Box>
			);
	}
}

/**
 * Finished history in <Static> (drawn once); the streaming message and running tools live below,
 * pre-wrapped to the width and cut to their last `liveRows` rows, so the live region never reaches
 * the terminal's height (where Ink clears the screen on every frame and the last rows went missing).
 */
export function ChatView({ items, pending, running, remountKey, showThinking, width, liveRows }: ChatViewProps) {
	const tools = runningLines(running, width);
	const budget = Math.max(1, liveRows - tools.length);
	const streamed = pendingLines(pending, width, showThinking);
	const shown = streamed.length > budget ? streamed.slice(-budget) : streamed;
	return (
		<>
			<Static key={remountKey} items={items as ChatItem[]}>
				{(item) => (
					<Box key={item.id} width={width}>
						<HistoryItem item={item} showThinking={showThinking} width={width} />
					</Box>
				)}
			</Static>
			{shown.length > 0 ? (
				<Box marginTop={1} width={width}>
					<Text>{shown.join("\n")}</Text>
				</Box>
			) : null}
			{tools.length > 0 ? (
				<Box width={width}>
					<Text>{tools.join("\n")}</Text>
				</Box>
			) : null}
		</>
	);
}
