import { describe, expect, it } from "vitest";
import {
	compactionSettingsFor,
	DEFAULT_COMPACTION_SETTINGS,
	planCompaction,
	shouldCompact,
} from "../../../source/agent/compaction/compaction.js";
import { SessionManager } from "../../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../../helpers/messages.js";

const SETTINGS = { keepRecentTokens: 1000, reserveTokens: 100 };

describe("planCompaction says why there is nothing to compact", () => {
	it("an empty session, or one message", () => {
		const session = SessionManager.inMemory("/p");
		expect(planCompaction(session.buildContextItems(), SETTINGS)).toEqual({
			kind: "nothing",
			reason: "the session has no messages",
		});
		session.appendMessage(userMessage("hi"));
		expect(planCompaction(session.buildContextItems(), SETTINGS)).toEqual({
			kind: "nothing",
			reason: "the context holds only 1 message",
		});
	});

	it("everything fits in the recent part that is kept as it is", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("short question"));
		session.appendMessage(assistantMessage("short answer"));
		session.appendMessage(userMessage("another one"));
		expect(planCompaction(session.buildContextItems(), SETTINGS)).toEqual({
			kind: "nothing",
			reason: "the 3 messages in the context (~123 tokens) fit in the recent part kept as it is (~1,000 tokens)",
		});
	});

	it("one long turn is kept whole: a compaction only cuts where a prompt starts", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("read everything"));
		for (let i = 0; i < 3; i++) {
			session.appendMessage(assistantMessage("reading"));
			session.appendMessage(toolResultMessage("x".repeat(8000)));
		}
		expect(planCompaction(session.buildContextItems(), SETTINGS)).toEqual({
			kind: "nothing",
			reason: "the context is one turn (7 messages, ~2,120 tokens) and a compaction only cuts where a prompt starts",
		});
	});

	it("counts from the last compaction", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("one"));
		session.appendMessage(assistantMessage("two"));
		const kept = session.appendMessage(userMessage("three"));
		session.appendCompaction("summary", undefined, kept, 10);
		expect(planCompaction(session.buildContextItems(), SETTINGS)).toEqual({
			kind: "nothing",
			reason: "the context holds only 1 message since the last compaction",
		});
	});

	it("plans when there is something before the kept tail", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("old question"));
		session.appendMessage(assistantMessage("y".repeat(8000)));
		const recent = session.appendMessage(userMessage("new question"));
		session.appendMessage(assistantMessage("short"));
		const planned = planCompaction(session.buildContextItems(), { keepRecentTokens: 10, reserveTokens: 100 });
		expect(planned).toMatchObject({ kind: "plan", plan: { firstKeptEntryId: recent } });
	});
});

describe("planCompaction reads the context buildSessionContext sends", () => {
	it("summarises the first messages after the previous summary and keeps the rest", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("dropped by the first compaction"));
		session.appendMessage(assistantMessage("z".repeat(4000)));
		const firstKept = session.appendMessage(userMessage("kept by the first compaction"));
		session.appendMessage(assistantMessage("y".repeat(8000)));
		session.appendCompaction("first summary", undefined, firstKept, 10);
		const recent = session.appendMessage(userMessage("new question"));
		session.appendMessage(assistantMessage("short"));

		const planned = planCompaction(session.buildContextItems(), { keepRecentTokens: 10, reserveTokens: 100 });
		if (planned.kind !== "plan") throw new Error(`expected a plan, got: ${planned.reason}`);
		const sent = session.buildSessionContext().messages;
		// The summary goes first; the planned messages are the ones after it, up to the kept tail.
		expect(sent[0]).toMatchObject({ role: "compactionSummary", summary: "first summary" });
		expect(planned.plan.messagesToSummarize).toEqual(sent.slice(1, 3));
		expect(planned.plan.firstKeptEntryId).toBe(recent);
		expect(planned.plan.previousSummary).toBe("first summary");
	});
});

describe("compaction settings scaled to the context window", () => {
	it("a large window keeps the defaults", () => {
		expect(compactionSettingsFor(200_000, DEFAULT_COMPACTION_SETTINGS)).toEqual(DEFAULT_COMPACTION_SETTINGS);
	});

	it("a window smaller than the reserve reserves a quarter of it and keeps at most half", () => {
		const fitted = compactionSettingsFor(8192, DEFAULT_COMPACTION_SETTINGS);
		expect(fitted).toEqual({ reserveTokens: 2048, keepRecentTokens: 4096 });
		// near the end of the window only, not from the first token on
		expect(shouldCompact(100, 8192, fitted)).toBe(false);
		expect(shouldCompact(6145, 8192, fitted)).toBe(true);
		expect(shouldCompact(100, 8192, DEFAULT_COMPACTION_SETTINGS)).toBe(true);
	});

	it("an unknown window (0) leaves the settings alone", () => {
		expect(compactionSettingsFor(0, DEFAULT_COMPACTION_SETTINGS)).toEqual(DEFAULT_COMPACTION_SETTINGS);
	});
});
