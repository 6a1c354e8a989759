import { readFileSync, writeFileSync } from "node:fs";
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider, Type } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChatController, type ChatSnapshot } from "../../controllers/chat-controller.js";
import { AgentSession, modelRef } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const slowTool: AgentTool = {
	name: "slow",
	label: "Slow",
	description: "waits for the test",
	parameters: Type.Object({}),
	execute: async (_id, _params, _signal, onUpdate) => {
		onUpdate?.({ content: [{ type: "text", text: "half way" }], details: {} });
		await release;
		return { content: [{ type: "text", text: "done" }], details: {} };
	},
};
let releaseTool!: () => void;
let release: Promise<void>;

describe("ChatController", () => {
	const temp = useTempAgentDir();
	let faux: ReturnType<typeof registerFauxProvider>;
	let session: AgentSession;
	let chat: ChatController;

	beforeEach(async () => {
		release = new Promise((r) => {
			releaseTool = r;
		});
		faux = registerFauxProvider({ models: [{ id: "chat-model", contextWindow: 1000 }] });
		session = await AgentSession.create({
			sessionManager: await SessionManager.create(temp.root),
			models: { find: () => undefined, getApiKey: () => "k" },
			model: faux.getModel(),
			tools: [slowTool],
		});
		chat = new ChatController({ session, isOffline: () => false, hint: "configure a model" });
	});
	afterEach(async () => {
		chat.dispose();
		await session.dispose();
		faux.unregister();
	});

	function waitFor(predicate: (s: ChatSnapshot) => boolean): Promise<ChatSnapshot> {
		return new Promise((resolve) => {
			if (predicate(chat.getSnapshot())) return resolve(chat.getSnapshot());
			const off = chat.subscribe(() => {
				if (predicate(chat.getSnapshot())) {
					off();
					resolve(chat.getSnapshot());
				}
			});
		});
	}

	it("starts with a welcome item and a status line", () => {
		const snapshot = chat.getSnapshot();
		expect(snapshot.items.at(0)).toMatchObject({
			kind: "welcome",
			model: modelRef(faux.getModel()),
			hint: "configure a model",
		});
		expect(snapshot.status).toMatchObject({
			model: modelRef(faux.getModel()),
			thinking: "off",
			inputTokens: 0,
			contextPercent: 0,
		});
	});

	it("tracks a turn: activity, running tool with live output, finished items, token totals", async () => {
		faux.setResponses([
			fauxAssistantMessage(fauxToolCall("slow", {}), { stopReason: "toolUse" }),
			fauxAssistantMessage("finished"),
		]);
		const run = session.prompt("go");
		const running = await waitFor((s) => s.running.some((t) => t.output === "half way"));
		expect(running.activity?.label).toBe("Running slow");
		releaseTool();
		await run;
		const done = await waitFor((s) => s.activity === undefined);
		const roles = done.items
			.toArray()
			.filter((i) => i.kind === "message")
			.map((i) => (i.kind === "message" ? i.message.role : ""));
		expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(done.running).toEqual([]);
		expect(done.status.outputTokens).toBeGreaterThan(0);
	});

	it("the history is the whole active path: turns a compaction summarised stay readable above its box", () => {
		const manager = session.sessionManager;
		manager.appendMessage(userMessage("the very first question"));
		const kept = manager.appendMessage(assistantMessage("an early answer"));
		manager.appendCompaction("what happened so far", undefined, kept, 12_345);
		manager.appendMessage(userMessage("after the compaction"));
		chat.rebuild();
		const shown = chat
			.getSnapshot()
			.items.toArray()
			.flatMap((item) => (item.kind === "message" ? [item.message.role] : [item.kind]));
		expect(shown).toEqual(["welcome", "user", "assistant", "compactionSummary", "user"]);
		// the model's context starts at the summary; the transcript does not
		expect(manager.buildSessionContext().messages[0]?.role).toBe("compactionSummary");
	});

	it("notices, activity and rebuild (new items from the session)", () => {
		chat.notice("warning", "careful");
		expect(chat.getSnapshot().items.at(-1)).toMatchObject({ kind: "notice", level: "warning", text: "careful" });
		chat.setActivity("Sharing");
		expect(chat.getSnapshot().activity?.label).toBe("Sharing");
		const before = chat.getSnapshot().items;
		chat.rebuild();
		expect(chat.getSnapshot().items).toHaveLength(1);
		expect(chat.getSnapshot().items.at(0)?.id).not.toBe(before.at(0)?.id);
	});

	it("a passing hint is shown, then cleared, and never becomes a history item", async () => {
		const before = chat.getSnapshot().items.length;
		chat.flash("Press Ctrl+C again to quit", 20);
		expect(chat.getSnapshot().transient).toBe("Press Ctrl+C again to quit");
		await waitFor((s) => s.transient === undefined);
		expect(chat.getSnapshot().items).toHaveLength(before);
	});

	it("Ctrl+T and Ctrl+O flip transcript-wide flags without rebuilding the items (the scroll position stays)", () => {
		const items = chat.getSnapshot().items;
		chat.toggleThinking();
		expect(chat.getSnapshot()).toMatchObject({ showThinking: true, expandTools: false });
		chat.toggleToolOutput();
		expect(chat.getSnapshot()).toMatchObject({ showThinking: true, expandTools: true });
		chat.toggleThinking();
		chat.toggleToolOutput();
		expect(chat.getSnapshot()).toMatchObject({ showThinking: false, expandTools: false });
		expect(chat.getSnapshot().items).toBe(items);
	});

	describe("the status line's ctx %", () => {
		/**
		 * A session whose history holds `turns` turns of ~1,000 tokens each, the last answer reporting
		 * `reported` tokens of context; it does not compact on its own.
		 */
		async function withHistory(turns: number, reported: number): Promise<AgentSession> {
			const manager = await SessionManager.create(temp.root);
			for (let i = 0; i < turns; i++) {
				manager.appendMessage(userMessage(`question ${i} ${"q".repeat(2000)}`));
				const answer = assistantMessage(`answer ${i} ${"a".repeat(2000)}`);
				manager.appendMessage({ ...answer, usage: { ...answer.usage, input: reported - answer.usage.output } });
			}
			return AgentSession.create({
				sessionManager: manager,
				models: { find: () => undefined, getApiKey: () => "k" },
				model: faux.getModel(),
				compaction: { auto: false, keepRecentTokens: 1500 },
			});
		}

		it("is estimated from the loaded context before any prompt", async () => {
			const loaded = await withHistory(1, 420);
			const view = new ChatController({ session: loaded, isOffline: () => false });
			try {
				// 420 reported tokens of a 1,000-token window
				expect(view.getSnapshot().status.contextPercent).toBe(42);
			} finally {
				view.dispose();
				await loaded.dispose();
			}
		});

		it("is full for a path longer than the window, though the usage it reported was small", async () => {
			const writer = await SessionManager.create(temp.root);
			for (let i = 0; i < 10; i++) {
				writer.appendMessage(userMessage(`question ${i} ${"q".repeat(2000)}`));
				writer.appendMessage(assistantMessage(`answer ${i} ${"a".repeat(2000)}`));
			}
			const file = writer.getSessionFile()!;
			await writer.close();
			const loaded = await AgentSession.create({
				sessionManager: await SessionManager.open(file, { lazyAboveBytes: 0, breadcrumb: false }),
				models: { find: () => undefined, getApiKey: () => "k" },
				model: faux.getModel(),
				compaction: { auto: false },
			});
			const view = new ChatController({ session: loaded, isOffline: () => false });
			try {
				expect(loaded.omittedContext.messages).toBeGreaterThan(0);
				expect(view.getSnapshot().status.contextPercent).toBe(100);
			} finally {
				view.dispose();
				await loaded.dispose();
			}
		});

		it("adds no notice of its own when a compaction fails: its caller says so once (it was said twice)", async () => {
			faux.unregister();
			faux = registerFauxProvider({ models: [{ id: "wide-model", contextWindow: 10_000 }] });
			const loaded = await withHistory(4, 5000);
			const view = new ChatController({ session: loaded, isOffline: () => false });
			try {
				// No scripted answer: the summary request fails.
				await expect(loaded.compact()).rejects.toThrow();
				const notices = view
					.getSnapshot()
					.items.toArray()
					.filter((i) => i.kind === "notice");
				expect(notices).toEqual([]);
				expect(view.getSnapshot().activity).toBeUndefined();
			} finally {
				view.dispose();
				await loaded.dispose();
			}
		});

		it("is refreshed after a compaction, from the compacted context (not the usage reported before it)", async () => {
			faux.unregister();
			faux = registerFauxProvider({ models: [{ id: "wide-model", contextWindow: 10_000 }] });
			const loaded = await withHistory(4, 5000);
			const view = new ChatController({ session: loaded, isOffline: () => false });
			try {
				expect(view.getSnapshot().status.contextPercent).toBe(50);
				faux.setResponses([fauxAssistantMessage("short summary")]);
				await loaded.compact();
				const after = view.getSnapshot();
				expect(after.items.some((i) => i.kind === "notice" && i.text.startsWith("Compacted "))).toBe(true);
				// the summary and the last turn kept as it is: ~1,000 of 10,000 tokens
				expect(after.status.contextPercent).toBe(10);
			} finally {
				view.dispose();
				await loaded.dispose();
			}
		});
	});

	describe("a big session", () => {
		it("shows the same transcript and totals with its bodies on disk, reading a body only when its block is read", async () => {
			const writer = await SessionManager.create(temp.root);
			const ids: string[] = [];
			for (let i = 0; i < 5; i++) {
				ids.push(writer.appendMessage(userMessage(`question ${i} ${"q".repeat(2000)}`)));
				writer.appendMessage(assistantMessage(`answer ${i} ${"a".repeat(2000)}`));
			}
			// Turns 0-2 are compacted away: out of the context, their bodies stay on disk.
			writer.appendCompaction("summary", "short", ids[3]!, 5000);
			const file = writer.getSessionFile()!;
			await writer.close();
			const open = async (lazyAboveBytes: number) =>
				AgentSession.create({
					sessionManager: await SessionManager.open(file, { lazyAboveBytes }),
					models: { find: () => undefined, getApiKey: () => "k" },
					model: faux.getModel(),
					compaction: { auto: false, keepRecentTokens: 1500 },
				});
			const full = await open(Number.POSITIVE_INFINITY);
			const lazy = await open(0);
			const broken = await open(0);
			const fullView = new ChatController({ session: full, isOffline: () => false });
			const lazyView = new ChatController({ session: lazy, isOffline: () => false });
			try {
				const messages = (view: ChatController) =>
					view
						.getSnapshot()
						.items.toArray()
						.flatMap((item) => (item.kind === "message" ? [item.message] : []));
				expect(lazyView.getSnapshot().status).toEqual(fullView.getSnapshot().status);
				expect(lazy.sessionManager.peekEntry(ids[0]!)).toBeUndefined();
				expect(messages(lazyView)).toEqual(messages(fullView));
				expect(messages(lazyView)).toHaveLength(11);
				// A body that can no longer be read is shown as such, not as a crash.
				const later = new ChatController({ session: broken, isOffline: () => false });
				writeFileSync(file, ` ${readFileSync(file, "utf8")}`);
				const [first] = messages(later);
				later.dispose();
				expect(first).toMatchObject({ role: "custom", customType: "unreadable" });
				expect((first as { content: string }).content).toMatch(
					/^\(entry \w+ could not be shown: The session file changed on disk \(entry \w+ is not where it was\): reopen /,
				);
			} finally {
				fullView.dispose();
				lazyView.dispose();
				await full.dispose();
				await lazy.dispose();
				await broken.dispose();
			}
		});
	});
});
