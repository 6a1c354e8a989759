import type { Agent, AgentTool } from "@mariozechner/pi-agent-core";
import type { AgentSessionOptions } from "./agent-session-options.js";
import { convertToLlm } from "./messages.js";

/**
 * The pi-agent-core Agent behind an AgentSession, its runtime loaded here (~0.5 s) rather than at
 * import. Every tool call waits for the turn hooks' `beforeTool` (a tool may change files, and the
 * turn's "before" checkpoint must come first) and reports its end to `afterTool`.
 */
export async function createAgent(options: AgentSessionOptions, tools: AgentTool[]): Promise<Agent> {
	const { Agent } = await import("@mariozechner/pi-agent-core");
	return new Agent({
		initialState: {
			systemPrompt: options.systemPrompt ?? "",
			model: options.model,
			thinkingLevel: options.model.reasoning ? (options.thinkingLevel ?? "off") : "off",
			tools,
		},
		convertToLlm: (messages) => convertToLlm(messages),
		getApiKey: (provider) => options.models.getApiKey(provider),
		sessionId: options.sessionManager.getSessionId(),
		beforeToolCall: async () => void (await options.turnHooks?.beforeTool()),
		afterToolCall: async () => void options.turnHooks?.afterTool(),
	});
}
