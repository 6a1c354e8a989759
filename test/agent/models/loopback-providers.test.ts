import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEvent,
	complete,
	type Model,
	stream,
	streamSimple,
} from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelRegistry } from "../../../source/agent/models/model-registry.js";
import {
	type LoopbackLlmServer,
	type LoopbackProtocol,
	startLoopbackLlmServer,
} from "../../helpers/loopback-llm-server.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";
import { promptContext, writeAgentFile } from "./model-fixtures.js";

describe("models: loopback server", () => {
	const dirs = useTempAgentDir();

	const protocols: {
		protocol: LoopbackProtocol;
		api: string;
		path: string;
		auth: (key: string) => [string, string];
	}[] = [
		{ protocol: "openai", api: "openai-completions", path: "/v1", auth: (key) => ["authorization", `Bearer ${key}`] },
		{ protocol: "anthropic", api: "anthropic-messages", path: "", auth: (key) => ["x-api-key", key] },
	];

	function textOf(message: AssistantMessage): string {
		return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
	}

	describe.each(protocols)("pi-ai against the loopback server ($protocol)", ({ protocol, api, path, auth }) => {
		let server: LoopbackLlmServer;
		let model: Model<Api>;
		let apiKey: string;

		beforeEach(async () => {
			server = await startLoopbackLlmServer();
			writeAgentFile(dirs.agentDir, "models.json", {
				providers: {
					loop: {
						baseUrl: `${server.baseUrl}${path}`,
						api,
						apiKey: "loop-secret-123",
						models: [{ id: "loop-model", contextWindow: 32768, maxTokens: 4096, reasoning: true }],
					},
				},
			});
			const registry = await ModelRegistry.load({ env: {} });
			expect(registry.configErrors()).toEqual([]);
			const found = registry.find("loop/loop-model");
			if (!found) throw new Error("custom model not registered");
			model = found;
			apiKey = registry.getApiKey("loop") ?? "";
		});

		afterEach(async () => {
			await server.close();
		});

		it("streams text and propagates usage", async () => {
			server.enqueue({
				text: "Hello from the loopback server, streamed in pieces.",
				usage: { input: 42, output: 11, cacheRead: 5 },
			});
			const events = stream(model, promptContext("say hello"), { apiKey });
			const deltas: string[] = [];
			for await (const event of events) if (event.type === "text_delta") deltas.push(event.delta);
			const message = await events.result();
			expect(message.stopReason).toBe("stop");
			expect(textOf(message)).toBe("Hello from the loopback server, streamed in pieces.");
			expect(deltas.length).toBeGreaterThan(3);
			expect(deltas.join("")).toBe(textOf(message));
			expect(message.usage).toMatchObject({ input: 42, output: 11, cacheRead: 5, cacheWrite: 0, totalTokens: 58 });
			expect(message.usage.cost.total).toBe(0);
		});

		it("paces frames when asked to", async () => {
			server.enqueue({ text: "slow and steady wins", delayMsBetweenChunks: 5 });
			const message = await complete(model, promptContext("slowly"), { apiKey });
			expect(textOf(message)).toBe("slow and steady wins");
			expect(server.pending()).toBe(0);
		});

		it("sends the model id, the prompt, the tools and the configured key", async () => {
			server.enqueue({ text: "ok" });
			await complete(model, promptContext("what is in here?"), { apiKey });
			expect(server.requests).toHaveLength(1);
			const request = server.requests[0];
			expect(request?.protocol).toBe(protocol);
			expect(request?.path).toBe(protocol === "openai" ? "/v1/chat/completions" : "/v1/messages");
			expect(request?.body.model).toBe("loop-model");
			expect(request?.body.stream).toBe(true);
			expect(JSON.stringify(request?.body.messages)).toContain("what is in here?");
			const system =
				protocol === "openai" ? JSON.stringify(request?.body.messages) : JSON.stringify(request?.body.system);
			expect(system).toContain("You are xcsh.");
			const toolNames = JSON.stringify(request?.body.tools);
			expect(toolNames).toContain('"bash"');
			expect(toolNames).toContain('"read"');
			const [header, value] = auth("loop-secret-123");
			expect(request?.headers[header]).toBe(value);
		});

		it("delivers tool calls with parsed arguments", async () => {
			server.enqueue({
				toolCalls: [
					{ name: "read", arguments: { path: "src/index.ts", offset: 10 } },
					{ name: "bash", arguments: { command: "ls -la && echo 'done'" } },
				],
				usage: { input: 20, output: 30 },
			});
			const message = await complete(model, promptContext("look around"), { apiKey });
			expect(message.stopReason).toBe("toolUse");
			const calls = message.content.filter((block) => block.type === "toolCall");
			expect(calls.map((call) => [call.name, call.arguments])).toEqual([
				["read", { path: "src/index.ts", offset: 10 }],
				["bash", { command: "ls -la && echo 'done'" }],
			]);
			expect(calls.every((call) => call.id.length > 0)).toBe(true);
			expect(message.usage).toMatchObject({ input: 20, output: 30 });
		});

		it("streams thinking through streamSimple with a reasoning level", async () => {
			server.enqueue({ thinking: "Let me think about this carefully.", text: "Done thinking." });
			const message = await streamSimple(model, promptContext("think"), { apiKey, reasoning: "low" }).result();
			expect(message.stopReason).toBe("stop");
			expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
			const thinking = message.content[0];
			expect(thinking?.type === "thinking" && thinking.thinking).toBe("Let me think about this carefully.");
			expect(textOf(message)).toBe("Done thinking.");
		});

		it("aborts mid-stream: stopReason aborted, and the server sees the disconnect", async () => {
			server.enqueue({ text: "This answer will never finish because the server hangs.", hangAfterChunks: 3 });
			const controller = new AbortController();
			const events = streamSimple(model, promptContext("go"), { apiKey, signal: controller.signal });
			const seen: AssistantMessageEvent["type"][] = [];
			for await (const event of events) {
				seen.push(event.type);
				if (event.type === "text_delta") controller.abort();
			}
			const message = await events.result();
			expect(message.stopReason).toBe("aborted");
			expect(seen.at(-1)).toBe("error");
			expect(textOf(message).length).toBeGreaterThan(0);
			await server.waitForDisconnect();
			expect(server.requests[0]?.disconnected).toBe(true);
		});

		it("reports an HTTP error as stopReason error", async () => {
			server.enqueue({ status: 400 });
			const message = await complete(model, promptContext("fail"), { apiKey, maxRetries: 0 });
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toContain("400");
		});
	});
});
