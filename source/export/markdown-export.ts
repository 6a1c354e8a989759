import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { asText, entryMessage } from "../session/message-shape.js";
import type { SessionHeader, StoredEntry } from "../session/types.js";

/** `--focused`: only the prompts and the final answers of each turn. */
export interface TextExportOptions {
	focused?: boolean;
}

type Blocks = string | readonly { type: string; text?: string }[];

function textOf(content: Blocks): string {
	if (typeof content === "string") return content;
	return content.map((b) => (b.type === "text" ? (b.text ?? "") : `[${b.type}]`)).join("\n");
}

function fence(text: string, lang = ""): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	const ticks = "`".repeat(longest + 1);
	return `${ticks}${lang}\n${text}\n${ticks}`;
}

function escapeHtml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function details(summary: string, body: string): string {
	return `<details><summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

/** The messages of a path, with summaries and custom messages as the agent saw them, in the shapes readers expect. */
export function pathMessages(path: readonly StoredEntry[]): AgentMessage[] {
	return path.map(entryMessage).filter((message): message is AgentMessage => message !== undefined);
}

/** Keeps each user prompt and the last assistant text before the next prompt. */
function focus(messages: readonly AgentMessage[]): AgentMessage[] {
	const out: AgentMessage[] = [];
	let answer: AgentMessage | undefined;
	for (const message of messages) {
		if (message.role === "user") {
			if (answer) out.push(answer);
			answer = undefined;
			out.push(message);
		} else if (message.role === "assistant" && message.content.some((b) => b.type === "text" && b.text.trim())) {
			answer = { ...message, content: message.content.filter((b) => b.type === "text") };
		}
	}
	if (answer) out.push(answer);
	return out;
}

function messageMarkdown(message: AgentMessage, turn: { n: number }): string | undefined {
	switch (message.role) {
		case "user":
			turn.n += 1;
			return `## ${turn.n}. User\n\n${textOf(message.content)}`;
		case "assistant": {
			const parts = ["### Assistant"];
			for (const block of message.content) {
				if (block.type === "text") parts.push(block.text);
				else if (block.type === "thinking") parts.push(details("Thinking", block.thinking));
				else parts.push(details(`Tool call: ${block.name}`, fence(JSON.stringify(block.arguments, null, 2), "json")));
			}
			return parts.join("\n\n");
		}
		case "toolResult":
			return details(
				`Result of ${message.toolName}${message.isError ? " (error)" : ""}`,
				fence(textOf(message.content)),
			);
		case "bashExecution":
			return details(`$ ${message.command}`, fence(message.output));
		case "custom":
			return message.display ? `> **${message.customType}:** ${textOf(message.content)}` : undefined;
		case "branchSummary":
			return `> **Summary of another branch:**\n>\n> ${message.summary.replace(/\n/g, "\n> ")}`;
		case "compactionSummary":
			return `> **Earlier conversation (compacted):**\n>\n> ${message.summary.replace(/\n/g, "\n> ")}`;
		default:
			return undefined;
	}
}

/** A path as Markdown that reads well on GitHub: a heading per turn, tool calls and results in `<details>`. */
export function sessionToMarkdown(
	header: SessionHeader,
	path: readonly StoredEntry[],
	options: TextExportOptions = {},
): string {
	const all = pathMessages(path);
	const messages = options.focused ? focus(all) : all;
	const turn = { n: 0 };
	const title = typeof header.title === "string" && header.title ? header.title : `Session ${header.id}`;
	const body = messages.map((m) => messageMarkdown(m, turn)).filter((s): s is string => s !== undefined);
	return `# ${title}\n\n_${asText(header.cwd)} · ${asText(header.timestamp)}_\n\n${body.join("\n\n")}\n`;
}

/** A path as JSON: the header and the resolved messages, root to leaf. */
export function sessionToJson(
	header: SessionHeader,
	path: readonly StoredEntry[],
	options: TextExportOptions = {},
): string {
	const all = pathMessages(path);
	return `${JSON.stringify({ header, messages: options.focused ? focus(all) : all }, null, 2)}\n`;
}
