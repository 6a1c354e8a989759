import { afterEach, describe, expect, it, vi } from "vitest";
import { CHECKING_FILES, TreeView } from "../../components/tree-view/tree-view.js";
import type { CodeCheck } from "../../source/checkpoints/session-rewind.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { KEYS, plain, pressAndWaitFor, renderAndWait } from "../helpers/ink.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

describe("TreeView with file checkpoints", () => {
	it("keeps ±N files and the label on screen in a narrow window, where a long row's text is cut", async () => {
		const sm = SessionManager.inMemory("/p");
		sm.appendMessage(userMessage("write a"));
		const answer = sm.appendMessage(assistantMessage(`wrote a ${"long answer ".repeat(20)}`));
		sm.appendLabelChange(answer, "good");
		const instance = await renderAndWait(
			<TreeView
				tree={sm.getSummaryTree()}
				leafId={sm.getLeafId()}
				height={12}
				width={36}
				isActive
				fileCounts={new Map([[answer, 3]])}
				onNavigate={() => {}}
				onLabel={() => {}}
				onCancel={() => {}}
				onCheckCode={() => new Promise<CodeCheck>(() => {})}
				onRestore={() => {}}
			/>,
			(f) => f.includes("write a"),
		);
		unmount = instance.unmount;
		const row = plain(instance.lastFrame())
			.split("\n")
			.find((line) => line.includes("±3 files"));
		expect(row).toContain("±3 files [good] assistant: wrot");
	});

	it("shows ±N files on a turn's row, compares the files on Enter, then offers the restore and reports the choice", async () => {
		const sm = SessionManager.inMemory("/p");
		sm.appendMessage(userMessage("write a"));
		const answer = sm.appendMessage(assistantMessage("wrote a"));
		sm.appendMessage(userMessage("write b"));
		sm.appendMessage(assistantMessage("wrote b"));
		let answerCheck: (check: CodeCheck) => void = () => {};
		const onCheckCode = vi.fn(() => new Promise<CodeCheck>((resolve) => (answerCheck = resolve)));
		const onRestore = vi.fn();
		const instance = await renderAndWait(
			<TreeView
				tree={sm.getSummaryTree()}
				leafId={sm.getLeafId()}
				height={16}
				width={90}
				isActive
				fileCounts={new Map([[answer, 2]])}
				onNavigate={() => {}}
				onLabel={() => {}}
				onCancel={() => {}}
				onCheckCode={onCheckCode}
				onRestore={onRestore}
			/>,
			(f) => f.includes("wrote b"),
		);
		unmount = instance.unmount;
		expect(plain(instance.lastFrame())).toContain("±2 files assistant: wrote a");
		await pressAndWaitFor(instance, KEYS.up, (f) => f.includes("❯ • user: write b"));
		await pressAndWaitFor(instance, KEYS.enter, (f) => f.includes(CHECKING_FILES) && f.includes("Esc back"));
		expect(onCheckCode).toHaveBeenCalledTimes(1);
		answerCheck({ kind: "differs", files: 1 });
		await vi.waitFor(() =>
			expect(instance.lastFrame()).toContain(
				"The files at this entry differ from the working tree (1 file). Restore them?",
			),
		);
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Conversation only"));
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Code only"));
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onRestore).toHaveBeenCalledTimes(1));
		expect(onRestore.mock.calls[0]?.[1]).toBe("code");
	});
});
