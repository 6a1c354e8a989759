import { describe, expect, it } from "vitest";
import { MemorySessionStorage } from "../../source/session/memory-session-storage.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { SessionTreeNode } from "../../source/session/types.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

function depthFirstIds(roots: SessionTreeNode[]): string[] {
	const ids: string[] = [];
	const stack = [...roots].reverse();
	while (stack.length > 0) {
		const node = stack.pop()!;
		ids.push(node.entry.id);
		for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
	}
	return ids;
}

describe("tree and leaf semantics", () => {
	it("every append creates one entry whose parent is the previous leaf and moves the leaf", () => {
		const session = SessionManager.inMemory("/p");
		const ids = [
			session.appendMessage(userMessage("hi")),
			session.appendThinkingLevelChange("high"),
			session.appendModelChange("openai/gpt-4o", "default"),
			session.appendCustomEntry("ext", { state: 1 }),
			session.appendCustomMessageEntry("ext", "Injected", true, { debug: false }),
			session.appendTtsrInjection(["ruleA"]),
			session.appendSessionInit({ systemPrompt: "sys", tools: ["read"] }),
			session.appendModeChange("plan", { planFile: "/tmp/plan.md" }),
		];
		ids.push(session.appendLabelChange(ids[0]!, "start"));
		ids.push(session.appendCompaction("sum", "short", ids[0]!, 1000));
		const entries = session.getEntries();
		expect(entries.map((e) => e.id)).toEqual(ids);
		expect(entries[0]!.parentId).toBeNull();
		for (let i = 1; i < entries.length; i++) expect(entries[i]!.parentId).toBe(ids[i - 1]);
		expect(session.getLeafId()).toBe(ids[ids.length - 1]);
		for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
	});

	it("branch moves only the leaf; the next append forks a sibling", () => {
		const session = SessionManager.inMemory("/p");
		const a = session.appendMessage(userMessage("a"));
		const b = session.appendMessage(assistantMessage("b"));
		session.branch(a);
		expect(session.getEntries()).toHaveLength(2);
		const c = session.appendMessage(assistantMessage("c"));
		expect(session.getEntry(c)!.parentId).toBe(a);
		expect(session.getChildren(a).map((e) => e.id)).toEqual([b, c]);
		expect(session.getBranch().map((e) => e.id)).toEqual([a, c]);
		expect(session.getBranch(b).map((e) => e.id)).toEqual([a, b]);
	});

	it("resetLeaf makes the next append a new root", () => {
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage("a"));
		session.resetLeaf();
		expect(session.getLeafId()).toBeNull();
		expect(session.buildSessionContext().messages).toEqual([]);
		const root = session.appendMessage(userMessage("b"));
		expect(session.getEntry(root)!.parentId).toBeNull();
		expect(session.getTree()).toHaveLength(2);
	});

	it("branchWithSummary from either leaf records where the branch was left", () => {
		const session = SessionManager.inMemory("/p");
		const u = session.appendMessage(userMessage("question"));
		const left = session.appendMessage(assistantMessage("left answer"));
		session.branch(u);
		const right = session.appendMessage(assistantMessage("right answer"));

		const toLeft = session.branchWithSummary(left, "tried the right branch", { note: 1 }, true);
		const fromRight = session.getEntry(toLeft)!;
		expect(fromRight).toMatchObject({
			type: "branch_summary",
			parentId: left,
			fromId: left,
			summary: "tried the right branch",
			details: { note: 1 },
			fromExtension: true,
		});
		const toRight = session.branchWithSummary(right, "tried the left branch");
		expect(session.getEntry(toRight)).toMatchObject({ parentId: right, fromId: right });
		const context = session.buildSessionContext();
		expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant", "branchSummary"]);

		const fromRoot = session.branchWithSummary(null, "started over");
		expect(session.getEntry(fromRoot)).toMatchObject({ parentId: null, fromId: "root" });
	});

	it("labels are set, replaced and cleared; unknown targets are refused", () => {
		const session = SessionManager.inMemory("/p");
		const a = session.appendMessage(userMessage("a"));
		session.appendLabelChange(a, "checkpoint");
		expect(session.getLabel(a)).toBe("checkpoint");
		session.appendLabelChange(a, "renamed");
		expect(session.getLabel(a)).toBe("renamed");
		expect(session.getTree()[0]!.label).toBe("renamed");
		session.appendLabelChange(a);
		expect(session.getLabel(a)).toBeUndefined();
		expect(() => session.appendLabelChange("deadbeef", "x")).toThrow("Entry deadbeef not found");
		expect(() => session.branch("deadbeef")).toThrow("Entry deadbeef not found");
	});

	it("getTree and getBranch handle a 100,000-deep linear session without recursion", () => {
		const session = SessionManager.inMemory("/p");
		for (let i = 0; i < 100_000; i++) session.appendMessage(userMessage(`m${i}`));
		const tree = session.getTree();
		expect(tree).toHaveLength(1);
		let depth = 0;
		for (let node: SessionTreeNode | undefined = tree[0]; node; node = node.children[0]) depth++;
		expect(depth).toBe(100_000);
		expect(session.getBranch()).toHaveLength(100_000);
		expect(session.buildSessionContext().messages).toHaveLength(100_000);
	});

	it("getTree keeps insertion order and shows every branch", () => {
		const session = SessionManager.inMemory("/p");
		const a = session.appendMessage(userMessage("a"));
		const b = session.appendMessage(assistantMessage("b"));
		session.branch(a);
		const c = session.appendMessage(assistantMessage("c"));
		const d = session.appendMessage(userMessage("d"));
		expect(depthFirstIds(session.getTree())).toEqual([a, b, c, d]);
	});

	it("an entry whose parent is missing becomes a root instead of disappearing", async () => {
		const storage = new MemorySessionStorage();
		const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" };
		const orphan = {
			type: "message",
			id: "aaaaaaaa",
			parentId: "ffffffff",
			timestamp: "2026-01-01T00:00:01.000Z",
			message: userMessage("orphan"),
		};
		storage.writeTextSync("/s/x.jsonl", `${JSON.stringify(header)}\n${JSON.stringify(orphan)}\n`);
		const session = await SessionManager.open("/s/x.jsonl", { sessionDir: "/s", storage });
		expect(session.getTree().map((n) => n.entry.id)).toEqual(["aaaaaaaa"]);
		expect(session.buildSessionContext().messages).toHaveLength(1);
	});
});
