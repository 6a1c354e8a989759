import { afterEach, describe, expect, it, vi } from "vitest";
import { diffLineStyle, diffScrollReducer } from "../../components/diff-view/diff-scroll.js";
import { DIFF_FOOTER, DiffView } from "../../components/diff-view/diff-view.js";
import {
	NO_PROMPTS,
	REWIND_CHOICE_FOOTER,
	REWIND_CHOICE_TITLE,
	REWIND_LIST_FOOTER,
	REWIND_TITLE,
	RewindView,
} from "../../components/rewind-view/rewind-view.js";
import { initRewindView, rewindViewReducer } from "../../components/rewind-view/rewind-view-state.js";
import type { PathPrompt } from "../../source/checkpoints/session-rewind.js";
import { KEYS, pressAndWaitFor, renderAndWait } from "../helpers/ink.js";

const at = new Date().toISOString();
const PROMPTS: PathPrompt[] = [
	{ entryId: "u3", text: "third prompt", timestamp: at },
	{ entryId: "u2", text: "second prompt", timestamp: at },
	{ entryId: "u1", text: "first prompt", timestamp: at },
];

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

describe("the /rewind screen's reducer", () => {
	it("Enter on a prompt offers the three choices; each decides a restore mode; Esc goes back, then closes", () => {
		const start = initRewindView(PROMPTS, 5);
		const down = rewindViewReducer(start, { type: "key", action: "down" });
		const choice = rewindViewReducer(down, { type: "key", action: "submit" });
		expect(choice.mode).toBe("choice");
		const modes = [0, 1, 2].map((n) => {
			let state = choice;
			for (let i = 0; i < n; i++) state = rewindViewReducer(state, { type: "key", action: "down" });
			return rewindViewReducer(state, { type: "key", action: "submit" }).outcome;
		});
		expect(modes).toEqual([
			{ type: "rewind", entryId: "u2", mode: "both" },
			{ type: "rewind", entryId: "u2", mode: "conversation" },
			{ type: "rewind", entryId: "u2", mode: "code" },
		]);
		const back = rewindViewReducer(choice, { type: "key", action: "cancel" });
		expect(back.mode).toBe("list");
		const closed = rewindViewReducer(back, { type: "key", action: "cancel" });
		expect(closed.outcome).toEqual({ type: "cancel" });
		// One decision: a key after it in the same read changes nothing.
		expect(rewindViewReducer(closed, { type: "key", action: "down" })).toBe(closed);
		// No prompts: Enter has nothing to choose.
		const empty = initRewindView([], 5);
		expect(rewindViewReducer(empty, { type: "key", action: "submit" })).toBe(empty);
	});
});

describe("the /rewind screen", () => {
	it("lists the prompts newest first, then asks what to bring back", async () => {
		const onRewind = vi.fn();
		const instance = await renderAndWait(
			<RewindView prompts={PROMPTS} height={14} width={80} onRewind={onRewind} onCancel={() => {}} />,
			(f) => f.includes("third prompt") && f.includes(REWIND_LIST_FOOTER),
		);
		unmount = instance.unmount;
		const frame = instance.lastFrame() ?? "";
		expect(frame).toContain(REWIND_TITLE);
		expect(frame.indexOf("third prompt")).toBeLessThan(frame.indexOf("first prompt"));
		await pressAndWaitFor(
			instance,
			KEYS.enter,
			(f) => f.includes(REWIND_CHOICE_TITLE) && f.includes(REWIND_CHOICE_FOOTER),
		);
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Conversation only"));
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onRewind).toHaveBeenCalledWith("u3", "conversation"));
	});

	it("says when the path has no prompt yet", async () => {
		const instance = await renderAndWait(
			<RewindView prompts={[]} height={10} width={80} onRewind={() => {}} onCancel={() => {}} />,
			(f) => f.includes(NO_PROMPTS),
		);
		unmount = instance.unmount;
	});
});

describe("the diff screen", () => {
	const lines = ["diff --git a/a.txt b/a.txt", "@@ -1 +1 @@", ...Array.from({ length: 30 }, (_, i) => `+line ${i}`)];

	it("scrolls by line, page and the ends, within the diff", () => {
		let scroll = { start: 0, count: 32, rows: 10 };
		scroll = diffScrollReducer(scroll, { type: "key", action: "pageDown" });
		expect(scroll.start).toBe(10);
		scroll = diffScrollReducer(scroll, { type: "key", action: "end" });
		expect(scroll.start).toBe(22);
		expect(diffScrollReducer(scroll, { type: "key", action: "down" })).toBe(scroll);
		scroll = diffScrollReducer(scroll, { type: "key", action: "up" });
		expect(scroll.start).toBe(21);
		expect(diffScrollReducer(scroll, { type: "key", action: "home" }).start).toBe(0);
		expect(diffScrollReducer(scroll, { type: "resize", rows: 30 }).start).toBe(2);
		expect(["diff --git a b", "@@ -1 @@", "+x", "-y", " z"].map(diffLineStyle)).toEqual([
			"header",
			"hunk",
			"added",
			"removed",
			"plain",
		]);
	});

	it("shows the lines in a window with ▼ more, scrolls with PgDn, and closes on Esc", async () => {
		const onClose = vi.fn();
		const instance = await renderAndWait(
			<DiffView title="Files" lines={lines} height={12} width={80} onClose={onClose} />,
			(f) => f.includes("+line 0") && f.includes(DIFF_FOOTER),
		);
		unmount = instance.unmount;
		expect(instance.lastFrame()).toContain("▼ 24 more");
		await pressAndWaitFor(
			instance,
			KEYS.pageDown,
			(f) => f.includes("+line 13") && f.includes("▲ 8 more") && f.includes("▼ 16 more"),
		);
		instance.stdin.write(KEYS.escape);
		await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
	});
});
