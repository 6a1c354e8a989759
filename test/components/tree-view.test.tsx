import type { AssistantMessage } from "@mariozechner/pi-ai";
import { useCallback, useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TreeView } from "../../components/tree-view/tree-view.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { KEYS, plain, pressAndWaitFor, renderAndWait, waitForFrame } from "../helpers/ink.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";

const TITLE = "Session tree — default (Tab: filter)";
const BROWSE_KEYS = "↑↓ move · PgUp/PgDn page · Home/End · ←→ fold · Enter go to entry";
const BROWSE_KEYS_2 = "Tab filter · type to search · d diff · l label · Esc close";
const SEARCH_KEYS = "Tab filter · Backspace edit search · Esc clear search";
const CHOICE_KEYS = "↑↓ choose · Enter confirm · Esc back";
const CHOICE_TITLE = "Leaving the current branch. Summarize it?";

/** hello → hi there → { first question → first answer, second question → second answer (leaf) } */
function branchedSession() {
	const sm = SessionManager.inMemory("/p");
	const u1 = sm.appendMessage(userMessage("hello"));
	const a1 = sm.appendMessage(assistantMessage("hi there"));
	const u2 = sm.appendMessage(userMessage("first question"));
	const a2 = sm.appendMessage(assistantMessage("first answer"));
	sm.branch(a1);
	const u3 = sm.appendMessage(userMessage("second question"));
	const a3 = sm.appendMessage(assistantMessage("second answer"));
	return { sm, ids: { u1, a1, u2, a2, u3, a3 } };
}

interface HarnessProps {
	readonly sm: SessionManager;
	readonly height?: number;
	readonly onNavigate: (entryId: string, options: { summarize: boolean; customInstructions?: string }) => void;
	readonly onLabel: (entryId: string, label: string | undefined) => void;
	readonly onCancel: () => void;
}

/** Owns a real session like the app does: a label is appended, and the new tree is passed down. */
function Harness({ sm, height = 15, onNavigate, onLabel, onCancel }: HarnessProps) {
	const [snapshot, setSnapshot] = useState(() => ({ tree: sm.getSummaryTree(), leafId: sm.getLeafId() }));
	const handleLabel = useCallback(
		(entryId: string, label: string | undefined) => {
			onLabel(entryId, label);
			sm.appendLabelChange(entryId, label);
			setSnapshot({ tree: sm.getSummaryTree(), leafId: sm.getLeafId() });
		},
		[sm, onLabel],
	);
	return (
		<TreeView
			tree={snapshot.tree}
			leafId={snapshot.leafId}
			height={height}
			width={80}
			isActive
			onNavigate={onNavigate}
			onLabel={handleLabel}
			onCancel={onCancel}
		/>
	);
}

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

async function open(sm: SessionManager, height = 15) {
	const spies = { onNavigate: vi.fn(), onLabel: vi.fn(), onCancel: vi.fn() };
	const instance = await renderAndWait(<Harness sm={sm} height={height} {...spies} />, (f) =>
		f.includes("Session tree"),
	);
	unmount = instance.unmount;
	return { instance, ...spies };
}

/** The line carrying the selection cursor. */
function selected(frame: string): string {
	return frame.split("\n").find((line) => line.startsWith("❯ ")) ?? "";
}

function isSelected(text: string) {
	return (frame: string) => selected(frame).includes(text);
}

describe("TreeView browsing", () => {
	it("renders the graph with the active path, the leaf selected and the keys", async () => {
		const { instance } = await open(branchedSession().sm);
		const frame = plain(instance.lastFrame());
		expect(frame.split("\n")).toEqual([
			TITLE,
			"",
			"  • user: hello",
			"  ▾ • assistant: hi there",
			"  ├─ user: first question",
			"  │  assistant: first answer",
			"  • user: second question",
			"❯ ● assistant: second answer",
			"",
			BROWSE_KEYS,
			BROWSE_KEYS_2,
		]);
	});

	it("Enter on the active path navigates at once; Enter on the leaf does nothing", async () => {
		const { sm, ids } = branchedSession();
		const { instance, onNavigate } = await open(sm);
		// Enter on the leaf changes nothing: the next ↑ moves from the leaf, and nothing was navigated.
		instance.stdin.write(KEYS.enter);
		await pressAndWaitFor(instance, KEYS.up, isSelected("user: second question"));
		expect(onNavigate).not.toHaveBeenCalled();
		await pressAndWaitFor(instance, KEYS.home, isSelected("user: hello"));
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onNavigate).toHaveBeenCalledWith(ids.u1, { summarize: false }));
		expect(plain(instance.lastFrame())).not.toContain("No summary");
		await pressAndWaitFor(instance, KEYS.down, isSelected("assistant: hi there"));
		await pressAndWaitFor(instance, KEYS.end, isSelected("assistant: second answer"));
		await pressAndWaitFor(instance, KEYS.pageUp, isSelected("user: hello"));
		await pressAndWaitFor(instance, KEYS.pageDown, isSelected("assistant: second answer"));
		expect(onNavigate).toHaveBeenCalledTimes(1);
	});

	it("folds with ← and unfolds with →", async () => {
		const { instance } = await open(branchedSession().sm);
		await pressAndWaitFor(instance, KEYS.home, isSelected("user: hello"));
		await pressAndWaitFor(instance, KEYS.down, isSelected("assistant: hi there"));
		const folded = await pressAndWaitFor(instance, KEYS.left, (f) => f.includes("▸ • assistant: hi there"));
		expect(folded).not.toContain("first question");
		const unfolded = await pressAndWaitFor(instance, KEYS.right, (f) => f.includes("▾ • assistant: hi there"));
		expect(unfolded).toContain("├─ user: first question");
	});

	it("shows ▲/▼ with the counts of rows outside the window, and only the window's rows", async () => {
		const sm = SessionManager.inMemory("/p");
		for (let i = 0; i < 25; i++) {
			sm.appendMessage(userMessage(`question ${i}`));
			sm.appendMessage(assistantMessage(`answer ${i}`));
		}
		// 10 rows and the five lines around them: title, ▲, ▼ and two of keys.
		const { instance } = await open(sm, 15);
		const rows = (frame: string) => frame.split("\n").filter((line) => /(user|assistant): /.test(line));
		let frame = plain(instance.lastFrame());
		expect(frame).toContain("▲ 40 more");
		expect(frame).not.toContain("▼");
		expect(rows(frame)).toHaveLength(10);
		frame = await pressAndWaitFor(instance, KEYS.home, (f) => f.includes("▼ 40 more"));
		expect(frame).not.toContain("▲");
		frame = await pressAndWaitFor(instance, KEYS.pageDown, (f) => f.includes("▲ 5 more"));
		expect(frame).toContain("▼ 35 more");
		expect(selected(frame)).toContain("user: question 5");
		expect(rows(frame)).toHaveLength(10);
	});
});

describe("TreeView navigation to another branch", () => {
	async function openOnOtherBranch() {
		const { sm, ids } = branchedSession();
		const opened = await open(sm);
		await pressAndWaitFor(opened.instance, KEYS.up, isSelected("user: second question"));
		await pressAndWaitFor(opened.instance, KEYS.up, isSelected("assistant: first answer"));
		const frame = await pressAndWaitFor(opened.instance, KEYS.enter, (f) => f.includes(CHOICE_TITLE));
		return { ...opened, ids, frame };
	}

	it("offers the three choices; No summary navigates without one", async () => {
		const { instance, onNavigate, ids, frame } = await openOnOtherBranch();
		expect(frame).toContain("❯ No summary");
		expect(frame).toContain("  Summarize\n");
		expect(frame).toContain("  Summarize with instructions…");
		expect(frame).toContain(CHOICE_KEYS);
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onNavigate).toHaveBeenCalledWith(ids.a2, { summarize: false }));
		await waitForFrame(instance, (f) => !f.includes(CHOICE_TITLE) && f.includes(BROWSE_KEYS_2));
	});

	it("Summarize asks for a summary; Esc goes back to the list", async () => {
		const { instance, onNavigate, ids } = await openOnOtherBranch();
		await pressAndWaitFor(instance, KEYS.escape, (f) => !f.includes(CHOICE_TITLE) && f.includes(BROWSE_KEYS_2));
		expect(onNavigate).not.toHaveBeenCalled();
		await pressAndWaitFor(instance, KEYS.enter, (f) => f.includes(CHOICE_TITLE));
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Summarize\n"));
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onNavigate).toHaveBeenCalledWith(ids.a2, { summarize: true }));
	});

	it("Summarize with instructions… takes one line of instructions", async () => {
		const { instance, onNavigate, ids } = await openOnOtherBranch();
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Summarize\n"));
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Summarize with instructions…"));
		let frame = await pressAndWaitFor(instance, KEYS.enter, (f) => f.includes("Instructions: █"));
		expect(frame).toContain("Enter summarize · Esc back");
		await pressAndWaitFor(instance, "keep the tests", (f) => f.includes("Instructions: keep the tests█"));
		await pressAndWaitFor(instance, KEYS.backspace, (f) => f.includes("Instructions: keep the test█"));
		frame = await pressAndWaitFor(instance, KEYS.escape, (f) => f.includes(CHOICE_TITLE));
		expect(frame).not.toContain("Instructions:");
		await pressAndWaitFor(instance, KEYS.enter, (f) => f.includes("Instructions: █"));
		await pressAndWaitFor(instance, "focus on the parser", (f) => f.includes("focus on the parser█"));
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() =>
			expect(onNavigate).toHaveBeenCalledWith(ids.a2, { summarize: true, customInstructions: "focus on the parser" }),
		);
		expect(onNavigate).toHaveBeenCalledTimes(1);
	});
});

describe("TreeView labels, filters and search", () => {
	it("l sets a label, l with the text erased clears it, Esc cancels", async () => {
		const { sm, ids } = branchedSession();
		const { instance, onLabel } = await open(sm);
		await pressAndWaitFor(instance, KEYS.home, isSelected("user: hello"));
		let frame = await pressAndWaitFor(instance, "l", (f) => f.includes("Label: █"));
		expect(frame).toContain("Enter save · empty text clears the label · Esc cancel");
		await pressAndWaitFor(instance, "milestone", (f) => f.includes("Label: milestone█"));
		frame = await pressAndWaitFor(instance, KEYS.enter, (f) => f.includes("[milestone] user: hello"));
		expect(onLabel).toHaveBeenLastCalledWith(ids.u1, "milestone");
		expect(frame).not.toContain("Label:");
		expect(selected(frame)).toContain("[milestone] user: hello");

		await pressAndWaitFor(instance, "l", (f) => f.includes("Label: milestone█"));
		for (let i = 0; i < "milestone".length; i++) instance.stdin.write(KEYS.backspace);
		await waitForFrame(instance, (f) => f.includes("Label: █"));
		frame = await pressAndWaitFor(instance, KEYS.enter, (f) => !f.includes("[milestone]") && !f.includes("Label:"));
		expect(onLabel).toHaveBeenLastCalledWith(ids.u1, undefined);

		await pressAndWaitFor(instance, "l", (f) => f.includes("Label: █"));
		await pressAndWaitFor(instance, "x", (f) => f.includes("Label: x█"));
		await pressAndWaitFor(instance, KEYS.escape, (f) => !f.includes("Label:") && f.includes(BROWSE_KEYS_2));
		expect(onLabel).toHaveBeenCalledTimes(2);
	});

	it("keeps the 'you are here' marker after a label (the label entry becomes the hidden leaf)", async () => {
		const { sm } = branchedSession();
		const { instance } = await open(sm);
		await pressAndWaitFor(instance, KEYS.home, isSelected("user: hello"));
		await pressAndWaitFor(instance, "l", (f) => f.includes("Label: █"));
		await pressAndWaitFor(instance, "start", (f) => f.includes("Label: start█"));
		const frame = await pressAndWaitFor(instance, KEYS.enter, (f) => f.includes("[start] user: hello"));
		expect(sm.getEntries().find((entry) => entry.id === sm.getLeafId())?.type).toBe("label");
		expect(frame).toContain("● assistant: second answer");
		// Under the "all" filter the label entry itself is shown, and it carries the marker.
		await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes("no-tools"));
		await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes("— user"));
		await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes("labeled"));
		const all = await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes("— all"));
		expect(all.match(/●/g)).toHaveLength(1);
		expect(all).not.toContain("● assistant: second answer");
	});

	it("Tab cycles the filters and the title names the filter", async () => {
		const sm = SessionManager.inMemory("/p");
		sm.appendModelChange("openai/gpt-4o");
		sm.appendMessage(userMessage("read it"));
		const call: AssistantMessage = {
			...assistantMessage(""),
			content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "src/a.ts" } }],
		};
		sm.appendMessage(call);
		sm.appendMessage(toolResultMessage("export const a = 1;"));
		sm.appendMessage(assistantMessage("done"));
		const { instance } = await open(sm);
		let frame = plain(instance.lastFrame());
		expect(frame).toContain(TITLE);
		expect(frame).toContain("[tool] read src/a.ts");
		expect(frame).toContain("[result] read: export const a = 1;");
		expect(frame).not.toContain("[model]");
		frame = await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes("Session tree — no-tools (Tab: filter)"));
		expect(frame).not.toContain("[tool]");
		expect(frame).not.toContain("[result]");
		expect(frame).toContain("assistant: done");
		frame = await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes("Session tree — user (Tab: filter)"));
		expect(frame).not.toContain("assistant: done");
		expect(frame).toContain("user: read it");
		frame = await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes("Session tree — labeled (Tab: filter)"));
		expect(frame).toContain("No matching entries");
		frame = await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes("Session tree — all (Tab: filter)"));
		expect(frame).toContain("[model] openai/gpt-4o");
		await pressAndWaitFor(instance, KEYS.tab, (f) => f.includes(TITLE));
	});

	it("typing searches; Backspace edits; Esc clears the search, then cancels", async () => {
		const { instance, onCancel } = await open(branchedSession().sm);
		let frame = await pressAndWaitFor(instance, "second", (f) => f.includes("Search: second (2 matches)"));
		expect(frame).not.toContain("first question");
		expect(frame).toContain("user: second question");
		expect(frame).toContain(SEARCH_KEYS);
		frame = await pressAndWaitFor(instance, KEYS.backspace, (f) => f.includes("Search: secon (2 matches)"));
		frame = await pressAndWaitFor(instance, KEYS.escape, (f) => !f.includes("Search:"));
		expect(frame).toContain("first question");
		expect(frame).toContain(BROWSE_KEYS_2);
		expect(onCancel).not.toHaveBeenCalled();
		// After the first letter, l is just a letter of the search.
		await pressAndWaitFor(instance, "h", (f) => f.includes("Search: h ("));
		await pressAndWaitFor(instance, "el", (f) => f.includes("Search: hel (1 match)"));
		await pressAndWaitFor(instance, "zz", (f) => f.includes("No matching entries"));
		await pressAndWaitFor(instance, KEYS.escape, (f) => !f.includes("Search:"));
		instance.stdin.write(KEYS.escape);
		await vi.waitFor(() => expect(onCancel).toHaveBeenCalledTimes(1));
	});

	it("shows No entries for an empty session", async () => {
		const { instance } = await open(SessionManager.inMemory("/p"));
		expect(plain(instance.lastFrame())).toContain("No entries");
	});
});

describe("TreeView at scale", () => {
	it("renders the first frame of a 100,000-entry session and stays responsive", async () => {
		const sm = SessionManager.inMemory("/p");
		for (let i = 0; i < 50_000; i++) {
			sm.appendMessage(userMessage(`q${i}`));
			sm.appendMessage(assistantMessage(`a${i}`));
		}
		const { instance } = await open(sm, 25);
		const frame = plain(instance.lastFrame());
		expect(frame).toContain("▲ 99980 more");
		expect(selected(frame)).toContain("● assistant: a49999");
		expect(frame.split("\n").filter((line) => /(user|assistant): /.test(line))).toHaveLength(20);
		await pressAndWaitFor(instance, KEYS.up, isSelected("user: q49999"));
		await pressAndWaitFor(instance, KEYS.home, (f) => isSelected("user: q0")(f) && f.includes("▼ 99980 more"));
	});
});
