import type { AgentMessage } from "@mariozechner/pi-agent-core";

/** Prompts quoted at the end of a digest: the first one and the latest ones, never all of a huge path. */
const RECENT_PROMPTS = 20;
const QUOTE_CHARS = 200;
const TOOL_NAMES = 50;

function oneLine(text: string): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length <= QUOTE_CHARS ? flat : `${flat.slice(0, QUOTE_CHARS - 1)}…`;
}

function textOf(content: string | readonly { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content
		.filter((block) => block.type === "text")
		.map((block) => block.text ?? "")
		.join(" ");
}

const count = (n: number, word: string): string => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/**
 * A summary written by rule from messages seen one at a time, in bounded memory: how many turns,
 * the first and the latest prompts, the tools used, the last reply. What the offline model gives
 * for a context too big to pass it in one request, and the outline of a part no model reads.
 */
export class RuleDigest {
	#messages = 0;
	#prompts = 0;
	#first: string | undefined;
	readonly #recent: string[] = [];
	readonly #tools = new Map<string, number>();
	#lastReply = "";

	/** Takes one message into account (it is not kept). */
	add(message: AgentMessage): void {
		this.#messages++;
		switch (message.role) {
			case "user": {
				const prompt = oneLine(textOf(message.content));
				if (!prompt) break;
				this.#prompts++;
				this.#first ??= prompt;
				this.#recent.push(prompt);
				if (this.#recent.length > RECENT_PROMPTS) this.#recent.shift();
				break;
			}
			case "assistant": {
				const text = message.content
					.filter((block) => block.type === "text")
					.map((block) => block.text)
					.join(" ");
				if (text.trim()) this.#lastReply = oneLine(text);
				for (const block of message.content) {
					if (block.type !== "toolCall") continue;
					const seen = this.#tools.get(block.name);
					if (seen !== undefined || this.#tools.size < TOOL_NAMES) this.#tools.set(block.name, (seen ?? 0) + 1);
				}
				break;
			}
			default:
				break;
		}
	}

	/** Messages seen so far. */
	get messages(): number {
		return this.#messages;
	}

	/** The digest as a structured summary; `previousSummary` (an earlier compaction's) is kept at its head. */
	text(previousSummary?: string): string {
		const skipped = this.#prompts - this.#recent.length;
		const firstShown = skipped > 0 ? this.#recent : this.#recent.slice(1);
		const prompts = this.#first
			? [
					`1. ${this.#first}`,
					...(skipped > 1 ? [`(… ${count(skipped - 1, "more prompt")} …)`] : []),
					...firstShown.map((prompt, i) => `${this.#prompts - firstShown.length + i + 1}. ${prompt}`),
				]
			: ["(none)"];
		const tools = [...this.#tools].map(([name, n]) => `- ${name} ×${n.toLocaleString("en-US")}`);
		return [
			...(previousSummary ? ["## Earlier summary", previousSummary, ""] : []),
			"## Goal",
			this.#first ?? "(no user prompt found)",
			"",
			`## User prompts (${count(this.#prompts, "prompt")} in ${count(this.#messages, "message")})`,
			...prompts,
			"",
			"## Progress",
			...(tools.length > 0 ? tools : ["- no tool calls"]),
			...(this.#lastReply ? [`- last reply: ${this.#lastReply}`] : []),
			"",
			"## Next Steps",
			this.#recent.length > 0 ? `- continue from: ${this.#recent.at(-1)}` : "- wait for the user",
			"",
			"(Written by rule by xcsh from a stream of the conversation: a list of what was said, not an understanding of it.)",
		].join("\n");
	}
}
