import { readdirSync } from "node:fs";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { describe, expect, it } from "vitest";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { FOREIGN, fixture, importAndOpen, textOf, toolCalls, unpairedResults } from "./import-helpers.js";

// Every real file of other agents in test/fixtures/foreign (see its MANIFEST.md) imports, reopens
// with SessionManager, and gives the context the source held.

const firstOf = (messages: AgentMessage[], role: string): AgentMessage | undefined =>
	messages.find((m) => m.role === role);

describe("importing the real foreign fixtures", () => {
	useTempAgentDir();

	it("covers every fixture file", () => {
		const files = readdirSync(FOREIGN).filter((name) => name !== "MANIFEST.md");
		// 18 real files (two of them gzipped), and the hand-made opencode folder
		expect(files).toHaveLength(19);
	});

	it("claude-code-01: thinking, a rejected Bash call and its result, the model", async () => {
		const { context, result } = await importAndOpen(fixture("claude-code-01-short-thinking-tools.jsonl"));
		expect(result).toMatchObject({ tool: "claude-code", cwd: "/home/marco/projects/spotter", cwdFrom: "source" });
		expect(textOf(context.messages[0]!)).toBe("mix phx.server doesnt seem to start");
		const assistant = firstOf(context.messages, "assistant") as unknown as {
			content: { type: string; thinking?: string }[];
		};
		expect(assistant.content.find((b) => b.type === "thinking")?.thinking).toMatch(
			/^The user is having trouble starting/,
		);
		expect(toolCalls(context).get("toolu_0116Hyi5v8ut7Ffb7d8qV1Sc")).toEqual({
			type: "toolCall",
			id: "toolu_0116Hyi5v8ut7Ffb7d8qV1Sc",
			name: "Bash",
			arguments: { command: "mix phx.server 2>&1 | head -80", timeout: 30000 },
		});
		const toolResult = firstOf(context.messages, "toolResult");
		expect(toolResult).toMatchObject({ toolCallId: "toolu_0116Hyi5v8ut7Ffb7d8qV1Sc", toolName: "Bash" });
		expect(textOf(toolResult as never)).toMatch(/^The user doesn't want to proceed with this tool use/);
		expect(context.models.default).toBe("anthropic/claude-opus-4-6");
		expect(unpairedResults(context)).toEqual([]);
	});

	it("claude-code-02: tool-heavy, every result paired, side records kept raw", async () => {
		const { context, entries } = await importAndOpen(fixture("claude-code-02-tool-heavy.jsonl"));
		expect(textOf(context.messages[0]!)).toBe("start phoenix in background");
		expect(toolCalls(context).get("toolu_018GZVh9ymkrdx1TnR8reg5Y")?.name).toBe("Bash");
		const results = context.messages.filter((m) => m.role === "toolResult");
		expect(textOf(results[0]!)).toMatch(/^Command running in background with ID: bae407b/);
		expect(unpairedResults(context)).toEqual([]);
		const raw = entries.filter((e) => e.type === "custom" && (e as { customType?: string }).customType === "import");
		const types = raw.map((e) => (e as { data?: { type?: string } }).data?.type);
		expect(types).toContain("queue-operation");
		expect(types).toContain("file-history-snapshot");
		expect(types).toContain("progress");
		const provenance = raw[0] as { data: Record<string, unknown> };
		expect(provenance.data).toMatchObject({ kind: "provenance", tool: "claude-code", importer: "xcsh-import/3" });
		expect(provenance.data.sourcePath).toBe(fixture("claude-code-02-tool-heavy.jsonl"));
	});

	it("claude-code-03: the Task subagent call and its answer, hidden meta prompts", async () => {
		const { context } = await importAndOpen(fixture("claude-code-03-parent-with-task-subagent.jsonl"));
		const task = [...toolCalls(context).values()].find((call) => call.name === "Task");
		expect(task?.arguments.subagent_type).toBeTypeOf("string");
		expect(unpairedResults(context)).toEqual([]);
		const hidden = context.messages.find((m) => m.role === "custom");
		expect(textOf(hidden!)).toMatch(/^Create beads \(epic \+ tasks \+ dependencies\)/);
		expect(context.messages.filter((m) => m.role === "assistant").length).toBeGreaterThan(5);
	});

	it("claude-code-04: a subagent transcript becomes its own titled session", async () => {
		const { context, title } = await importAndOpen(fixture("claude-code-04-subagent-sidechain.jsonl"));
		expect(title).toBe("Claude Code subagent a2898e3 (claude-code-04-subagent-sidechain)");
		expect(textOf(context.messages[0]!)).toMatch(/^Very thorough exploration\. I need to understand:/);
		expect(context.models.default).toBe("anthropic/claude-sonnet-4-5-20250929");
		expect(context.messages.filter((m) => m.role === "toolResult")).toHaveLength(33);
		expect(unpairedResults(context)).toEqual([]);
	});

	it("claude-code-05: the compaction helper's summary reply", async () => {
		const { context } = await importAndOpen(fixture("claude-code-05-subagent-acompact.jsonl"));
		expect(textOf(context.messages[0]!)).toMatch(/^<system-reminder>/);
		expect(context.messages[0]!.role).toBe("custom");
		expect(textOf(context.messages.at(-1)!)).toContain("<analysis>");
	});

	it("claude-code-06: the older CLI, a resumed id copied twice, the hand-inserted record kept raw", async () => {
		const { context, entries } = await importAndOpen(fixture("claude-code-06-v1.0.95-older.jsonl"));
		expect(textOf(context.messages[0]!)).toMatch(/^幫我檢查一下 go\.mod/);
		expect(context.models.default).toBe("anthropic/claude-sonnet-4-20250514");
		const delta = entries.find((e) => (e as { data?: { type?: string } }).data?.type === "file-history-delta");
		expect((delta as { data: { messageId: string } }).data.messageId).toBe("msg_taskstop_1");
		expect(unpairedResults(context)).toEqual([]);
	});

	it("codex-01: environment context hidden, reasoning, shell calls paired by call_id", async () => {
		const { context, result } = await importAndOpen(fixture("codex-01-cli-0.58-shell-reasoning.jsonl"));
		expect(result).toMatchObject({ tool: "codex", cwd: "/home/user/projects/temp/chatbot-ui", cwdFrom: "source" });
		expect(context.messages[0]!.role).toBe("custom");
		expect(textOf(context.messages[0]!)).toMatch(/^<environment_context>/);
		expect(textOf(context.messages[1]!)).toMatch(/^finish up the users work by rigging up the chatbot-ui/);
		const assistant = context.messages[2] as unknown as { content: { type: string; thinking?: string }[] };
		expect(assistant.content[0]).toMatchObject({ type: "thinking", thinking: "**Planning repository inspection**" });
		expect(toolCalls(context).get("call_GfHib9GW3d5m9EB1wMTper0j")?.arguments).toEqual({
			command: ["bash", "-lc", "ls"],
			workdir: "/home/user/projects/temp/chatbot-ui",
		});
		expect(textOf(context.messages[3]!)).toMatch(/^LM Studio configuration\.md\nREADME\.md/);
		expect(context.models.default).toBe("openai/gpt-5.1-codex");
		expect(context.messages.filter((m) => m.role === "toolResult")).toHaveLength(39);
		expect(unpairedResults(context)).toEqual([]);
	});

	it("codex-02: the compacted record starts the context, with its replacement history", async () => {
		const { context, entries } = await importAndOpen(fixture("codex-02-desktop-0.104-compacted-images-redacted.jsonl"));
		expect(context.messages[0]).toMatchObject({
			role: "compactionSummary",
			summary: "[REDACTED_MESSAGE len=0 sha=e3b0c442]",
		});
		expect(textOf(context.messages[1]!)).toMatch(/^\[user\] \[REDACTED_TEXT len=32 sha=821fd802\]/);
		expect(entries.filter((e) => e.type === "compaction")).toHaveLength(1);
		expect(context.models.default).toBe("openai/gpt-5.3-codex");
		expect(unpairedResults(context)).toEqual([]);
	});

	it("codex-03: apply_patch custom tool calls and a kept web search", async () => {
		const { context, entries } = await importAndOpen(
			fixture("codex-03-desktop-0.104-custom-tool-websearch-redacted.jsonl"),
		);
		const patches = [...toolCalls(context).values()].filter((call) => call.name === "apply_patch");
		expect(patches).toHaveLength(22);
		expect(patches[0]!.arguments.input).toMatch(/^\[REDACTED_INPUT len=\d+/);
		expect(entries.some((e) => (e as { data?: { type?: string } }).data?.type === "web_search_call")).toBe(true);
		expect(unpairedResults(context)).toEqual([]);
	});

	it("codex-04: the legacy layout, cwd read from the environment context", async () => {
		const { context, result } = await importAndOpen(fixture("codex-04-legacy-2025-09-record-type-state.jsonl"));
		expect(result).toMatchObject({ cwd: "/home/user/projects/codex-session-viewer", cwdFrom: "source" });
		expect(textOf(context.messages.find((m) => m.role === "user")!)).toBe(
			"What's the next task I should work on? Please consider dependencies and priorities.",
		);
		expect([...toolCalls(context).values()].some((call) => call.name === "task-master-ai__next_task")).toBe(true);
		expect(context.messages.filter((m) => m.role === "toolResult")).toHaveLength(246);
		expect(unpairedResults(context)).toEqual([]);
	});

	it("codex-05: the VS Code session, patch events kept", async () => {
		const { context, entries, result } = await importAndOpen(fixture("codex-05-vscode-0.39-patch-apply.jsonl"));
		expect(result.cwd).toBe("/proj/ds906659/gai/claude-code");
		expect(context.models.default).toBe("openai/aide-gpt-5");
		expect(textOf(context.messages[1]!)).toMatch(/^# Context from my IDE setup:/);
		const events = entries.filter(
			(e) => (e as { data?: { payload?: { type?: string } } }).data?.payload?.type === "patch_apply_end",
		);
		expect(events).toHaveLength(2);
		expect(unpairedResults(context)).toEqual([]);
	});

	it("gemini-01 (jsonl): latest snapshots, tool calls with results, the project from --cwd", async () => {
		const { context, result, entries } = await importAndOpen(
			fixture("gemini-01-jsonl-2026-04-toolcalls-info.jsonl"),
			"/projects/bot",
			true,
		);
		expect(result).toMatchObject({ tool: "gemini", cwd: "/projects/bot", cwdFrom: "--cwd" });
		expect(context.models.default).toBe("google/gemini-3.1-pro-preview");
		const topic = context.messages.find((m) => m.role === "toolResult");
		expect(textOf(topic!)).toMatch(/^Current topic: "產生專案指令文件 \(GEMINI\.md\)"/);
		expect(entries.filter((e) => (e as { data?: { type?: string } }).data?.type === "info")).toHaveLength(2);
		expect(unpairedResults(context)).toEqual([]);
	});

	it("gemini-02 (json): read_file calls and their output, the current directory when no --cwd", async () => {
		const { context, result } = await importAndOpen(fixture("gemini-02-json-2026-03-toolcalls.json"));
		expect(result).toMatchObject({ cwd: "/projects/fallback", cwdFrom: "current directory" });
		expect(textOf(context.messages[0]!)).toMatch(/^請幫我依照專案實際狀況更新 README\.md/);
		expect(toolCalls(context).get("x0m3mt27")).toMatchObject({
			name: "read_file",
			arguments: { file_path: "README.md" },
		});
		expect(textOf(context.messages[2]!)).toMatch(/^<div align="center" markdown="1">/);
		expect(unpairedResults(context)).toEqual([]);
	});

	it("gemini-03 (older json): thoughts as thinking, the model", async () => {
		const { context } = await importAndOpen(fixture("gemini-03-json-2025-10-thoughts.json"));
		expect(context.models.default).toBe("google/gemini-2.5-pro");
		const assistant = context.messages[1] as unknown as { content: { type: string; thinking?: string }[] };
		expect(assistant.content[0]).toMatchObject({ type: "thinking" });
		expect(assistant.content[0]!.thinking).toMatch(/^\*\*Defining the Core Issue\*\*\n/);
		expect(context.messages.filter((m) => m.role === "user")).toHaveLength(2);
	});

	it("pi-01 (v1): every message, the model switch, an aborted turn", async () => {
		const { context, result } = await importAndOpen(fixture("pi-01-v1-large-session-compaction-fixture.jsonl"));
		expect(result.cwd).toBe("/Users/badlogic/workspaces/pi-mono");
		expect(context.messages).toHaveLength(914);
		expect(textOf(context.messages[0]!)).toBe("/mode");
		expect(context.messages[1]).toMatchObject({ role: "assistant", stopReason: "aborted", model: "gpt-5.1-codex" });
		expect(context.models.default).toBe("anthropic/claude-sonnet-4-5");
		// The source itself has 18 calls of errored turns that never got a result; nothing else is unpaired.
		const unpaired = unpairedResults(context);
		expect(unpaired.filter((id) => id.startsWith("result"))).toEqual([]);
		expect(unpaired).toHaveLength(18);
		expect(unpaired).toContain("call toolu_016i8caCv6EqBx4nQUJmnEvU");
	});

	it("pi-02 (v3): compactions map to native ones, kept entries and all", async () => {
		const { context, entries } = await importAndOpen(fixture("pi-02-v3-small-fixture-provider.jsonl"));
		expect(entries.filter((e) => e.type === "compaction")).toHaveLength(2);
		expect(context.messages[0]).toMatchObject({
			role: "compactionSummary",
			summary: "hello.py prints a fixture greeting.",
		});
		expect(textOf(context.messages.at(-2)!)).toBe("Add one concise follow-up sentence.");
		expect(context.models.default).toBe("pi-fixture/pi-fixture-model");
	});
});
