import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelRegistry } from "../../source/agent/models/model-registry.js";
import { createCodingTools } from "../../source/agent/tools/index.js";
import { AgentSession } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { type LoopbackLlmServer, startLoopbackLlmServer } from "../helpers/loopback-llm-server.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("AgentSession over a real provider protocol (loopback server)", () => {
	const temp = useTempAgentDir();
	let server: LoopbackLlmServer;
	let session: AgentSession | undefined;

	beforeEach(async () => {
		server = await startLoopbackLlmServer();
	});
	afterEach(async () => {
		await session?.dispose().catch(() => undefined);
		session = undefined;
		await server.close();
	});

	async function make(api: "openai-completions" | "anthropic-messages"): Promise<AgentSession> {
		mkdirSync(temp.agentDir, { recursive: true });
		const baseUrl = api === "openai-completions" ? `${server.baseUrl}/v1` : server.baseUrl;
		writeFileSync(
			join(temp.agentDir, "models.json"),
			JSON.stringify({
				providers: { loop: { baseUrl, api, apiKey: "k", models: [{ id: "m", contextWindow: 50_000 }] } },
			}),
		);
		const registry = await ModelRegistry.load({ env: {} });
		const model = registry.find("loop/m");
		if (!model) throw new Error("models.json model missing");
		session = await AgentSession.create({
			sessionManager: await SessionManager.create(temp.root),
			models: registry,
			model,
			tools: createCodingTools(temp.root),
		});
		return session;
	}

	for (const api of ["openai-completions", "anthropic-messages"] as const) {
		it(`${api}: abort mid-stream keeps the partial message and drops the connection`, async () => {
			const agent = await make(api);
			server.enqueue({ text: "partial answer that never finishes", hangAfterChunks: 4 });
			let firstDelta!: () => void;
			const streaming = new Promise<void>((resolve) => {
				firstDelta = resolve;
			});
			agent.subscribe((e) => {
				if (e.type === "message_update" && e.assistantMessageEvent.type === "text_delta") firstDelta();
			});
			const run = agent.prompt("go");
			await streaming;
			await agent.abort();
			await run;
			await server.waitForDisconnect(0);
			const last = agent.messages.at(-1);
			expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
			await agent.sessionManager.flush();
			const reopened = await SessionManager.open(agent.sessionManager.getSessionFile()!);
			expect(reopened.buildSessionContext().messages.at(-1)).toMatchObject({
				role: "assistant",
				stopReason: "aborted",
			});
		});
	}

	it("steering and follow-up messages reach the model and the session", async () => {
		const agent = await make("openai-completions");
		writeFileSync(join(temp.root, "a.txt"), "alpha\n");
		server.enqueue(
			{ text: "reading", toolCalls: [{ name: "read", arguments: { path: "a.txt" } }], delayMsBetweenChunks: 5 },
			{ text: "saw the steer" },
			{ text: "follow-up done" },
		);
		let steered = false;
		agent.subscribe((e) => {
			if (e.type === "tool_execution_start" && !steered) {
				steered = true;
				void agent.steer("also mention beta");
				void agent.followUp("and then say bye");
			}
		});
		await agent.prompt("read a.txt");
		const users = agent.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
		expect(users).toHaveLength(3);
		expect(users[1]).toContain("also mention beta");
		expect(users[2]).toContain("and then say bye");
		expect(JSON.stringify(server.requests[1]!.body)).toContain("also mention beta");
		const stored = agent.sessionManager.getEntries().filter((e) => e.type === "message");
		expect(stored).toHaveLength(agent.messages.length);
	});
});
