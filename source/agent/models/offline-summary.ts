import type { Context, Message } from "@mariozechner/pi-ai";
import { messageText, oneLine } from "./offline-text.js";

/** What is summarised: compaction, branch summaries and "summarize our conversation" all say so. */
const SUMMARY_VERB = /\bsummar(?:y|ies|ize|ise|izing|ising)\b/i;
const SUMMARY_OBJECT = /\b(?:conversation|session|branch|history|transcript|chat|context)\b/i;

/** A turn marker in a conversation pasted as text, e.g. pi's `[User]: …` serialisation or `User: …`. */
const TURN_MARKER = /^\s*(?:\[([A-Za-z][A-Za-z ]*)\]|(User|Assistant|Tool result)):\s?(.*)$/;

function lastUser(context: Context): Message | undefined {
	return context.messages.findLast((message) => message.role === "user");
}

/** True when the system prompt or the last user message asks for a summary of a conversation. */
export function isSummarizationRequest(context: Context): boolean {
	const asks = (text: string | undefined) => !!text && SUMMARY_VERB.test(text) && SUMMARY_OBJECT.test(text);
	const request = lastUser(context);
	const requestText = request ? messageText(request) : "";
	return asks(context.systemPrompt) || asks(requestText) || requestText.includes("<conversation>");
}

/** The turns of `role` found in a conversation pasted as text: each `[User]:` (or `[Assistant]:`) block until the next marker. */
function pastedTurns(text: string, role: "user" | "assistant"): string[] {
	const turns: string[] = [];
	let current: string[] | undefined;
	for (const line of text.split("\n")) {
		const marker = TURN_MARKER.exec(line);
		// A closing tag (`</conversation>`) ends the pasted transcript; what follows is the instruction.
		if (marker || line.trimStart().startsWith("</")) {
			if (current) turns.push(current.join("\n"));
			const found = (marker?.[1] ?? marker?.[2] ?? "").toLowerCase();
			current = found === role ? [marker?.[3] ?? ""] : undefined;
		} else if (current) {
			current.push(line);
		}
	}
	if (current) turns.push(current.join("\n"));
	return turns.map((turn) => oneLine(turn, 200)).filter((turn) => turn.length > 0);
}

function toolUse(messages: readonly Message[], pasted: string): string[] {
	const counts = new Map<string, number>();
	const bump = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
	for (const message of messages) {
		if (message.role !== "assistant") continue;
		for (const block of message.content) if (block.type === "toolCall") bump(block.name);
	}
	for (const line of pasted.split("\n")) {
		// xcsh's own serialiser writes one call a line with JSON arguments: `[Assistant tool call]: read({"path":"a.ts"})`;
		// only the leading name counts, since the arguments may hold anything.
		const single = /^\s*\[Assistant tool call\]:\s?([A-Za-z_][\w-]*)\(/.exec(line)?.[1];
		if (single) bump(single);
		// pi serialises calls as `[Assistant tool calls]: read(path="a.ts"); bash(command="ls")`.
		const calls = /^\s*\[Assistant tool calls\]:\s?(.*)$/.exec(line)?.[1];
		for (const call of calls?.matchAll(/([A-Za-z_][\w-]*)\(/g) ?? []) if (call[1]) bump(call[1]);
	}
	return [...counts].map(([name, count]) => `- ${name} ×${count}`);
}

/** A structured, deterministic summary listing every user prompt the request contained. */
export function summarizeConversation(context: Context): string {
	const request = lastUser(context);
	const earlier = context.messages.filter((message) => message !== request);
	const pasted = request ? messageText(request) : "";
	const prompts = [
		...earlier.filter((message) => message.role === "user").map((message) => oneLine(messageText(message), 200)),
		...pastedTurns(pasted, "user"),
	].filter((prompt) => prompt.length > 0);
	const tools = toolUse(earlier, pasted);
	const lastReply = earlier.findLast((message) => message.role === "assistant");
	const lastReplyText = lastReply
		? oneLine(messageText(lastReply), 200)
		: (pastedTurns(pasted, "assistant").at(-1) ?? "");
	return [
		"## Goal",
		prompts[0] ?? "(no user prompt found)",
		"",
		"## User prompts",
		...(prompts.length > 0 ? prompts.map((prompt, index) => `${index + 1}. ${prompt}`) : ["(none)"]),
		"",
		"## Progress",
		...(tools.length > 0 ? tools : ["- no tool calls"]),
		...(lastReplyText ? [`- last reply: ${lastReplyText}`] : []),
		"",
		"## Next Steps",
		prompts.length > 0 ? `- continue from: ${prompts[prompts.length - 1]}` : "- wait for the user",
		"",
		"(Written by the xcsh offline model: a list of what was said, not an understanding of it.)",
	].join("\n");
}
