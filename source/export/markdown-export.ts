import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { FileChange } from "../checkpoints/checkpoint-data.js";
import { asText, entryMessage } from "../session/message-shape.js";
import type { SessionHeader, StoredEntry } from "../session/types.js";
import { fileCounts, filesSummary, turnFilesOf } from "./checkpoint-files.js";

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

/** The files a turn changed, where its checkpoint entry is on the path (Markdown only). */
interface TurnFiles {
	readonly role: "turnFiles";
	readonly files: readonly FileChange[];
}

type Piece = AgentMessage | TurnFiles;

/** Keeps each user prompt and the last assistant text before the next prompt (one message held at a time). */
function* focus<T extends Piece>(messages: Iterable<T>): Generator<T> {
	let answer: T | undefined;
	for (const message of messages) {
		if (message.role === "turnFiles") {
			// The files come after the turn's answer.
			if (answer) yield answer;
			answer = undefined;
			yield message;
		} else if (message.role === "user") {
			if (answer) yield answer;
			answer = undefined;
			yield message;
		} else if (message.role === "assistant" && message.content.some((b) => b.type === "text" && b.text.trim())) {
			answer = { ...message, content: message.content.filter((b) => b.type === "text") } as T;
		}
	}
	if (answer) yield answer;
}

/** The messages of entries read one at a time, in the shapes readers expect. */
function streamMessages(path: Iterable<StoredEntry>, options: TextExportOptions): Generator<AgentMessage> {
	return streamPieces(path, options, false) as Generator<AgentMessage>;
}

/** The messages, and with `withFiles` the files each turn changed, read one entry at a time. */
function* streamPieces(path: Iterable<StoredEntry>, options: TextExportOptions, withFiles: boolean): Generator<Piece> {
	function* all(): Generator<Piece> {
		for (const entry of path) {
			const message = entryMessage(entry);
			if (message !== undefined) yield message;
			const files = withFiles ? turnFilesOf(entry) : undefined;
			if (files) yield { role: "turnFiles", files };
		}
	}
	yield* options.focused ? focus(all()) : all();
}

function messageMarkdown(message: Piece, turn: { n: number }): string | undefined {
	switch (message.role) {
		case "turnFiles":
			return details(
				`Files changed: ${filesSummary(message.files)}`,
				message.files.map((f) => `- \`${f.path}\` ${f.status} ${fileCounts(f)}`).join("\n"),
			);
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

/** A path as Markdown, piece by piece (a streamed export writes each piece as it comes). */
export function* markdownPieces(
	header: SessionHeader,
	path: Iterable<StoredEntry>,
	options: TextExportOptions = {},
): Generator<string> {
	const turn = { n: 0 };
	const title = typeof header.title === "string" && header.title ? header.title : `Session ${header.id}`;
	yield `# ${title}\n\n_${asText(header.cwd)} · ${asText(header.timestamp)}_\n\n`;
	let first = true;
	for (const message of streamPieces(path, options, true)) {
		const text = messageMarkdown(message, turn);
		if (text === undefined) continue;
		yield first ? text : `\n\n${text}`;
		first = false;
	}
	yield "\n";
}

/** A path as Markdown that reads well on GitHub: a heading per turn, tool calls and results in `<details>`. */
export function sessionToMarkdown(
	header: SessionHeader,
	path: readonly StoredEntry[],
	options: TextExportOptions = {},
): string {
	return [...markdownPieces(header, path, options)].join("");
}

/** `JSON.stringify(value, null, 2)` nested `depth` levels deep. */
function indented(value: unknown, depth: number): string {
	return JSON.stringify(value, null, 2).replace(/\n/g, `\n${"  ".repeat(depth)}`);
}

/** A path as JSON, piece by piece: the same bytes as `JSON.stringify({ header, messages }, null, 2)`. */
export function* jsonPieces(
	header: SessionHeader,
	path: Iterable<StoredEntry>,
	options: TextExportOptions = {},
): Generator<string> {
	yield `{\n  "header": ${indented(header, 1)},\n  "messages": [`;
	let first = true;
	for (const message of streamMessages(path, options)) {
		yield `${first ? "" : ","}\n    ${indented(message, 2)}`;
		first = false;
	}
	yield first ? "]\n}\n" : "\n  ]\n}\n";
}

/** A path as JSON: the header and the resolved messages, root to leaf. */
export function sessionToJson(
	header: SessionHeader,
	path: readonly StoredEntry[],
	options: TextExportOptions = {},
): string {
	return [...jsonPieces(header, path, options)].join("");
}
