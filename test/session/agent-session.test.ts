import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentMessage, AgentTool } from "@mariozechner/pi-agent-core";
import {
	type Api,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	type Model,
	registerFauxProvider,
	Type,
} from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExtensionRunner } from "../../source/agent/extensions/runner.js";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { AgentSession, type ModelResolver, modelRef } from "../../source/session/agent-session.js";
import type { AgentSessionEvent } from "../../source/session/agent-session-events.js";
import { getArtifactsDir } from "../../source/session/artifacts.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

function resolver(...models: Model<Api>[]): ModelResolver & { failOn?: string } {
	const r: ModelResolver & { failOn?: string } = {
		find(ref) {
			if (r.failOn && ref === r.failOn) throw new Error(`registry exploded on ${ref}`);
			return models.find((m) => modelRef(m) === ref);
		},
		getApiKey: () => "test-key",
	};
	return r;
}

const echoTool: AgentTool = {
	name: "echo",
	label: "Echo",
	description: "Echoes its text",
	parameters: Type.Object({ text: Type.String() }),
	execute: async (_id, params) => ({
		content: [{ type: "text", text: `echo: ${(params as { text: string }).text}` }],
		details: {},
	}),
};

function textOf(message: AgentMessage | undefined): string {
	if (!message || !("content" in message)) return String(message);
	if (typeof message.content === "string") return message.content;
	return message.content.map((c) => (c.type === "text" ? c.text : c.type)).join("");
}

describe("AgentSession", () => {
	const temp = useTempAgentDir();
	let faux: ReturnType<typeof registerFauxProvider>;
	const sessions: AgentSession[] = [];

	beforeEach(() => {
		faux = registerFauxProvider({ models: [{ id: "faux-1", contextWindow: 200_000, reasoning: true }] });
	});
	afterEach(async () => {
		for (const s of sessions.splice(0)) await s.dispose().catch(() => undefined);
		faux.unregister();
	});

	async function make(
		options: { manager?: SessionManager; extensions?: ExtensionRunner; models?: ModelResolver } = {},
	) {
		const manager = options.manager ?? (await SessionManager.create(temp.root));
		const model = faux.getModel();
		const session = await AgentSession.create({
			sessionManager: manager,
			models: options.models ?? resolver(model, OFFLINE_MODEL),
			model,
			tools: [echoTool],
			systemPrompt: "You are a test.",
			...(options.extensions ? { extensions: options.extensions } : {}),
		});
		sessions.push(session);
		return session;
	}

	it("a tool round trip is persisted and reloads to the same context", async () => {
		faux.setResponses([
			fauxAssistantMessage(fauxToolCall("echo", { text: "hi" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("The tool said hi."),
		]);
		const session = await make();
		const events: string[] = [];
		session.subscribe((e) => events.push(e.type));
		await session.prompt("use the tool");
		expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(events).toContain("tool_execution_start");
		expect(events).toContain("tool_execution_end");
		await session.sessionManager.flush();

		const file = session.sessionManager.getSessionFile()!;
		const reopened = await SessionManager.open(file);
		expect(reopened.buildSessionContext().messages).toEqual(session.messages);
		const types = reopened.getEntries().map((e) => e.type);
		expect(types).toContain("model_change");
		expect(readFileSync(file, "utf8")).toContain('"toolName":"echo"');
	});

	it("turn hooks: the model is asked without waiting on beforeTurn's work; every tool waits for beforeTool; afterTool follows each tool", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("echo", { text: "a" }), fauxToolCall("echo", { text: "b" })], {
				stopReason: "toolUse",
			}),
			fauxAssistantMessage("done"),
		]);
		const order: string[] = [];
		let release: () => void = () => {};
		const gate = new Promise<void>((resolve) => {
			release = resolve;
		});
		const manager = await SessionManager.create(temp.root);
		const model = faux.getModel();
		const session = await AgentSession.create({
			sessionManager: manager,
			models: resolver(model),
			model,
			tools: [
				{
					...echoTool,
					execute: async (...args) => {
						order.push("tool");
						return echoTool.execute(...args);
					},
				},
			],
			turnHooks: {
				beforeTurn: async () => {
					order.push("beforeTurn");
				},
				beforeTool: async () => {
					order.push("beforeTool");
					await gate;
				},
				afterTool: () => {
					order.push("afterTool");
				},
				afterTurn: async () => {
					order.push("afterTurn");
				},
			},
		});
		sessions.push(session);
		session.subscribe((event) => {
			// The model answered while beforeTool's work was still pending; only then may it finish.
			if (event.type === "message_end" && event.message.role === "assistant") release();
		});
		await session.prompt("two tools");
		expect(order).toEqual([
			"beforeTurn",
			"beforeTool",
			"beforeTool",
			"tool",
			"tool",
			"afterTool",
			"afterTool",
			"afterTurn",
		]);
	});

	it("abort keeps the partial assistant message in the session", async () => {
		const slow = registerFauxProvider({
			provider: "slow",
			api: "slow-api",
			models: [{ id: "slow-1" }],
			tokensPerSecond: 20,
		});
		try {
			slow.setResponses([fauxAssistantMessage("word ".repeat(400))]);
			const manager = await SessionManager.create(temp.root);
			const session = await AgentSession.create({
				sessionManager: manager,
				models: resolver(slow.getModel()),
				model: slow.getModel(),
			});
			sessions.push(session);
			let sawDelta!: () => void;
			const streaming = new Promise<void>((resolve) => {
				sawDelta = resolve;
			});
			session.subscribe((e) => {
				if (e.type === "message_update") sawDelta();
			});
			const run = session.prompt("talk a lot");
			await streaming;
			await session.abort();
			await run;
			const last = session.messages.at(-1);
			expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
			const stored = manager.getEntries().at(-1) as { message: AgentMessage };
			expect(stored.message).toMatchObject({ role: "assistant", stopReason: "aborted" });
		} finally {
			slow.unregister();
		}
	});

	it("records the model and thinking level the first prompt used, and later changes", async () => {
		faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		const session = await make();
		await session.prompt("first");
		session.setThinkingLevel("high");
		await session.prompt("second");
		const entries = session.sessionManager.getEntries();
		expect(entries.filter((e) => e.type === "model_change")).toHaveLength(1);
		expect(entries.find((e) => e.type === "thinking_level_change")).toMatchObject({ thinkingLevel: "high" });
		expect(session.sessionManager.buildSessionContext()).toMatchObject({
			thinkingLevel: "high",
			models: { default: modelRef(faux.getModel()) },
		});
		session.setModel(OFFLINE_MODEL);
		expect(session.sessionManager.buildSessionContext().models.default).toBe("xcsh/offline");
	});

	it("switchSession cancelled by a hook returns false and changes nothing", async () => {
		const other = await SessionManager.create(temp.root);
		other.appendMessage({ role: "user", content: "other", timestamp: 1 });
		other.appendMessage(fauxAssistantMessage("other answer"));
		await other.close();

		const extensions = new ExtensionRunner();
		const seen: string[] = [];
		await extensions.add("first", (api) => api.on("session_before_switch", (e) => void seen.push(`first:${e.reason}`)));
		await extensions.add("veto", (api) => api.on("session_before_switch", () => ({ cancel: true })));
		await extensions.add("never", (api) => api.on("session_before_switch", () => void seen.push("never")));
		faux.setResponses([fauxAssistantMessage("mine")]);
		const session = await make({ extensions });
		await session.prompt("mine");
		const before = { file: session.sessionManager.getSessionFile(), messages: session.messages.slice() };
		expect(await session.switchSession(other.getSessionFile()!)).toBe(false);
		expect(seen).toEqual(["first:resume"]);
		expect(session.sessionManager.getSessionFile()).toBe(before.file);
		expect(session.messages).toEqual(before.messages);
	});

	it("switchSession runs the lifecycle and restores model and thinking from the target", async () => {
		const target = await SessionManager.create(temp.root);
		target.appendMessage({ role: "user", content: "old question", timestamp: 1 });
		target.appendModelChange("xcsh/offline");
		target.appendThinkingLevelChange("low");
		target.appendMessage(fauxAssistantMessage("old answer"));
		await target.close();

		const extensions = new ExtensionRunner();
		const order: string[] = [];
		await extensions.add("watch", (api) => {
			api.on("session_switch", (e) => void order.push(`switch:${e.reason}:${e.previousSessionFile !== undefined}`));
			api.registerTool({ ...echoTool, name: "watcher", onSession: (e) => void order.push(`tool:${e.reason}`) });
		});
		faux.setResponses([fauxAssistantMessage("current")]);
		const session = await make({ extensions });
		await session.prompt("current");
		const events: AgentSessionEvent[] = [];
		session.subscribe((e) => events.push(e));
		expect(await session.switchSession(target.getSessionFile()!)).toBe(true);
		expect(session.sessionManager.getSessionId()).toBe(target.getSessionId());
		expect(session.messages.map(textOf)).toEqual(["old question", "old answer"]);
		expect(session.model.id).toBe("offline");
		expect(session.thinkingLevel).toBe("low");
		expect(order).toEqual(["tool:start", "switch:resume:true", "tool:switch"]);
		expect(events.find((e) => e.type === "session_switch")).toMatchObject({ reason: "resume" });
	});

	it("branch moves the leaf, rebuilds the context and tells custom tools", async () => {
		const extensions = new ExtensionRunner();
		const seen: string[] = [];
		await extensions.add("watch", (api) => {
			api.on("session_branch", (e) => void seen.push(`branch:${e.leafId}`));
			api.registerTool({ ...echoTool, name: "watcher", onSession: (e) => void seen.push(`tool:${e.reason}`) });
		});
		faux.setResponses([fauxAssistantMessage("a1"), fauxAssistantMessage("a2")]);
		const session = await make({ extensions });
		await session.prompt("one");
		const firstAnswer = session.sessionManager.getLeafId()!;
		await session.prompt("two");
		await session.branch(firstAnswer);
		expect(session.messages.map(textOf)).toEqual(["one", "a1"]);
		expect(seen).toEqual(["tool:start", `branch:${firstAnswer}`, "tool:branch"]);
	});

	it("switchSession that fails mid-way restores the previous session and rethrows", async () => {
		const target = await SessionManager.create(temp.root);
		target.appendMessage({ role: "user", content: "target", timestamp: 1 });
		target.appendModelChange("boom/model");
		target.appendMessage(fauxAssistantMessage("target answer"));
		await target.close();

		const models = resolver(faux.getModel());
		models.failOn = "boom/model";
		faux.setResponses([fauxAssistantMessage("here"), fauxAssistantMessage("still here")]);
		const session = await make({ models });
		await session.prompt("here");
		const before = {
			file: session.sessionManager.getSessionFile(),
			id: session.sessionManager.getSessionId(),
			messages: session.messages.slice(),
		};
		await expect(session.switchSession(target.getSessionFile()!)).rejects.toThrow("registry exploded on boom/model");
		expect(session.sessionManager.getSessionFile()).toBe(before.file);
		expect(session.sessionManager.getSessionId()).toBe(before.id);
		expect(session.messages).toEqual(before.messages);
		await session.prompt("after");
		expect(session.messages.map(textOf).slice(-2)).toEqual(["after", "still here"]);
	});

	it("switchSession clears the next-turn queue: nothing queued for the old session reaches the new one", async () => {
		const target = await SessionManager.create(temp.root);
		target.appendMessage({ role: "user", content: "target", timestamp: 1 });
		target.appendMessage(fauxAssistantMessage("target answer"));
		await target.close();
		faux.setResponses([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
		const session = await make();
		await session.prompt("first");
		session.queueNextTurn({
			role: "custom",
			customType: "ext",
			content: "stale context",
			display: false,
			timestamp: 2,
		});
		expect(await session.switchSession(target.getSessionFile()!)).toBe(true);
		await session.prompt("second");
		expect(JSON.stringify(session.messages)).not.toContain("stale context");
		expect(session.sessionManager.getEntries().some((e) => e.type === "custom_message")).toBe(false);
	});

	it("a queued next-turn custom message goes out with the next prompt and is stored as custom_message", async () => {
		faux.setResponses([fauxAssistantMessage("ok")]);
		const session = await make();
		session.queueNextTurn({ role: "custom", customType: "ext", content: "fresh context", display: true, timestamp: 2 });
		await session.prompt("go");
		expect(session.sessionManager.getEntries().find((e) => e.type === "custom_message")).toMatchObject({
			customType: "ext",
			content: "fresh context",
			display: true,
		});
	});

	it("switchSession to a foreign file fails with a clear error and keeps the session", async () => {
		faux.setResponses([fauxAssistantMessage("x")]);
		const session = await make();
		await session.prompt("x");
		const foreign = join(temp.root, "notes.jsonl");
		writeFileSync(foreign, "hello\n");
		await expect(session.switchSession(foreign)).rejects.toThrow(`Not a session file: ${foreign}`);
		expect(readFileSync(foreign, "utf8")).toBe("hello\n");
		expect(session.messages).toHaveLength(2);
	});

	it("fork copies the artifacts directory and sets parentSession", async () => {
		faux.setResponses([fauxAssistantMessage("answer")]);
		const session = await make();
		await session.prompt("question");
		await session.sessionManager.flush();
		const oldFile = session.sessionManager.getSessionFile()!;
		const oldId = session.sessionManager.getSessionId();
		mkdirSync(join(getArtifactsDir(oldFile), "nested"), { recursive: true });
		writeFileSync(join(getArtifactsDir(oldFile), "nested", "out.txt"), "artifact");
		const events: AgentSessionEvent[] = [];
		session.subscribe((e) => events.push(e));
		expect(await session.fork()).toBe(true);
		const newFile = session.sessionManager.getSessionFile()!;
		expect(newFile).not.toBe(oldFile);
		expect(session.sessionManager.getHeader().parentSession).toBe(oldId);
		expect(readFileSync(join(getArtifactsDir(newFile), "nested", "out.txt"), "utf8")).toBe("artifact");
		expect(events.find((e) => e.type === "session_switch")).toMatchObject({
			reason: "fork",
			previousSessionFile: oldFile,
		});
	});

	it("fork without artifacts works; in memory it returns false", async () => {
		faux.setResponses([fauxAssistantMessage("answer")]);
		const session = await make();
		await session.prompt("question");
		expect(await session.fork()).toBe(true);
		const memory = await make({ manager: SessionManager.inMemory(temp.root) });
		expect(await memory.fork()).toBe(false);
	});

	it("newSession starts empty, can be cancelled, and records the parent", async () => {
		faux.setResponses([fauxAssistantMessage("answer")]);
		const session = await make();
		await session.prompt("question");
		const oldFile = session.sessionManager.getSessionFile()!;
		expect(await session.newSession({ parentSession: oldFile })).toBe(true);
		expect(session.messages).toEqual([]);
		expect(session.sessionManager.getHeader().parentSession).toBe(oldFile);

		const extensions = new ExtensionRunner();
		await extensions.add("veto", (api) =>
			api.on("session_before_switch", (e) => (e.reason === "new" ? { cancel: true } : undefined)),
		);
		const guarded = await make({ extensions });
		const id = guarded.sessionManager.getSessionId();
		expect(await guarded.newSession()).toBe(false);
		expect(guarded.sessionManager.getSessionId()).toBe(id);
	});

	it("a throwing extension handler is reported and never fatal", async () => {
		const extensions = new ExtensionRunner();
		await extensions.add("broken", (api) =>
			api.on("session_before_switch", () => {
				throw new Error("kaboom");
			}),
		);
		await extensions.add("bad-init", () => {
			throw new Error("cannot start");
		});
		const session = await make({ extensions });
		const errors: string[] = [];
		session.subscribe((e) => {
			if (e.type === "error") errors.push(e.message);
		});
		expect(await session.newSession()).toBe(true);
		expect(errors).toEqual(["broken: session_before_switch handler failed: kaboom"]);
		expect(extensions.errors.map((e) => e.message)).toContain("failed to initialise: cannot start");
	});

	it("formatSessionAsText includes prompt, model, tools and messages", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxText("Let me check."), fauxToolCall("echo", { text: "dump" })], {
				stopReason: "toolUse",
			}),
			fauxAssistantMessage("Done."),
		]);
		const session = await make();
		expect(session.formatSessionAsText()).toBe("");
		await session.prompt("dump me");
		const text = session.formatSessionAsText();
		expect(text).toContain("# System prompt\n\nYou are a test.");
		expect(text).toContain(`${modelRef(faux.getModel())} (thinking: off)`);
		expect(text).toContain("### echo\n\nEchoes its text");
		expect(text).toContain("## User\n\ndump me");
		expect(text).toContain('"text": "dump"');
		expect(text).toContain("## Tool result: echo\n\necho: dump");
		expect(text).toContain("Done.");
	});
});
