import { describe, expect, it } from "vitest";
import { fuzzyFilterSessions, fuzzyScore } from "../../components/session-selector/fuzzy.js";
import type { SessionInfo } from "../../source/session/types.js";

function session(id: string, fields: Partial<SessionInfo> = {}): SessionInfo {
	return {
		id,
		path: `/s/${id}.jsonl`,
		cwd: "/work",
		created: new Date(0),
		modified: new Date(0),
		size: 1,
		messageCount: 2,
		firstMessage: "",
		...fields,
	};
}

describe("fuzzyScore", () => {
	it("matches case-insensitive subsequences and rejects the rest", () => {
		expect(fuzzyScore("FxB", "fix the bug")).toBeDefined();
		expect(fuzzyScore("bug fix", "fix the bug")).toBeUndefined();
		expect(fuzzyScore("zz", "fix the bug")).toBeUndefined();
		expect(fuzzyScore("", "anything")).toBe(0);
		expect(fuzzyScore("a", "")).toBeUndefined();
	});

	it("scores consecutive runs above scattered letters", () => {
		expect(fuzzyScore("abc", "xxabcxx")!).toBeGreaterThan(fuzzyScore("abc", "xaxbxcx")!);
	});

	it("prefers a whole word over the same letters spread over word starts", () => {
		expect(fuzzyScore("deploy", "deploy")!).toBeGreaterThan(fuzzyScore("deploy", "d e p l o y")!);
	});

	it("scores word starts above letters inside words", () => {
		expect(fuzzyScore("r", "the refactor")!).toBeGreaterThan(fuzzyScore("r", "the other")!);
		expect(fuzzyScore("sp", "sessionPicker")!).toBeGreaterThan(fuzzyScore("sp", "sessionxpicker")!);
	});

	it("finds the best alignment, not the leftmost one", () => {
		// greedy leftmost would take the "f" of "foo" and score lower than the whole word "fix"
		expect(fuzzyScore("fix", "foo fix")!).toBeGreaterThan(fuzzyScore("fix", "foo fxix")!);
		expect(fuzzyScore("fix", "foo fix")!).toBeGreaterThan(fuzzyScore("fix", "foxix")!);
		expect(fuzzyScore("fix", "fix")!).toBeGreaterThan(fuzzyScore("fix", "foo fix")!);
	});
});

describe("fuzzyFilterSessions", () => {
	const older = session("aaa111", { title: "Refactor parser", modified: new Date(1_000) });
	const newer = session("bbb222", { firstMessage: "please refactor the parser", modified: new Date(2_000) });
	const other = session("ccc333", { firstMessage: "write the docs", modified: new Date(3_000) });
	const all = [older, newer, other];

	it("keeps every session, newest first, for an empty query", () => {
		expect(fuzzyFilterSessions(all, "  ").map((m) => m.session.id)).toEqual(["ccc333", "bbb222", "aaa111"]);
	});

	it("searches title, first message and id", () => {
		expect(fuzzyFilterSessions(all, "refactor").map((m) => m.session.id)).toEqual(["aaa111", "bbb222"]);
		expect(fuzzyFilterSessions(all, "docs").map((m) => m.session.id)).toEqual(["ccc333"]);
		expect(fuzzyFilterSessions(all, "ccc3").map((m) => m.session.id)).toEqual(["ccc333"]);
	});

	it("sorts by score, then by recency on ties", () => {
		const tieA = session("t1", { title: "deploy", modified: new Date(5) });
		const tieB = session("t2", { title: "deploy", modified: new Date(9) });
		const weak = session("t3", { title: "d e p l o y", modified: new Date(99) });
		expect(fuzzyFilterSessions([tieA, weak, tieB], "deploy").map((m) => m.session.id)).toEqual(["t2", "t1", "t3"]);
	});

	it("requires every word of the query to match", () => {
		expect(fuzzyFilterSessions(all, "refactor parser").map((m) => m.session.id)).toEqual(["aaa111", "bbb222"]);
		expect(fuzzyFilterSessions(all, "refactor docs")).toEqual([]);
	});
});
