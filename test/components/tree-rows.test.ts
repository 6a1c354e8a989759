import type { AssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { activePath, flattenTree, initialRowIndex, type TreeRow } from "../../components/tree-view/tree-rows.js";
import { nextFilter, summarizeEntry, TREE_FILTERS } from "../../source/session/entry-summary.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { SummaryTreeNode } from "../../source/session/summary-tree.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";

function lines(rows: readonly TreeRow[]): string[] {
	return rows.map((row) => row.prefix + row.text);
}

function toolCall(name: string, args: Record<string, unknown>): AssistantMessage {
	return { ...assistantMessage(""), content: [{ type: "toolCall", id: `call-${name}`, name, arguments: args }] };
}

/** hello → hi there → { first question → first answer → {deeper one, deeper two}, second question → second answer } */
function branchedSession() {
	const sm = SessionManager.inMemory("/p");
	const ids = {
		u1: sm.appendMessage(userMessage("hello")),
		a1: sm.appendMessage(assistantMessage("hi there")),
		u2: sm.appendMessage(userMessage("first question")),
		a2: sm.appendMessage(assistantMessage("first answer")),
		u4: sm.appendMessage(userMessage("deeper one")),
		u5: "",
		u3: "",
		a3: "",
	};
	sm.branch(ids.a2);
	ids.u5 = sm.appendMessage(userMessage("deeper two"));
	sm.branch(ids.a1);
	ids.u3 = sm.appendMessage(userMessage("second question"));
	ids.a3 = sm.appendMessage(assistantMessage("second answer"));
	return { sm, ids };
}

describe("the active path of a session's tree", () => {
	it("is walked over parent positions, the same path a search of the tree finds, for every entry", () => {
		const { sm, ids } = branchedSession();
		const roots = sm.getSummaryTree();
		for (const id of Object.values(ids)) {
			const walked = activePath(roots, id).map((node) => node.id);
			// A copy of the roots is not the session's tree: its path is found by searching.
			const searched = activePath([...roots], id).map((node) => node.id);
			expect(walked).toEqual(searched);
			expect(walked.at(-1)).toBe(id);
		}
		expect(activePath(roots, "not-an-entry")).toEqual([]);
	});
});

describe("flattenTree connectors", () => {
	it("runs the active path down column 0 with side branches hanging off it, like git log --graph", () => {
		const { sm } = branchedSession();
		const rows = flattenTree(sm.getSummaryTree(), { leafId: sm.getLeafId() });
		expect(lines(rows)).toEqual([
			"user: hello",
			"assistant: hi there",
			"├─ user: first question",
			"│  assistant: first answer",
			"│  ├─ user: deeper one",
			"│  user: deeper two",
			"user: second question",
			"assistant: second answer",
		]);
		expect(rows.map((row) => row.depth)).toEqual([0, 0, 1, 1, 2, 1, 0, 0]);
		expect(rows.map((row) => row.childCount)).toEqual([1, 2, 1, 2, 0, 0, 1, 0]);
		expect(rows.map((row) => row.hasChildren)).toEqual([true, true, true, true, false, false, true, false]);
	});

	it("marks the active path and the leaf, and starts the selection at the leaf", () => {
		const { sm, ids } = branchedSession();
		const rows = flattenTree(sm.getSummaryTree(), { leafId: sm.getLeafId() });
		expect(rows.filter((row) => row.onActivePath).map((row) => row.id)).toEqual([ids.u1, ids.a1, ids.u3, ids.a3]);
		expect(rows.filter((row) => row.isLeaf).map((row) => row.id)).toEqual([ids.a3]);
		expect(initialRowIndex(rows)).toBe(7);

		sm.branch(ids.u4);
		const moved = flattenTree(sm.getSummaryTree(), { leafId: sm.getLeafId() });
		expect(moved.filter((row) => row.onActivePath).map((row) => row.text)).toEqual([
			"user: hello",
			"assistant: hi there",
			"user: first question",
			"assistant: first answer",
			"user: deeper one",
		]);
		expect(flattenTree(sm.getSummaryTree(), { leafId: null }).some((row) => row.onActivePath || row.isLeaf)).toBe(
			false,
		);
	});

	it("starts at the deepest visible ancestor when the leaf itself is hidden", () => {
		const { sm, ids } = branchedSession();
		sm.appendLabelChange(ids.u1, "start");
		const rows = flattenTree(sm.getSummaryTree(), { leafId: sm.getLeafId() });
		expect(rows.some((row) => row.isLeaf)).toBe(false);
		expect(rows[initialRowIndex(rows)]?.id).toBe(ids.a3);
		// "You are here" moves to the deepest shown entry of the path; a fold over the leaf shows it with ▸ instead.
		expect(rows.filter((row) => row.standsForLeaf).map((row) => row.id)).toEqual([ids.a3]);
		const folded = flattenTree(sm.getSummaryTree(), { leafId: sm.getLeafId(), folded: new Set([ids.a1]) });
		expect(folded.some((row) => row.standsForLeaf)).toBe(false);
	});
});

/** One entry of every kind, in one linear chain. */
function everyKindSession() {
	const sm = SessionManager.inMemory("/p");
	sm.appendSessionInit({ systemPrompt: "sys", tools: ["read", "bash"] });
	sm.appendModelChange("openai/gpt-4o");
	sm.appendThinkingLevelChange("high");
	const user = sm.appendMessage(userMessage("Read the file"));
	sm.appendMessage(toolCall("read", { path: "src/a.ts" }));
	sm.appendMessage(toolResultMessage("export const a = 1;"));
	sm.appendMessage(assistantMessage("It exports a."));
	sm.appendCustomEntry("ext-state", { x: 1 });
	sm.appendModeChange("plan");
	sm.appendCompaction("Earlier work summarized", undefined, user, 1234);
	sm.appendLabelChange(user, "start");
	sm.branchWithSummary(sm.getLeafId(), "Tried another approach");
	return { sm, user };
}

describe("flattenTree filters", () => {
	const texts = (filter: (typeof TREE_FILTERS)[number]) => {
		const { sm } = everyKindSession();
		return flattenTree(sm.getSummaryTree(), { leafId: sm.getLeafId(), filter }).map((row) => row.text);
	};

	it("default shows messages and summaries, not bookkeeping", () => {
		expect(texts("default")).toEqual([
			"user: Read the file",
			"[tool] read src/a.ts",
			"[result] read: export const a = 1;",
			"assistant: It exports a.",
			"[compaction] Earlier work summarized",
			"[branch summary] Tried another approach",
		]);
	});

	it("no-tools also hides tool results and tool-only assistant messages", () => {
		expect(texts("no-tools")).toEqual([
			"user: Read the file",
			"assistant: It exports a.",
			"[compaction] Earlier work summarized",
			"[branch summary] Tried another approach",
		]);
	});

	it("user shows user messages, labeled shows labelled entries", () => {
		expect(texts("user")).toEqual(["user: Read the file"]);
		const { sm } = everyKindSession();
		const labeled = flattenTree(sm.getSummaryTree(), { leafId: sm.getLeafId(), filter: "labeled" });
		expect(labeled.map((row) => [row.text, row.label])).toEqual([["user: Read the file", "start"]]);
	});

	it("all shows every entry", () => {
		expect(texts("all")).toEqual([
			"[session init] tools: read, bash",
			"[model] openai/gpt-4o",
			"[thinking] high",
			"user: Read the file",
			"[tool] read src/a.ts",
			"[result] read: export const a = 1;",
			"assistant: It exports a.",
			"[custom] ext-state",
			"[mode] plan",
			"[compaction] Earlier work summarized",
			"[label] start",
			"[branch summary] Tried another approach",
		]);
	});

	it("Tab order cycles through every filter", () => {
		expect(TREE_FILTERS.map(nextFilter)).toEqual(["no-tools", "user", "labeled", "all", "default"]);
	});

	it("hidden entries pass their children to the nearest visible ancestor", () => {
		const sm = SessionManager.inMemory("/p");
		sm.appendSessionInit({ systemPrompt: "sys", tools: [] });
		sm.appendMessage(userMessage("top"));
		const model = sm.appendModelChange("openai/gpt-4o");
		sm.appendMessage(userMessage("x"));
		sm.branch(model);
		const thinking = sm.appendThinkingLevelChange("low");
		sm.appendMessage(userMessage("y"));
		sm.branch(thinking);
		sm.appendMessage(userMessage("z"));
		sm.branch(model);
		sm.appendMessage(userMessage("w"));
		const tree = sm.getSummaryTree();
		expect(lines(flattenTree(tree, { leafId: sm.getLeafId() }))).toEqual([
			"user: top",
			"├─ user: x",
			"├─ user: y",
			"├─ user: z",
			"user: w",
		]);
		expect(lines(flattenTree(tree, { leafId: sm.getLeafId(), filter: "all" }))).toEqual([
			"[session init] tools:",
			"user: top",
			"[model] openai/gpt-4o",
			"├─ user: x",
			"├─ [thinking] low",
			"│  ├─ user: y",
			"│  user: z",
			"user: w",
		]);
	});
});

describe("flattenTree search and folding", () => {
	it("keeps rows whose text or label contains the search, case-insensitively", () => {
		const { sm, ids } = branchedSession();
		sm.appendLabelChange(ids.u2, "Milestone");
		const tree = sm.getSummaryTree();
		const leafId = sm.getLeafId();
		expect(lines(flattenTree(tree, { leafId, search: "SECOND" }))).toEqual([
			"user: second question",
			"assistant: second answer",
		]);
		expect(lines(flattenTree(tree, { leafId, search: "question" }))).toEqual([
			"├─ user: first question",
			"user: second question",
		]);
		expect(flattenTree(tree, { leafId, search: "milest" }).map((row) => row.id)).toEqual([ids.u2]);
		expect(flattenTree(tree, { leafId, search: "nothing like this" })).toEqual([]);
	});

	it("hides the descendants of folded entries", () => {
		const { sm, ids } = branchedSession();
		const tree = sm.getSummaryTree();
		const leafId = sm.getLeafId();
		const foldedRoot = flattenTree(tree, { leafId, folded: new Set([ids.a1]) });
		expect(lines(foldedRoot)).toEqual(["user: hello", "assistant: hi there"]);
		expect(foldedRoot[1]).toMatchObject({ folded: true, hasChildren: true, childCount: 2 });
		expect(lines(flattenTree(tree, { leafId, folded: new Set([ids.u2]) }))).toEqual([
			"user: hello",
			"assistant: hi there",
			"├─ user: first question",
			"user: second question",
			"assistant: second answer",
		]);
		// A childless entry cannot be folded.
		expect(flattenTree(tree, { leafId, folded: new Set([ids.a3]) }).at(-1)?.folded).toBe(false);
	});
});

describe("summarizeEntry", () => {
	const entry = { id: "e", parentId: null, timestamp: "2025-01-01T00:00:00.000Z" };
	it("summarizes messages on one line", () => {
		const long = `first line\n\n   second ${"x".repeat(500)}`;
		const text = summarizeEntry({ ...entry, type: "message", message: userMessage(long) }).text;
		expect(text.startsWith("user: first line second x")).toBe(true);
		expect(text.length).toBeLessThanOrEqual(200);
		expect(text.endsWith("…")).toBe(true);
		const bash = { role: "bashExecution" as const, command: "ls", output: "", exitCode: 2, cancelled: false };
		expect(
			summarizeEntry({ ...entry, type: "message", message: { ...bash, truncated: false, timestamp: 1 } }).text,
		).toBe("[bash] ls (exit 2)");
		const failed: AssistantMessage = { ...assistantMessage(""), stopReason: "error", errorMessage: "rate limited" };
		expect(summarizeEntry({ ...entry, type: "message", message: failed }).text).toBe("assistant: (rate limited)");
		expect(summarizeEntry({ ...entry, type: "future_thing" }).text).toBe("[future_thing]");
	});
});

describe("flattenTree at scale", () => {
	type Node = SummaryTreeNode & { children: Node[] };
	function userNode(id: string): Node {
		return { id, kind: "user", text: `user: message ${id}`, children: [] };
	}

	it("flattens a 100,000-deep linear session without recursion", () => {
		const root = userNode("e0");
		let tip = root;
		for (let i = 1; i < 100_000; i++) {
			const next = userNode(`e${i}`);
			tip.children.push(next);
			tip = next;
		}
		const rows = flattenTree([root], { leafId: tip.id });
		expect(rows).toHaveLength(100_000);
		expect(rows.every((row) => row.prefix === "" && row.depth === 0 && row.onActivePath)).toBe(true);
		expect(rows.at(-1)).toMatchObject({ id: "e99999", isLeaf: true, text: "user: message e99999" });
	});

	it("handles a node with 100,000 children and a 5,000-level-deep branching comb", () => {
		const wide = userNode("w");
		for (let i = 0; i < 100_000; i++) wide.children.push(userNode(`c${i}`));
		const rows = flattenTree([wide], { leafId: null });
		expect(rows).toHaveLength(100_001);
		expect(rows[1]?.prefix).toBe("├─ ");
		// With no leaf the newest child carries the line on.
		expect(rows.at(-1)?.prefix).toBe("");

		const comb = userNode("k0");
		let tip = comb;
		for (let i = 1; i < 5000; i++) {
			tip.children.push(userNode(`dead${i}`));
			const next = userNode(`k${i}`);
			tip.children.push(next);
			tip = next;
		}
		const combRows = flattenTree([comb], { leafId: tip.id });
		expect(combRows).toHaveLength(5000 + 4999);
		// 4,999 side branches leave the active path and it stays in column 0: no staircase.
		expect(combRows.at(-1)).toMatchObject({ depth: 0, prefix: "", isLeaf: true });
		const path = combRows.filter((row) => row.onActivePath);
		expect(path).toHaveLength(5000);
		expect(path.every((row) => row.prefix === "" && row.depth === 0)).toBe(true);
		expect(combRows.filter((row) => !row.onActivePath).every((row) => row.prefix === "├─ ")).toBe(true);
	});
});
