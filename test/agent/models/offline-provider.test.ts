import { Agent, type AgentTool } from "@mariozechner/pi-agent-core";
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	type Context,
	complete,
	completeSimple,
	stream,
	streamSimple,
	type ToolResultMessage,
	Type,
} from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { summarize } from "../../../source/agent/compaction/summarizer.js";
import { describeModelSetup } from "../../../source/agent/models/model-setup.js";
import { isOfflineModel, OFFLINE_MODEL } from "../../../source/agent/models/offline-provider.js";
import { detectToolIntent } from "../../../source/agent/models/offline-responder.js";
import { assistantMessage, toolResultMessage, userMessage } from "../../helpers/messages.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";
import { promptContext, user } from "./model-fixtures.js";

describe("models: offline provider", () => {
	useTempAgentDir();

	function textOf(message: AssistantMessage): string {
		return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
	}

	async function collect(events: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
		const seen: AssistantMessageEvent[] = [];
		for await (const event of events) seen.push(event);
		return seen;
	}

	function toolCallOf(message: AssistantMessage) {
		const call = message.content.find((block) => block.type === "toolCall");
		if (call?.type !== "toolCall") throw new Error(`no tool call in ${JSON.stringify(message.content)}`);
		return call;
	}

	describe("offline model: plain prompts", () => {
		it("streams start → text_start → text_delta… → text_end → done", async () => {
			const events = await collect(stream(OFFLINE_MODEL, promptContext("How do I centre a div?")));
			const types = events.map((event) => event.type);
			expect(types[0]).toBe("start");
			expect(types[1]).toBe("text_start");
			expect(types.filter((type) => type === "text_delta").length).toBeGreaterThan(3);
			expect(types.slice(-2)).toEqual(["text_end", "done"]);
			const done = events.at(-1);
			if (done?.type !== "done") throw new Error("stream did not finish");
			const deltas = events.flatMap((event) => (event.type === "text_delta" ? [event.delta] : []));
			expect(deltas.join("")).toBe(textOf(done.message));
			expect(done.message.usage.input).toBeGreaterThan(0);
			expect(done.message.usage.output).toBe(Math.ceil(textOf(done.message).length / 4));
			expect(done.message.usage.totalTokens).toBe(done.message.usage.input + done.message.usage.output);
			expect(done.message.usage.cost.total).toBe(0);
			expect(done.message).toMatchObject({
				api: "xcsh-offline",
				provider: "xcsh",
				model: "offline",
				stopReason: "stop",
			});
		});

		it("answers the same input with the same output, explaining itself and echoing the prompt", async () => {
			const context = promptContext("Please refactor the parser");
			const first = await complete(OFFLINE_MODEL, context);
			const second = await complete(OFFLINE_MODEL, context);
			expect(second.content).toEqual(first.content);
			expect(second.usage).toEqual(first.usage);
			const text = textOf(first);
			expect(text).toContain("offline model");
			expect(text).toContain('You said: "Please refactor the parser" (4 words).');
			expect(text).toContain(describeModelSetup());
		});

		it("is recognised as the offline model", () => {
			expect(isOfflineModel(OFFLINE_MODEL)).toBe(true);
			expect(isOfflineModel({ provider: "anthropic", id: "offline" })).toBe(false);
		});
	});

	describe("offline model: tools", () => {
		const requests: [string, string, Record<string, string>][] = [
			["list files", "bash", { command: "ls -la" }],
			["what files are here?", "bash", { command: "ls -la" }],
			["ls", "bash", { command: "ls" }],
			["read README.md", "read", { path: "README.md" }],
			["show package.json.", "read", { path: "package.json" }],
			["cat src/a.ts", "read", { path: "src/a.ts" }],
			["please open `docs/my notes.md`", "read", { path: "docs/my notes.md" }],
			["run git status --short", "bash", { command: "git status --short" }],
			["$ echo hi", "bash", { command: "echo hi" }],
		];
		it.each(requests)("%j → %s tool call", async (prompt, name, args) => {
			const message = await complete(OFFLINE_MODEL, promptContext(prompt));
			expect(message.stopReason).toBe("toolUse");
			const call = toolCallOf(message);
			expect(call.name).toBe(name);
			expect(call.arguments).toEqual(args);
			const again = await complete(OFFLINE_MODEL, promptContext(prompt));
			expect(toolCallOf(again).id).toBe(call.id);
		});

		it("leaves ordinary sentences alone", () => {
			expect(detectToolIntent("I already read the docs.")).toBeUndefined();
			expect(detectToolIntent("show me how this works")).toBeUndefined();
		});

		it("streams the tool call's arguments as deltas", async () => {
			const events = await collect(stream(OFFLINE_MODEL, promptContext("read README.md")));
			const types = events.map((event) => event.type);
			expect(types[1]).toBe("toolcall_start");
			const deltas = events.flatMap((event) => (event.type === "toolcall_delta" ? [event.delta] : []));
			expect(JSON.parse(deltas.join(""))).toEqual({ path: "README.md" });
			const end = events.find((event) => event.type === "toolcall_end");
			expect(end?.type === "toolcall_end" && end.toolCall.arguments).toEqual({ path: "README.md" });
		});

		it("says so instead of calling a tool the session does not have", async () => {
			const message = await complete(OFFLINE_MODEL, promptContext("list files", []));
			expect(message.stopReason).toBe("stop");
			expect(textOf(message)).toBe("I would run `ls -la` with the bash tool, but this session has no `bash` tool.");
		});

		it("summarises a tool result: line count and first lines", async () => {
			const first = await complete(OFFLINE_MODEL, promptContext("list files"));
			const call = toolCallOf(first);
			const result: ToolResultMessage = {
				role: "toolResult",
				toolCallId: call.id,
				toolName: "bash",
				content: [{ type: "text", text: "a.ts\nb.ts\nc.ts\nd.ts\ne.ts\nf.ts\ng.ts\n" }],
				isError: false,
				timestamp: 1,
			};
			const context: Context = { ...promptContext("list files"), messages: [user("list files"), first, result] };
			const message = await complete(OFFLINE_MODEL, context);
			expect(message.stopReason).toBe("stop");
			expect(textOf(message)).toBe(
				"The `bash` tool returned 7 lines:\n\n```\na.ts\nb.ts\nc.ts\nd.ts\ne.ts\n```\n… 2 more lines.",
			);
		});

		it("runs a whole tool round trip inside pi-agent-core's Agent", async () => {
			const executed: string[] = [];
			const parameters = Type.Object({ command: Type.String() });
			const bash: AgentTool<typeof parameters> = {
				name: "bash",
				label: "bash",
				description: "Run a shell command",
				parameters,
				execute: async (_id, params) => {
					executed.push(params.command);
					return { content: [{ type: "text", text: "README.md\npackage.json" }], details: undefined };
				},
			};
			const agent = new Agent({ initialState: { model: OFFLINE_MODEL, systemPrompt: "You are xcsh.", tools: [bash] } });
			await agent.prompt("list files");
			expect(executed).toEqual(["ls -la"]);
			const last = agent.state.messages.at(-1);
			expect(last?.role).toBe("assistant");
			expect(last?.role === "assistant" && textOf(last)).toContain("The `bash` tool returned 2 lines");
		});
	});

	describe("offline model: thinking, abort, summaries", () => {
		it("thinks first when reasoning is on, and not when it is off", async () => {
			const events = await collect(streamSimple(OFFLINE_MODEL, promptContext("hello"), { reasoning: "medium" }));
			expect(events.map((event) => event.type).slice(0, 3)).toEqual(["start", "thinking_start", "thinking_delta"]);
			const done = events.at(-1);
			if (done?.type !== "done") throw new Error("stream did not finish");
			expect(done.message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
			const plain = await completeSimple(OFFLINE_MODEL, promptContext("hello"));
			expect(plain.content.map((block) => block.type)).toEqual(["text"]);
		});

		it("stops with stopReason aborted when the signal fires mid-stream", async () => {
			const controller = new AbortController();
			const events = streamSimple(OFFLINE_MODEL, promptContext("tell me everything"), { signal: controller.signal });
			const seen: AssistantMessageEvent[] = [];
			for await (const event of events) {
				seen.push(event);
				if (event.type === "text_delta") controller.abort();
			}
			const result = await events.result();
			expect(result.stopReason).toBe("aborted");
			expect(result.errorMessage).toBe("Request was aborted");
			expect(seen.filter((event) => event.type === "text_delta")).toHaveLength(1);
			expect(seen.at(-1)?.type).toBe("error");
			expect(textOf(result).length).toBeGreaterThan(0);
		});

		it("does not start when the signal is already aborted", async () => {
			const result = await complete(OFFLINE_MODEL, promptContext("hello"), { signal: AbortSignal.abort() });
			expect(result.stopReason).toBe("aborted");
			expect(result.content).toEqual([]);
		});

		it("summarises a pasted conversation, listing every user prompt", async () => {
			const context: Context = {
				systemPrompt: "You are a context summarization assistant. Summarize the conversation you are given.",
				messages: [
					user(
						[
							"<conversation>",
							"[User]: fix the bug in parser.ts",
							"[Assistant]: I'll look at it.",
							'[Assistant tool calls]: read(path="parser.ts"); bash(command="npm test")',
							"[Tool result]: ok",
							"[User]: now add tests",
							"for the edge cases",
							"</conversation>",
							"",
							"Create a structured summary.",
						].join("\n"),
					),
				],
			};
			const message = await complete(OFFLINE_MODEL, context);
			const text = textOf(message);
			expect(text).toContain("## Goal\nfix the bug in parser.ts");
			expect(text).toContain("## User prompts\n1. fix the bug in parser.ts\n2. now add tests for the edge cases\n");
			expect(text).toContain("- read ×1\n- bash ×1");
			expect((await complete(OFFLINE_MODEL, context)).content).toEqual(message.content);
		});

		it("a branch summary of xcsh's own serialisation counts the branch's tool calls", async () => {
			const call = assistantMessage("Reading it");
			call.content.push({ type: "toolCall", id: "call_read", name: "read", arguments: { path: "src/a.ts" } });
			const result = { ...toolResultMessage("export const a = 1;"), toolCallId: "call_read" };
			for (const kind of ["branch", "compaction"] as const) {
				const summary = await summarize({
					model: OFFLINE_MODEL,
					kind,
					messages: [userMessage("look at a.ts"), call, result, assistantMessage("It exports a.")],
				});
				expect(summary).toContain("## Progress\n- read ×1\n- last reply: It exports a.");
				expect(summary).not.toContain("no tool calls");
			}
		});

		it("summarises the conversation in its own messages when asked to", async () => {
			const first = await complete(OFFLINE_MODEL, promptContext("what is 2 + 2?"));
			const context: Context = {
				messages: [user("what is 2 + 2?"), first, user("and 3 + 3?"), user("Summarize the conversation so far.")],
			};
			const text = textOf(await complete(OFFLINE_MODEL, context));
			expect(text).toContain("## User prompts\n1. what is 2 + 2?\n2. and 3 + 3?\n\n");
			expect(text).toContain("- last reply: I'm the offline model");
			expect(text).not.toContain("Summarize the conversation so far.");
		});
	});
});
