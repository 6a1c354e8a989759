import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionSelector, type SessionSelectorProps } from "../../components/session-selector/session-selector.js";
import type { SessionInfo } from "../../source/session/types.js";
import { KEYS, plain, pressAndWaitFor, renderAndWait, waitForFrame } from "../helpers/ink.js";

const TOPICS = ["parser", "deploy", "docs", "tests", "refactor"] as const;
const HOUR = 3_600_000;

function pad(i: number): string {
	return String(i).padStart(2, "0");
}

/** 30 sessions, newest first: `message NN about <topic>`, an hour apart, in two projects. */
function fakeSessions(count = 30): SessionInfo[] {
	const now = Date.now();
	return Array.from({ length: count }, (_, i) => {
		const info: SessionInfo = {
			id: `id-${pad(i)}`,
			path: `/s/session-${pad(i)}.jsonl`,
			cwd: `/work/project-${i % 2}`,
			created: new Date(now - (i + 1) * HOUR),
			modified: new Date(now - (i + 1) * HOUR),
			size: 100,
			messageCount: i + 2,
			firstMessage: `message ${pad(i)} about ${TOPICS[i % TOPICS.length]}`,
		};
		if (i === 3) info.title = "Named session";
		return info;
	});
}

function setup(overrides: Partial<SessionSelectorProps> = {}) {
	const props: SessionSelectorProps = {
		sessions: fakeSessions(),
		loading: false,
		scope: "project",
		height: 10,
		width: 100,
		isActive: true,
		onSelect: vi.fn(),
		onCancel: vi.fn(),
		onDelete: vi.fn(),
		onRename: vi.fn(),
		onToggleScope: vi.fn(),
		...overrides,
	};
	return props;
}

/** The row carrying the selection marker. */
function selectedRow(frame: string): string {
	return frame.split("\n").find((line) => line.startsWith("›")) ?? "";
}

function rowCount(frame: string): number {
	return frame.split("\n").filter((line) => /^[› ] [● ] \S/.test(line)).length;
}

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

async function show(props: SessionSelectorProps, ready: (frame: string) => boolean = (f) => f.includes("Filter:")) {
	const instance = await renderAndWait(<SessionSelector {...props} />, ready);
	unmount = instance.unmount;
	return instance;
}

describe("SessionSelector", () => {
	it("renders the title, filter, visible rows only, markers and the key help", async () => {
		const props = setup({ currentSessionFile: "/s/session-01.jsonl" });
		// Rows appear once the key handler is subscribed (the frame before has only the chrome).
		const ui = await show(props, (f) => f.includes("message 00"));
		const frame = plain(ui.lastFrame());
		expect(frame).toContain("Resume session — this project (Tab: all projects)");
		expect(frame).toContain("Filter: type to search");
		expect(frame).toContain("▼ 26 more");
		expect(frame).not.toContain("▲");
		expect(rowCount(frame)).toBe(4);
		expect(frame).not.toContain("message 04");
		expect(selectedRow(frame)).toContain("message 00 about parser");
		expect(selectedRow(frame)).toContain("1 h ago");
		expect(selectedRow(frame)).toContain("2 msg");
		expect(frame).not.toContain("/work/project-0");
		expect(frame.split("\n").find((line) => line.includes("message 01"))).toMatch(/^ {2}● message 01/);
		// a session's name wins over its first message
		expect(frame).toContain("Named session");
		expect(frame).not.toContain("message 03");
		expect(frame).toContain("↑↓ PgUp/PgDn move · Enter resume · Tab scope · Ctrl+D delete · Ctrl+R rename · Esc close");
		expect(frame.split("\n")).toHaveLength(10);
	});

	it("moves the selection with ↑/↓, PgUp/PgDn, Home and End, keeping the window centred", async () => {
		const ui = await show(setup());
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("message 01"));
		await pressAndWaitFor(ui, KEYS.up, (f) => selectedRow(f).includes("message 00"));
		// ↑ on the first row stays there (it does not wrap): the next ↓ lands on the second row.
		ui.stdin.write(KEYS.up);
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("message 01"));
		await pressAndWaitFor(ui, KEYS.up, (f) => selectedRow(f).includes("message 00"));
		let frame = await pressAndWaitFor(ui, KEYS.pageDown, (f) => selectedRow(f).includes("message 04"));
		expect(frame).toContain("▲ 2 more");
		expect(frame).toContain("▼ 24 more");
		expect(rowCount(frame)).toBe(4);
		frame = await pressAndWaitFor(ui, KEYS.end, (f) => selectedRow(f).includes("message 29"));
		expect(frame).toContain("▲ 26 more");
		expect(frame).not.toContain("▼");
		frame = await pressAndWaitFor(ui, KEYS.pageUp, (f) => selectedRow(f).includes("message 25"));
		frame = await pressAndWaitFor(ui, KEYS.home, (f) => selectedRow(f).includes("message 00"));
		expect(frame).not.toContain("▲");
		expect(frame).toContain("▼ 26 more");
	});

	it("filters fuzzily as you type and says when nothing matches", async () => {
		const ui = await show(setup());
		let frame = await pressAndWaitFor(ui, "dply", (f) => f.includes("Filter: dply"));
		expect(selectedRow(frame)).toContain("message 01 about deploy");
		expect(frame).toContain("message 06 about deploy");
		expect(frame).toContain("▼ 2 more");
		expect(frame).not.toContain("parser");
		frame = await pressAndWaitFor(ui, "zz", (f) => f.includes('No sessions match "dplyzz"'));
		expect(rowCount(frame)).toBe(0);
		await pressAndWaitFor(ui, KEYS.backspace, (f) => f.includes('No sessions match "dplyz"'));
		await pressAndWaitFor(ui, KEYS.backspace, (f) => f.includes("message 01 about deploy"));
	});

	it("clears the filter on the first Escape and cancels on the second", async () => {
		const props = setup();
		const ui = await show(props);
		await pressAndWaitFor(ui, "docs", (f) => f.includes("Filter: docs"));
		await pressAndWaitFor(ui, KEYS.escape, (f) => f.includes("Filter: type to search"));
		expect(props.onCancel).not.toHaveBeenCalled();
		ui.stdin.write(KEYS.escape);
		await vi.waitFor(() => expect(props.onCancel).toHaveBeenCalledTimes(1));
	});

	it("resumes the selected session on Enter and asks to switch scope on Tab", async () => {
		const props = setup();
		const ui = await show(props);
		await pressAndWaitFor(ui, "tests", (f) => selectedRow(f).includes("message 03") || f.includes("Filter: tests"));
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("message 08 about tests"));
		ui.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(props.onSelect).toHaveBeenCalledWith("/s/session-08.jsonl"));
		ui.stdin.write(KEYS.tab);
		await vi.waitFor(() => expect(props.onToggleScope).toHaveBeenCalledTimes(1));
	});

	it("deletes after Ctrl+D and y, and keeps the session after n", async () => {
		const props = setup();
		const ui = await show(props);
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("message 01"));
		let frame = await pressAndWaitFor(ui, KEYS.ctrlD, (f) => f.includes('Delete "message 01 about deploy"? (y/n)'));
		expect(frame).toContain("y delete · n keep");
		frame = await pressAndWaitFor(ui, "n", (f) => !f.includes("(y/n)"));
		expect(props.onDelete).not.toHaveBeenCalled();
		expect(frame).toContain("Filter: type to search");
		await pressAndWaitFor(ui, KEYS.ctrlD, (f) => f.includes("(y/n)"));
		await pressAndWaitFor(ui, "y", (f) => !f.includes("(y/n)"));
		expect(props.onDelete).toHaveBeenCalledWith("/s/session-01.jsonl");
		expect(props.onDelete).toHaveBeenCalledTimes(1);
	});

	it("tells forks apart: a session whose header names a parent shows (fork) after its name", async () => {
		const sessions = fakeSessions(6);
		const original = sessions[3]!;
		sessions.push({ ...original, id: "id-fork", path: "/s/fork.jsonl", parentSession: original.id });
		sessions[1] = { ...sessions[1]!, parentSession: "id-gone" };
		const ui = await show(setup({ sessions, height: 12 }), (f) => f.includes("message 00"));
		const rows = plain(ui.lastFrame()).split("\n");
		expect(rows.filter((row) => /Named session\s/.test(row))).toHaveLength(2);
		expect(rows.filter((row) => row.includes("Named session (fork)"))).toHaveLength(1);
		expect(rows.find((row) => row.includes("message 01"))).toContain("message 01 about deploy (fork)");
		expect(rows.find((row) => row.includes("message 02"))).not.toContain("(fork)");
	});

	it("tells forks apart on a narrow screen too: the name is clipped, not the mark", async () => {
		const sessions = fakeSessions(3).map((s) => ({ ...s, parentSession: "id-parent" }));
		const ui = await show(setup({ sessions, width: 40, height: 12 }), (f) => f.includes("message 00"));
		const row = plain(ui.lastFrame())
			.split("\n")
			.find((line) => line.includes("message 00"));
		expect(row).toMatch(/message 00 .*… \(fork\)/);
		expect(row!.length).toBeLessThanOrEqual(40);
	});

	it("renames inline with Ctrl+R or Ctrl+N; Enter saves, Escape cancels", async () => {
		const props = setup();
		const ui = await show(props);
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("message 01"));
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("message 02"));
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("Named session"));
		let frame = await pressAndWaitFor(ui, KEYS.ctrlR, (f) => f.includes("Rename: Named session▌"));
		expect(frame).toContain("Enter save · Esc cancel");
		await pressAndWaitFor(ui, KEYS.backspace, (f) => f.includes("Rename: Named sessio▌"));
		await pressAndWaitFor(ui, "n v2", (f) => f.includes("Rename: Named session v2▌"));
		frame = await pressAndWaitFor(ui, KEYS.enter, (f) => !f.includes("Rename:"));
		expect(props.onRename).toHaveBeenCalledWith("/s/session-03.jsonl", "Named session v2");

		await pressAndWaitFor(ui, KEYS.ctrlN, (f) => f.includes("Rename: Named session▌"));
		await pressAndWaitFor(ui, "!!", (f) => f.includes("Rename: Named session!!▌"));
		await pressAndWaitFor(ui, KEYS.escape, (f) => !f.includes("Rename:"));
		expect(props.onRename).toHaveBeenCalledTimes(1);
		expect(props.onCancel).not.toHaveBeenCalled();
	});

	it("shows the loading state, the empty state, the notice and the error", async () => {
		const loading = await show(setup({ sessions: [], loading: true }), (f) => f.includes("Loading sessions…"));
		loading.rerender(<SessionSelector {...setup({ sessions: fakeSessions(), loading: true })} />);
		await waitForFrame(loading, (f) => f.includes("Resume session — this project (Tab: all projects) (loading…)"));
		loading.rerender(<SessionSelector {...setup({ sessions: [], loading: true, progress: "1,234 of 10,000" })} />);
		await waitForFrame(loading, (f) => f.includes("Indexing sessions… 1,234 of 10,000"));
		loading.rerender(
			<SessionSelector {...setup({ sessions: fakeSessions(), loading: true, progress: "9,000 of 10,000" })} />,
		);
		await waitForFrame(loading, (f) => f.includes("(Tab: all projects) (indexing 9,000 of 10,000…)"));
		loading.rerender(<SessionSelector {...setup({ sessions: [] })} />);
		await waitForFrame(loading, (f) => f.includes("No sessions yet") && !f.includes("Loading"));
		loading.rerender(
			<SessionSelector {...setup({ notice: "Switch to another session before deleting the open one" })} />,
		);
		await waitForFrame(loading, (f) => f.includes("Switch to another session before deleting the open one"));
		loading.rerender(<SessionSelector {...setup({ notice: "ignored", error: "disk on fire" })} />);
		const frame = await waitForFrame(loading, (f) => f.includes("disk on fire"));
		expect(frame).not.toContain("ignored");
	});

	it("shows each session's project directory across all projects", async () => {
		const ui = await show(setup({ scope: "all" }), (f) => f.includes("/work/project-1"));
		const frame = plain(ui.lastFrame());
		expect(frame).toContain("Resume session — all projects (Tab: this project)");
		expect(selectedRow(frame)).toContain("/work/project-0");
		expect(frame).toContain("/work/project-1");
	});

	it("keeps a space between the project and a time as wide as its column (a date, 10 min ago)", async () => {
		const old = new Date("2026-02-10T12:00:00.000Z");
		const sessions = fakeSessions(2).map((s, i) => ({
			...s,
			modified: i === 0 ? old : new Date(Date.now() - 10 * 60_000),
		}));
		const ui = await show(setup({ scope: "all", sessions }), (f) => f.includes("2026-02-10"));
		const frame = plain(ui.lastFrame());
		expect(frame).toMatch(/\/work\/project-0 +2026-02-10/);
		expect(frame).toMatch(/\/work\/project-1 +10 min ago/);
	});

	it("keeps the selection on the same session when the list reloads", async () => {
		const props = setup();
		const ui = await show(props);
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("message 01"));
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(f).includes("message 02"));
		const withoutFirst = fakeSessions().slice(1);
		ui.rerender(<SessionSelector {...props} sessions={withoutFirst} />);
		let frame = await waitForFrame(ui, (f) => !f.includes("message 00"));
		expect(selectedRow(frame)).toContain("message 02");
		// the selected session itself is gone (deleted): the selection stays at the same spot
		ui.rerender(<SessionSelector {...props} sessions={withoutFirst.filter((s) => s.id !== "id-02")} />);
		frame = await waitForFrame(ui, (f) => !f.includes("message 02"));
		expect(selectedRow(frame)).toContain("Named session");
	});
});
