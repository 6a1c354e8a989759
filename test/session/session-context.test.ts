import { describe, expect, it } from "vitest";
import { COMPACTION_SUMMARY_PREFIX, convertToLlm } from "../../source/session/messages.js";
import { buildSessionContext } from "../../source/session/session-context.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { SessionEntry } from "../../source/session/types.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";

function texts(session: SessionManager): string[] {
	return session.buildSessionContext().messages.map((m) => {
		switch (m.role) {
			case "user":
			case "assistant":
			case "toolResult": {
				const content = m.content;
				if (typeof content === "string") return content;
				return content.map((c) => (c.type === "text" ? c.text : c.type)).join("");
			}
			case "compactionSummary":
			case "branchSummary":
				return `[${m.role}] ${m.summary}`;
			case "custom":
				return `[custom] ${typeof m.content === "string" ? m.content : "blocks"}`;
			case "bashExecution":
				return `[bash] ${m.command}`;
			default:
				return "(unknown)";
		}
	});
}

describe("buildSessionContext", () => {
	it("an empty session and a null leaf give the empty context with the defaults", () => {
		const session = SessionManager.inMemory("/p");
		expect(session.buildSessionContext()).toEqual({
			messages: [],
			thinkingLevel: "off",
			models: {},
			injectedTtsrRules: [],
			mode: "none",
		});
		session.appendMessage(userMessage("hi"));
		expect(buildSessionContext(session.getEntries(), null).messages).toEqual([]);
	});

	it("uses an explicit leaf when found and falls back to the last entry otherwise", () => {
		const session = SessionManager.inMemory("/p");
		const a = session.appendMessage(userMessage("a"));
		session.appendMessage(assistantMessage("b"));
		const entries = session.getEntries();
		expect(buildSessionContext(entries, a).messages).toHaveLength(1);
		expect(buildSessionContext(entries, "missing0").messages).toHaveLength(2);
		expect(buildSessionContext(entries).messages).toHaveLength(2);
	});

	it("derives thinking level, models by role, TTSR rules and mode along the path only", () => {
		const session = SessionManager.inMemory("/p");
		const root = session.appendMessage(userMessage("start"));
		session.appendThinkingLevelChange("high");
		session.appendModelChange("openai/gpt-4o");
		session.appendModelChange("anthropic/claude-haiku-4-5", "smol");
		session.appendTtsrInjection(["ruleA", "ruleB"]);
		session.appendTtsrInjection(["ruleB", "ruleC"]);
		session.appendModeChange("plan", { planFile: "/tmp/plan.md" });
		const context = session.buildSessionContext();
		expect(context.thinkingLevel).toBe("high");
		expect(context.models).toEqual({ default: "openai/gpt-4o", smol: "anthropic/claude-haiku-4-5" });
		expect(context.injectedTtsrRules).toEqual(["ruleA", "ruleB", "ruleC"]);
		expect(context.mode).toBe("plan");
		expect(context.modeData).toEqual({ planFile: "/tmp/plan.md" });

		session.branch(root);
		session.appendMessage(assistantMessage("other branch", "gpt-5", "openai"));
		const other = session.buildSessionContext();
		expect(other.thinkingLevel).toBe("off");
		expect(other.mode).toBe("none");
		expect(other.injectedTtsrRules).toEqual([]);
		expect(other.models).toEqual({ default: "openai/gpt-5" });
	});

	it("an explicit model change wins over the assistant fallback; the old {provider, modelId} shape is read", () => {
		const entries: SessionEntry[] = [
			{ type: "message", id: "00000001", parentId: null, timestamp: "t", message: assistantMessage("x", "m1", "p1") },
			{
				type: "model_change",
				id: "00000002",
				parentId: "00000001",
				timestamp: "t",
				provider: "anthropic",
				modelId: "claude-opus-4-5",
			},
			{
				type: "message",
				id: "00000003",
				parentId: "00000002",
				timestamp: "t",
				message: assistantMessage("y", "m2", "p2"),
			},
		];
		expect(buildSessionContext(entries).models).toEqual({ default: "anthropic/claude-opus-4-5" });
	});

	it("turns custom_message and branch_summary entries into agent messages and ignores custom, session_init, labels", () => {
		const session = SessionManager.inMemory("/p");
		const u = session.appendMessage(userMessage("u"));
		session.appendCustomEntry("ext", { hidden: true });
		session.appendSessionInit({ systemPrompt: "sys", tools: [] });
		session.appendLabelChange(u, "lbl");
		const custom = session.appendCustomMessageEntry("ext", "injected", false, { d: 1 });
		session.branchWithSummary(custom, "what happened elsewhere");
		const messages = session.buildSessionContext().messages;
		expect(messages.map((m) => m.role)).toEqual(["user", "custom", "branchSummary"]);
		expect(messages[1]).toMatchObject({ role: "custom", customType: "ext", content: "injected", display: false });
		expect(messages[2]).toMatchObject({ role: "branchSummary", summary: "what happened elsewhere", fromId: custom });
	});

	it("with a compaction: summary first, then the kept range up to the compaction, then what follows", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("old 1"));
		session.appendMessage(assistantMessage("old 2"));
		const kept = session.appendMessage(userMessage("kept 3"));
		session.appendMessage(assistantMessage("kept 4"));
		session.appendCompaction("summary one", "short", kept, 5000);
		session.appendMessage(userMessage("after 5"));
		expect(texts(session)).toEqual(["[compactionSummary] summary one", "kept 3", "kept 4", "after 5"]);
	});

	it("only the latest compaction on the path counts", () => {
		const session = SessionManager.inMemory("/p");
		const first = session.appendMessage(userMessage("a"));
		session.appendCompaction("s1", undefined, first, 10);
		const b = session.appendMessage(userMessage("b"));
		session.appendMessage(toolResultMessage("c"));
		session.appendCompaction("s2", undefined, b, 20);
		session.appendMessage(userMessage("d"));
		expect(texts(session)).toEqual(["[compactionSummary] s2", "b", "c", "d"]);
	});

	it("unknown entry types are ignored by context building", () => {
		const entries = [
			{ type: "message", id: "00000001", parentId: null, timestamp: "t", message: userMessage("x") },
			{ type: "future_thing", id: "00000002", parentId: "00000001", timestamp: "t", payload: 1 },
		] as unknown as SessionEntry[];
		expect(buildSessionContext(entries).messages).toHaveLength(1);
	});

	it("convertToLlm maps session-only roles to user messages and drops excluded bash runs", () => {
		const llm = convertToLlm([
			{ role: "compactionSummary", summary: "S", tokensBefore: 1, timestamp: 1 },
			{
				role: "bashExecution",
				command: "ls",
				output: "a",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				timestamp: 2,
			},
			{
				role: "bashExecution",
				command: "secret",
				output: "b",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				excludeFromContext: true,
				timestamp: 3,
			},
			userMessage("u"),
		]);
		expect(llm.map((m) => m.role)).toEqual(["user", "user", "user"]);
		expect(JSON.stringify(llm[0])).toContain(COMPACTION_SUMMARY_PREFIX.slice(0, 20));
		expect(JSON.stringify(llm)).not.toContain("secret");
	});
});
