import { describe, expect, it } from "vitest";
import { footerLines, treeChromeLines } from "../../components/tree-view/tree-layout.js";
import { selectedRow } from "../../components/tree-view/tree-list.js";
import { RESTORE_CHOICES } from "../../components/tree-view/tree-restore-choice.js";
import {
	initTreeViewState,
	type TreeViewAction,
	type TreeViewState,
	treeViewReducer,
} from "../../components/tree-view/tree-view-reducer.js";
import type { KeyAction } from "../../controllers/keymap.js";
import { matchTreeKey } from "../../controllers/keymap.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

/** hello → hi there → { first question → first answer, second question → second answer (leaf) } */
function branched() {
	const sm = SessionManager.inMemory("/p");
	sm.appendMessage(userMessage("hello"));
	const a1 = sm.appendMessage(assistantMessage("hi there"));
	const u2 = sm.appendMessage(userMessage("first question"));
	const a2 = sm.appendMessage(assistantMessage("first answer"));
	sm.branch(a1);
	const u3 = sm.appendMessage(userMessage("second question"));
	sm.appendMessage(assistantMessage("second answer"));
	return { sm, ids: { a1, u2, a2, u3 } };
}

function open(sm: SessionManager, checksCode = true): TreeViewState {
	return initTreeViewState({ tree: sm.getSummaryTree(), leafId: sm.getLeafId(), height: 20, checksCode });
}

const key = (action: KeyAction | undefined, input = ""): TreeViewAction => ({ type: "key", action, input });

function select(state: TreeViewState, id: string): TreeViewState {
	let next = treeViewReducer(state, key("home"));
	for (let i = 0; i < 20 && selectedRow(next.list)?.id !== id; i++) next = treeViewReducer(next, key("down"));
	expect(selectedRow(next.list)?.id).toBe(id);
	return next;
}

function press(state: TreeViewState, ...actions: (KeyAction | undefined)[]): TreeViewState {
	return actions.reduce((s, action) => treeViewReducer(s, key(action)), state);
}

describe("the tree view's restore choice", () => {
	it("Enter asks the owner to compare the files first, then offers the three choices when they differ", () => {
		const { sm, ids } = branched();
		let state = press(select(open(sm), ids.a2), "submit");
		expect(state.mode).toBe("checking");
		expect(state.outcome).toEqual({ type: "check-code", entryId: ids.a2 });
		expect(footerLines(state)).toEqual(["Esc back"]);
		state = treeViewReducer(state, { type: "code-checked", entryId: ids.a2, check: { kind: "differs", files: 2 } });
		expect(state.mode).toBe("restore-choice");
		expect(state.codeFiles).toBe(2);
		expect(RESTORE_CHOICES).toEqual(["Restore code and conversation", "Conversation only", "Code only"]);
		expect(footerLines(state)).toEqual(["↑↓ choose · Enter confirm · Esc back"]);
		// The question and three choices, like the summary choice.
		expect(treeChromeLines(state)).toBe(1 + 2 + 4 + 1);
	});

	it("code and conversation on another branch goes on to the summary choice, and restores with the summary chosen", () => {
		const { sm, ids } = branched();
		let state = press(select(open(sm), ids.a2), "submit");
		state = treeViewReducer(state, { type: "code-checked", entryId: ids.a2, check: { kind: "differs", files: 1 } });
		state = press(state, "submit");
		expect(state.mode).toBe("summary-choice");
		// Esc from the summary choice goes back to the restore choice, on the choice made.
		state = press(state, "cancel");
		expect(state.mode).toBe("restore-choice");
		expect(state.choice).toBe(0);
		state = press(state, "submit", "down", "submit");
		expect(state.outcome).toEqual({ type: "restore", entryId: ids.a2, mode: "both", options: { summarize: true } });
		expect(state.mode).toBe("browse");
	});

	it("conversation only moves as before; code only restores the files alone, with no summary question", () => {
		const { sm, ids } = branched();
		const checked = treeViewReducer(press(select(open(sm), ids.a2), "submit"), {
			type: "code-checked",
			entryId: ids.a2,
			check: { kind: "differs", files: 3 },
		});
		const talk = press(checked, "down", "submit", "submit");
		expect(talk.outcome).toEqual({ type: "navigate", entryId: ids.a2, options: { summarize: false } });
		const code = press(checked, "down", "down", "submit");
		expect(code.outcome).toEqual({ type: "restore", entryId: ids.a2, mode: "code", options: { summarize: false } });
		// On the active path there is nothing to summarise: code and conversation restore at once.
		const onPath = treeViewReducer(press(select(open(sm), ids.u3), "submit"), {
			type: "code-checked",
			entryId: ids.u3,
			check: { kind: "differs", files: 1 },
		});
		expect(press(onPath, "submit").outcome).toEqual({
			type: "restore",
			entryId: ids.u3,
			mode: "both",
			options: { summarize: false },
		});
	});

	it("files that are the same go on as before checkpoints; Esc while comparing drops the late answer", () => {
		const { sm, ids } = branched();
		const same = treeViewReducer(press(select(open(sm), ids.a2), "submit"), {
			type: "code-checked",
			entryId: ids.a2,
			check: { kind: "same" },
		});
		expect(same.mode).toBe("summary-choice");
		const onPath = treeViewReducer(press(select(open(sm), ids.a1), "submit"), {
			type: "code-checked",
			entryId: ids.a1,
			check: { kind: "same" },
		});
		expect(onPath.outcome).toEqual({ type: "navigate", entryId: ids.a1, options: { summarize: false } });
		const left = press(press(select(open(sm), ids.a2), "submit"), "cancel");
		expect(left.mode).toBe("browse");
		const late = treeViewReducer(left, { type: "code-checked", entryId: ids.a2, check: { kind: "differs", files: 1 } });
		expect(late).toBe(left);
		// Without a comparison (no checkpoints wired), Enter is what it always was.
		expect(press(select(open(sm, false), ids.a2), "submit").mode).toBe("summary-choice");
	});

	it("d asks for the selected entry's diff before a search starts, and is a letter after", () => {
		const { sm, ids } = branched();
		expect(matchTreeKey("d", {})).toBe("showDiff");
		expect(matchTreeKey("d", { ctrl: true })).toBe("deleteItem");
		const state = treeViewReducer(select(open(sm), ids.a2), key("showDiff", "d"));
		expect(state.outcome).toEqual({ type: "diff", entryId: ids.a2 });
		const searching = treeViewReducer(treeViewReducer(open(sm), key(undefined, "x")), key("showDiff", "d"));
		expect(searching.search).toBe("xd");
		expect(searching.outcome).toBeNull();
	});
});
