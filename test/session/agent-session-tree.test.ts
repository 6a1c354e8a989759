import { type Api, fauxAssistantMessage, type Model, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { AgentSession, type ModelResolver, modelRef } from "../../source/session/agent-session.js";
import type { AgentSessionEvent } from "../../source/session/agent-session-events.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { CompactionEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

function resolver(...models: Model<Api>[]): ModelResolver {
	return { find: (ref) => models.find((m) => modelRef(m) === ref), getApiKey: () => "test-key" };
}

describe("AgentSession tree navigation and compaction", () => {
	const temp = useTempAgentDir();
	let faux: ReturnType<typeof registerFauxProvider>;
	const sessions: AgentSession[] = [];

	beforeEach(() => {
		faux = registerFauxProvider({ models: [{ id: "faux-tree", contextWindow: 200_000 }] });
	});
	afterEach(async () => {
		for (const s of sessions.splice(0)) await s.dispose().catch(() => undefined);
		faux.unregister();
	});

	async function make(model: Model<Api> = faux.getModel(), compaction = {}) {
		const session = await AgentSession.create({
			sessionManager: await SessionManager.create(temp.root),
			models: resolver(faux.getModel(), OFFLINE_MODEL),
			model,
			compaction,
		});
		sessions.push(session);
		return session;
	}

	it("navigating to a user message puts its text back in the editor and moves the leaf to its parent", async () => {
		faux.setResponses([fauxAssistantMessage("a1"), fauxAssistantMessage("a2")]);
		const session = await make();
		await session.prompt("first question");
		await session.prompt("second question");
		const entries = session.sessionManager.getEntries();
		const second = entries.find((e) => e.type === "message" && JSON.stringify(e).includes("second question"))!;
		const events: AgentSessionEvent[] = [];
		session.subscribe((e) => events.push(e));
		const result = await session.navigateTree(second.id);
		expect(result).toMatchObject({ cancelled: false, editorText: "second question", newLeafId: second.parentId });
		expect(session.sessionManager.getLeafId()).toBe(second.parentId);
		expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(events.find((e) => e.type === "session_tree")).toMatchObject({ newLeafId: second.parentId });
	});

	it("after navigating, the model and thinking level are those recorded on the new path", async () => {
		const thinker = registerFauxProvider({
			provider: "thinker",
			api: "thinker-api",
			models: [{ id: "deep", reasoning: true }],
		});
		try {
			thinker.setResponses([fauxAssistantMessage("deep answer"), fauxAssistantMessage("deep again")]);
			const session = await AgentSession.create({
				sessionManager: await SessionManager.create(temp.root),
				models: resolver(thinker.getModel(), OFFLINE_MODEL),
				model: thinker.getModel(),
			});
			sessions.push(session);
			session.setThinkingLevel("high");
			await session.prompt("first, thinking hard");
			const firstAnswer = session.sessionManager.getLeafId()!;
			session.setModel(OFFLINE_MODEL);
			session.setThinkingLevel("low");
			await session.prompt("second, offline");
			expect(modelRef(session.model)).toBe("xcsh/offline");
			expect(session.thinkingLevel).toBe("low");

			await session.navigateTree(firstAnswer);
			expect(modelRef(session.model)).toBe(modelRef(thinker.getModel()));
			expect(session.thinkingLevel).toBe("high");
			// With a summary of the branch left behind too, and back again.
			const offlineLeaf = session.sessionManager.getBranch(
				session.sessionManager.getEntries().findLast((e) => e.type === "message")!.id,
			);
			await session.navigateTree(offlineLeaf.at(-1)!.id, { summarize: false });
			expect(modelRef(session.model)).toBe("xcsh/offline");
			expect(session.thinkingLevel).toBe("low");
		} finally {
			thinker.unregister();
		}
	});

	it("navigating with a summary writes a branch_summary of the abandoned branch and rebuilds the context", async () => {
		faux.setResponses([
			fauxAssistantMessage("a1"),
			fauxAssistantMessage("a2"),
			fauxAssistantMessage("We tried approach B and it failed."),
		]);
		const session = await make();
		await session.prompt("first");
		const firstAnswer = session.sessionManager.getLeafId()!;
		await session.prompt("try approach B");
		const result = await session.navigateTree(firstAnswer, { summarize: true, customInstructions: "focus on B" });
		expect(result.summaryEntryId).toBeDefined();
		const summary = session.sessionManager.getEntry(result.summaryEntryId!);
		expect(summary).toMatchObject({
			type: "branch_summary",
			parentId: firstAnswer,
			fromId: firstAnswer,
			summary: "We tried approach B and it failed.",
		});
		expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant", "branchSummary"]);
		await session.sessionManager.flush();
		const reopened = await SessionManager.open(session.sessionManager.getSessionFile()!);
		expect(reopened.getLeafId()).toBe(result.summaryEntryId);
	});

	it("navigating to an assistant message keeps it as the leaf; without summarize nothing is appended", async () => {
		faux.setResponses([fauxAssistantMessage("a1"), fauxAssistantMessage("a2")]);
		const session = await make();
		await session.prompt("one");
		const firstAnswer = session.sessionManager.getLeafId()!;
		await session.prompt("two");
		const count = session.sessionManager.getEntries().length;
		const result = await session.navigateTree(firstAnswer);
		expect(result).toMatchObject({ cancelled: false, newLeafId: firstAnswer });
		expect(result.editorText).toBeUndefined();
		expect(session.sessionManager.getEntries()).toHaveLength(count);
		await expect(session.navigateTree("00000000")).rejects.toThrow("Entry 00000000 not found");
	});

	it("compact writes a compaction entry and the rebuilt context starts with the summary", async () => {
		faux.setResponses([
			fauxAssistantMessage("x".repeat(4000)),
			fauxAssistantMessage("y".repeat(4000)),
			fauxAssistantMessage("z".repeat(400)),
			fauxAssistantMessage("## Goal\nSummary of the early work"),
		]);
		const session = await make(faux.getModel(), { keepRecentTokens: 200, auto: false });
		await session.prompt("read src/a.ts please");
		await session.prompt("second");
		await session.prompt("third");
		const events: string[] = [];
		session.subscribe((e) => events.push(e.type));
		const result = await session.compact("keep it short");
		const entry = session.sessionManager.getEntry(result.entryId) as CompactionEntry;
		expect(entry).toMatchObject({
			type: "compaction",
			summary: "## Goal\nSummary of the early work",
			shortSummary: "Goal",
		});
		expect(entry.tokensBefore).toBeGreaterThan(2000);
		expect(entry.details).toEqual({ readFiles: [], modifiedFiles: [] });
		expect(session.messages[0]).toMatchObject({ role: "compactionSummary", summary: entry.summary });
		expect(session.messages.slice(1).map((m) => m.role)[0]).toBe("user");
		expect(events).toEqual(["compaction_start", "session_compact", "compaction_end"]);
		await session.sessionManager.flush();
		const reopened = await SessionManager.open(session.sessionManager.getSessionFile()!);
		expect(reopened.buildSessionContext().messages).toEqual(session.messages);
	});

	it("compaction runs on its own near the context window, and 'Nothing to compact yet' on an empty session", async () => {
		const small = registerFauxProvider({
			provider: "small",
			api: "small-api",
			models: [{ id: "tiny", contextWindow: 20_000 }],
		});
		try {
			small.setResponses([
				fauxAssistantMessage("a".repeat(30_000)),
				fauxAssistantMessage("b".repeat(30_000)),
				fauxAssistantMessage("auto summary"),
			]);
			const session = await AgentSession.create({
				sessionManager: await SessionManager.create(temp.root),
				models: resolver(small.getModel()),
				model: small.getModel(),
				compaction: { keepRecentTokens: 1000, reserveTokens: 2000 },
			});
			sessions.push(session);
			await expect(session.compact()).rejects.toThrow(new Error("Nothing to compact yet: the session has no messages"));
			const events: AgentSessionEvent[] = [];
			session.subscribe((e) => events.push(e));
			await session.prompt("one");
			await session.prompt("two");
			expect(events.find((e) => e.type === "session_compact")).toMatchObject({
				reason: "auto",
				summary: "auto summary",
			});
			expect(session.messages[0]).toMatchObject({ role: "compactionSummary" });
		} finally {
			small.unregister();
		}
	});

	it("a model whose window is smaller than the default reserve compacts only when near its window, not after every turn", async () => {
		const small = registerFauxProvider({
			provider: "small",
			api: "small-api",
			models: [{ id: "8k", contextWindow: 8192 }],
		});
		try {
			// ~1,750 tokens an answer: the third turn passes three quarters of 8,192 tokens
			const answer = (i: number) => fauxAssistantMessage(`answer ${i} ${"x".repeat(7000)}`);
			small.setResponses([answer(1), answer(2), answer(3), fauxAssistantMessage("the summary"), answer(4)]);
			const session = await AgentSession.create({
				sessionManager: await SessionManager.create(temp.root),
				models: resolver(small.getModel()),
				model: small.getModel(),
			});
			sessions.push(session);
			const events: AgentSessionEvent[] = [];
			session.subscribe((e) => events.push(e));
			const compactionsAfter: number[] = [];
			for (const prompt of ["one", "two", "three", "four"]) {
				await session.prompt(prompt);
				compactionsAfter.push(events.filter((e) => e.type === "session_compact").length);
			}
			expect(events.filter((e) => e.type === "error")).toEqual([]);
			expect(compactionsAfter).toEqual([0, 0, 1, 1]);
		} finally {
			small.unregister();
		}
	});

	it("the offline model summarises a branch and compacts deterministically", async () => {
		const session = await make(OFFLINE_MODEL, { keepRecentTokens: 10, auto: false });
		await session.prompt("hello offline");
		const leaf = session.sessionManager.getLeafId()!;
		await session.prompt("a second prompt");
		await session.prompt("a third prompt");
		const result = await session.compact();
		expect(result.summary).toContain("hello offline");
		const nav = await session.navigateTree(leaf, { summarize: true });
		const entry = session.sessionManager.getEntry(nav.summaryEntryId!) as { summary: string };
		expect(entry.summary.length).toBeGreaterThan(0);
	});
});
