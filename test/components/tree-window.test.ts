import type { AssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { TreeOutline, type TreeRows } from "../../components/tree-view/tree-outline.js";
import { flattenTree, initialRowIndex, type TreeFilter, type TreeRow } from "../../components/tree-view/tree-rows.js";
import { treeRows } from "../../components/tree-view/tree-view-reducer.js";
import { WindowedOutline } from "../../components/tree-view/tree-window.js";
import { TREE_FILTERS } from "../../source/session/entry-summary.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { type SummaryTreeNode, treeModelOf } from "../../source/session/summary-tree.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
function random(seed: number): (n: number) => number {
	let state = seed >>> 0;
	return (n) => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
	};
}

function toolCall(name: string): AssistantMessage {
	return {
		...assistantMessage(""),
		content: [{ type: "toolCall", id: `call-${name}`, name, arguments: { path: name } }],
	};
}

/** A session of `size` entries of every kind, branching from random entries, labelled here and there, its leaf anywhere. */
function randomSession(seed: number, size: number) {
	const pick = random(seed);
	const sm = SessionManager.inMemory("/p");
	const ids: string[] = [];
	for (let i = 0; i < size; i++) {
		if (ids.length > 0 && pick(4) === 0) sm.branch(ids[pick(ids.length)]!);
		switch (pick(8)) {
			case 0:
			case 1:
				ids.push(sm.appendMessage(userMessage(`question ${i}`)));
				break;
			case 2:
			case 3:
				ids.push(sm.appendMessage(assistantMessage(`answer ${i}`)));
				break;
			case 4:
				ids.push(sm.appendMessage(toolCall(`file${i}.ts`)));
				break;
			case 5:
				ids.push(sm.appendMessage(toolResultMessage(`output ${i}`)));
				break;
			case 6:
				ids.push(sm.appendModelChange(`openai/model-${i}`));
				break;
			default:
				if (ids.length > 0) ids.push(sm.appendLabelChange(ids[pick(ids.length)]!, `label ${i}`));
				else ids.push(sm.appendMessage(userMessage(`question ${i}`)));
		}
	}
	// The leaf anywhere: on a branch's end, in the middle of one, or on an entry a filter hides.
	if (pick(3) > 0) sm.branch(ids[pick(ids.length)]!);
	return { sm, ids, pick };
}

/** Every field of a row, text read, as plain data. */
function plain(row: TreeRow | undefined) {
	if (!row) return row;
	const { id, depth, prefix, text, kind, onActivePath, isLeaf, standsForLeaf, label, hasChildren, childCount, folded } =
		row;
	return { id, depth, prefix, text, kind, onActivePath, isLeaf, standsForLeaf, label, hasChildren, childCount, folded };
}

/**
 * Checks layouts made by `make` against the full layout: count, start row, every row read in the
 * given order, and every index by id, found by a layout that has read no row yet and by one that has.
 */
function expectSameRows(make: () => TreeRows, full: readonly TreeRow[], order: readonly number[]): void {
	const rows = make();
	expect(rows.count).toBe(full.length);
	expect(rows.initialIndex).toBe(initialRowIndex(full));
	expect(rows.showsPath).toBe(full.some((row) => row.onActivePath));
	const unread = make();
	for (let i = full.length - 1; i >= 0; i--) expect(unread.indexOfId(full[i]!.id), `index of row ${i}`).toBe(i);
	for (const index of order) expect(plain(rows.rowAt(index)), `row ${index}`).toEqual(plain(full[index]));
	expect(rows.rowAt(full.length)).toBeUndefined();
	for (let i = 0; i < full.length; i++) expect(rows.indexOfId(full[i]!.id)).toBe(i);
}

/** Windows over the rows as a person moves: from the start row up and down, pages, both ends, then random jumps. */
function readingOrder(count: number, start: number, pick: (n: number) => number): number[] {
	const order: number[] = [];
	for (let i = start; i >= Math.max(0, start - 12); i--) order.push(i);
	for (let i = start; i < Math.min(count, start + 5); i++) order.push(i);
	order.push(0, 1, 2, count - 1, count - 2);
	for (let i = 0; i < 20; i++) order.push(pick(count));
	for (let i = 0; i < count; i++) order.push(i);
	return order.filter((index) => index >= 0 && index < count);
}

describe("the windowed layout of /tree", () => {
	it("gives exactly the full layout's rows at any window, on random branched trees under every filter", () => {
		for (let seed = 1; seed <= 60; seed++) {
			const { sm, pick } = randomSession(seed, 20 + (seed % 7) * 15);
			const tree = sm.getSummaryTree();
			for (const filter of TREE_FILTERS) {
				const full = flattenTree(tree, { leafId: sm.getLeafId(), filter });
				const make = () => WindowedOutline.create(treeModelOf(tree), filter, sm.getLeafId())!;
				expect(make(), `seed ${seed}`).toBeInstanceOf(WindowedOutline);
				const order = readingOrder(full.length, make().initialIndex, pick);
				expectSameRows(make, full, order);
				// A layout read from the other end finds the same rows.
				expectSameRows(make, full, [...order].reverse());
			}
		}
	});

	it("also on a tree of nodes not made from a session, and with no leaf", () => {
		const { sm } = randomSession(7, 80);
		const copy: readonly SummaryTreeNode[] = [...sm.getSummaryTree()];
		for (const leafId of [sm.getLeafId(), null, "not-an-entry"]) {
			const full = flattenTree(copy, { leafId });
			const make = () => treeRows(copy, { leafId });
			expect(make()).toBeInstanceOf(WindowedOutline);
			expectSameRows(make, full, readingOrder(full.length, make().initialIndex, random(3)));
		}
	});

	it("the whole layout (searches, folds) gives the same rows as well", () => {
		for (let seed = 1; seed <= 30; seed++) {
			const { sm, ids, pick } = randomSession(seed, 60);
			const tree = sm.getSummaryTree();
			const folded = new Set([ids[pick(ids.length)]!, ids[pick(ids.length)]!]);
			for (const filter of ["default", "all"] as TreeFilter[]) {
				for (const options of [{ folded }, { search: "answer 1" }, { search: "LABEL", folded }, {}]) {
					const full = flattenTree(tree, { leafId: sm.getLeafId(), filter, ...options });
					const make = () => new TreeOutline(treeModelOf(tree), { leafId: sm.getLeafId(), filter, ...options });
					expectSameRows(make, full, readingOrder(full.length, make().initialIndex, pick));
					const chosen = treeRows(tree, { leafId: sm.getLeafId(), filter, ...options });
					expect(chosen).toBeInstanceOf(Object.keys(options).length === 0 ? WindowedOutline : TreeOutline);
				}
			}
		}
	});

	it("opens a 200,000-entry linear session on its leaf without walking to it row by row", () => {
		const sm = SessionManager.inMemory("/p");
		for (let i = 0; i < 100_000; i++) {
			sm.appendMessage(userMessage(`question ${i}`));
			sm.appendMessage(assistantMessage(`answer ${i}`));
		}
		const rows = treeRows(sm.getSummaryTree(), { leafId: sm.getLeafId() });
		expect(rows.count).toBe(200_000);
		expect(rows.initialIndex).toBe(199_999);
		expect(plain(rows.rowAt(199_999))).toMatchObject({ text: "assistant: answer 99999", isLeaf: true, prefix: "" });
		expect(rows.rowAt(199_990)?.text).toBe("user: question 99995");
		expect(rows.rowAt(0)?.text).toBe("user: question 0");
		expect(rows.rowAt(100_001)?.text).toBe("assistant: answer 50000");
	});
});
