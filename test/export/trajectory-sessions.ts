import type { AssistantMessage, ToolResultMessage } from "@mariozechner/pi-ai";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, imageBlock, userMessage } from "../helpers/messages.js";

/** A GitHub token the redactor finds (fake). */
export const TOKEN = "ghp_FAKETpnAMD2zhau2IfUknAkMIQJqgDmFwp7F";

/** An assistant turn with thinking, text, tool calls and real usage figures. */
export function agentTurn(
	text: string,
	calls: { id: string; name: string; args: Record<string, unknown> }[],
	model = "claude-sonnet-4-5",
	provider = "anthropic",
): AssistantMessage {
	return {
		...assistantMessage(text, model, provider),
		content: [
			{ type: "thinking", thinking: `thinking about ${text}` },
			...(text ? [{ type: "text" as const, text }] : []),
			...calls.map((call) => ({ type: "toolCall" as const, id: call.id, name: call.name, arguments: call.args })),
		],
		usage: {
			input: 1000,
			output: 200,
			cacheRead: 500,
			cacheWrite: 100,
			totalTokens: 1800,
			cost: { input: 0.003, output: 0.003, cacheRead: 0.0002, cacheWrite: 0.0004, total: 0.0066 },
		},
		stopReason: calls.length > 0 ? "toolUse" : "stop",
	};
}

/** The result of one call. */
export function resultOf(callId: string, name: string, text: string, image = false): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: callId,
		toolName: name,
		content: [{ type: "text", text }, ...(image ? [imageBlock(3000, 7)] : [])],
		isError: false,
		timestamp: Date.now(),
	};
}

/** The ids of `storySession`'s landmarks. */
export interface StoryIds {
	prompt: string;
	firstTurn: string;
	mainLeaf: string;
	sideLeaf: string;
	summary: string;
}

/**
 * A session with what every export format has to carry: a model change (default role and `smol`),
 * a thinking level, tool calls with results (one holding a secret and a big image, kept in the blob
 * store), a user image (blob), a label, a custom message, a branch summary, an aborted call with no
 * result, and two branches (the main one, written last, holds the leaf).
 */
export async function storySession(cwd: string): Promise<{ session: SessionManager; ids: StoryIds }> {
	const session = await SessionManager.create(cwd);
	session.appendModelChange("anthropic/claude-sonnet-4-5");
	session.appendThinkingLevelChange("high");
	const prompt = session.appendMessage(userMessage("Why does the build fail? FIRSTPROMPT"));
	const firstTurn = session.appendMessage(
		agentTurn("Let me look.", [{ id: "call_1", name: "bash", args: { command: "npm test", timeout: 60 } }]),
	);
	session.appendMessage(resultOf("call_1", "bash", `token ${TOKEN}\n1 failing test`, true));
	session.appendMessage(agentTurn("The test a.ts fails. MAINANSWER", []));
	session.appendLabelChange(prompt, "start");
	session.appendCustomMessageEntry("note", "An extension note CUSTOMNOTE", true);
	session.appendModelChange("openai/gpt-5-mini", "smol");
	const withImage = userMessage("And this screenshot? IMAGEPROMPT");
	withImage.content = [...(withImage.content as { type: "text"; text: string }[]), imageBlock(2500, 3)];
	session.appendMessage(withImage);
	session.appendMessage(
		agentTurn("", [
			{ id: "call_2", name: "Grep", args: { pattern: "fail", path: ".", "-n": true } },
			{ id: "call_3", name: "read", args: { path: "a.ts" } },
		]),
	);
	session.appendMessage(resultOf("call_2", "Grep", "a.ts:1: fail"));
	// call_3 was aborted: it has no result.
	session.appendModelChange("openai/gpt-5");
	const answer = session.appendMessage(
		assistantMessage("It is a screenshot of the failure. LASTANSWER", "gpt-5", "openai"),
	);
	const summary = session.branchWithSummary(firstTurn, "Tried to skip the test SUMMARYTEXT");
	session.appendMessage(userMessage("Try another way SIDEPROMPT"));
	const sideLeaf = session.appendMessage(assistantMessage("Another way SIDEANSWER"));
	session.branch(answer);
	session.appendMessage(userMessage("Thanks FINALPROMPT"));
	const mainLeaf = session.appendMessage(assistantMessage("You are welcome FINALANSWER", "gpt-5", "openai"));
	await session.flush();
	return { session, ids: { prompt, firstTurn, mainLeaf, sideLeaf, summary } };
}
