import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { Api, Model } from "@mariozechner/pi-ai";
import { nameEndpoint } from "../models/endpoint-error.js";
import { serializeConversation } from "./serialize-conversation.js";

/** What to summarise and with which model. */
export interface SummaryRequest {
	model: Model<Api>;
	apiKey?: string;
	messages: readonly AgentMessage[];
	/** The conversation already serialised (a piece of a stream); `messages` is then ignored. */
	conversation?: string;
	kind: "compaction" | "branch";
	instructions?: string;
	previousSummary?: string;
	signal?: AbortSignal;
}

const SYSTEM_PROMPTS = {
	compaction:
		"You summarize a conversation between a user and a coding agent so that the agent can continue the work " +
		"with only your summary. Write a structured summary: the goal, decisions made, files read and changed, " +
		"commands run and their outcome, the current state, and the next steps. Be specific; keep paths, names and errors.",
	branch:
		"You summarize a branch of a conversation between a user and a coding agent that the user is leaving. " +
		"Write a short summary of what was tried on this branch, what was learned and what state it left, " +
		"so the conversation can continue elsewhere with that knowledge.",
} as const;

/** The most a summary is asked to take (a piece's request leaves room for it and the summary before). */
export const SUMMARY_MAX_TOKENS = 4096;

/** The user message a summarising model gets. */
function buildSummaryPrompt(request: Omit<SummaryRequest, "model" | "apiKey" | "signal">): string {
	const parts = [
		`Summarize this conversation.\n\n<conversation>\n${request.conversation ?? serializeConversation(request.messages)}\n</conversation>`,
	];
	if (request.previousSummary)
		parts.push(`<previous-summary>\n${request.previousSummary}\n</previous-summary>\nMerge it into the new summary.`);
	if (request.instructions?.trim()) parts.push(`Additional instructions: ${request.instructions.trim()}`);
	return parts.join("\n\n");
}

/** Asks the model for a summary; throws when the model fails or the request is aborted. */
export async function summarize(request: SummaryRequest): Promise<string> {
	const { completeSimple } = await import("@mariozechner/pi-ai");
	const options: { maxTokens: number; signal?: AbortSignal; apiKey?: string } = {
		maxTokens: Math.min(SUMMARY_MAX_TOKENS, request.model.maxTokens || SUMMARY_MAX_TOKENS),
	};
	if (request.signal) options.signal = request.signal;
	if (request.apiKey) options.apiKey = request.apiKey;
	const response = await completeSimple(
		request.model,
		{
			systemPrompt: SYSTEM_PROMPTS[request.kind],
			messages: [
				{ role: "user", content: [{ type: "text", text: buildSummaryPrompt(request) }], timestamp: Date.now() },
			],
		},
		options,
	);
	if (response.stopReason === "aborted") throw new Error("Summary cancelled");
	if (response.stopReason === "error")
		throw new Error(`Summary failed: ${nameEndpoint(response.errorMessage ?? "unknown error", request.model)}`);
	const text = response.content
		.filter((b) => b.type === "text")
		.map((b) => b.text)
		.join("\n")
		.trim();
	if (!text) throw new Error("Summary failed: the model returned no text");
	return text;
}
