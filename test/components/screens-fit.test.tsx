import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfirmScreen } from "../../components/confirm-screen.js";
import { LockedSessionChoice } from "../../components/locked-session-choice.js";
import { ModelPicker } from "../../components/model-picker/model-picker.js";
import { SearchView } from "../../components/search-view/search-view.js";
import { SessionSelector } from "../../components/session-selector/session-selector.js";
import { TreeView } from "../../components/tree-view/tree-view.js";
import type { SearchHit } from "../../source/index/session-index.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { SessionInfo } from "../../source/session/types.js";
import { KEYS, waitForFrame } from "../helpers/ink.js";
import { frameLines, misfit, renderSizedAndWait, type SizedInstance } from "../helpers/ink-sized.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

// The app gives a screen the terminal's rows less one (a frame as tall as the terminal makes Ink clear it).
const SIZES = [
	{ columns: 40, rows: 12 },
	{ columns: 100, rows: 24 },
] as const;

let instance: SizedInstance | undefined;
afterEach(() => {
	instance?.unmount();
	instance = undefined;
});

/** Waits for a frame where `predicate` holds, then asserts it fits the terminal. */
async function fitting(
	target: SizedInstance,
	columns: number,
	rows: number,
	predicate: (frame: string) => boolean,
): Promise<string[]> {
	const frame = await waitForFrame(target, predicate);
	expect(misfit(target.lastFrame(), columns, rows)).toBeUndefined();
	return frameLines(frame);
}

async function press(target: SizedInstance, key: string, predicate: (frame: string) => boolean): Promise<string> {
	target.stdin.write(key);
	return waitForFrame(target, predicate);
}

/** A 300-entry session with one side branch off the first answer. */
function longSession(): SessionManager {
	const sm = SessionManager.inMemory("/p");
	sm.appendMessage(userMessage("question 0"));
	const first = sm.appendMessage(assistantMessage("answer 0"));
	sm.appendMessage(userMessage("abandoned side question"));
	sm.branch(first);
	for (let i = 1; i < 150; i++) {
		sm.appendMessage(userMessage(`question ${i}`));
		sm.appendMessage(assistantMessage(`answer ${i}`));
	}
	return sm;
}

const has = (text: string) => (frame: string) => frame.includes(text);
const cursorOn = (text: string) => (frame: string) =>
	frame.split("\n").some((line) => line.startsWith("❯") && line.includes(text));

describe.each(SIZES)("screens fit a $columns×$rows terminal", ({ columns, rows }) => {
	it("the tree: title with the filter, markers and the selected row after End, Home and a filter change", async () => {
		const sm = longSession();
		instance = await renderSizedAndWait(
			<TreeView
				tree={sm.getSummaryTree()}
				leafId={sm.getLeafId()}
				height={rows - 1}
				width={columns}
				isActive
				onNavigate={vi.fn()}
				onLabel={vi.fn()}
				onCancel={vi.fn()}
			/>,
			columns,
			rows,
			has("Session tree"),
		);
		let lines = await fitting(instance, columns, rows - 1, cursorOn("answer 149"));
		expect(lines[0]).toContain("Session tree — default");
		expect(lines.some((line) => /▲ \d+ more/.test(line))).toBe(true);

		await press(instance, KEYS.home, cursorOn("question 0"));
		lines = await fitting(instance, columns, rows - 1, cursorOn("question 0"));
		expect(lines[0]).toContain("Session tree — default");
		expect(lines.some((line) => /▼ \d+ more/.test(line))).toBe(true);

		await press(instance, KEYS.end, cursorOn("answer 149"));
		lines = await fitting(instance, columns, rows - 1, cursorOn("answer 149"));
		expect(lines[0]).toContain("Session tree — default");

		await press(instance, KEYS.tab, has("Session tree — no-tools"));
		lines = await fitting(instance, columns, rows - 1, cursorOn("answer 149"));
		expect(lines[0]).toContain("Session tree — no-tools");

		// A search adds a line and the summary question four: the rows give way, the title stays.
		await press(instance, KEYS.home, cursorOn("question 0"));
		await press(instance, "side", has("Search: side"));
		lines = await fitting(instance, columns, rows - 1, (f) => f.includes("Search: side") && cursorOn("side")(f));
		expect(lines[0]).toContain("Session tree — no-tools");
		await press(instance, KEYS.enter, has("Summarize with instructions"));
		lines = await fitting(instance, columns, rows - 1, has("Summarize with instructions"));
		expect(lines[0]).toContain("Session tree — no-tools");
		expect(lines.some((line) => line.startsWith("❯") && line.includes("side question"))).toBe(true);
	});

	it("the session picker: title, markers and the selected row after End and Home", async () => {
		const now = Date.now();
		const sessions: SessionInfo[] = Array.from({ length: 60 }, (_, i) => ({
			id: `id-${i}`,
			path: `/s/session-${i}.jsonl`,
			cwd: "/work/project",
			created: new Date(now - i * 60_000),
			modified: new Date(now - i * 60_000),
			size: 100,
			messageCount: 2,
			firstMessage: `session number ${i} about the parser and its long error messages`,
		}));
		instance = await renderSizedAndWait(
			<SessionSelector
				sessions={sessions}
				loading={false}
				scope="project"
				height={rows - 1}
				width={columns}
				isActive
				onSelect={vi.fn()}
				onCancel={vi.fn()}
				onDelete={vi.fn()}
				onRename={vi.fn()}
				onToggleScope={vi.fn()}
			/>,
			columns,
			rows,
			has("Resume session"),
		);
		const selected = (n: number) => (frame: string) =>
			frame.split("\n").some((line) => line.startsWith("›") && line.includes(`number ${n} `));
		let lines = await fitting(instance, columns, rows - 1, selected(0));
		expect(lines[0]).toContain("Resume session");
		await press(instance, KEYS.end, selected(59));
		lines = await fitting(instance, columns, rows - 1, selected(59));
		expect(lines[0]).toContain("Resume session");
		expect(lines.some((line) => /▲ \d+ more/.test(line))).toBe(true);
		await press(instance, KEYS.home, selected(0));
		lines = await fitting(instance, columns, rows - 1, selected(0));
		expect(lines.some((line) => /▼ \d+ more/.test(line))).toBe(true);
	});

	it("the search screen: title, markers and the selected hit after End and Home", async () => {
		const hits: SearchHit[] = Array.from({ length: 40 }, (_, i) => ({
			sessionPath: `/agent/sessions/s${i}.jsonl`,
			sessionId: `s${i}-0123456789`,
			cwd: "/work/alpha",
			entryId: `e${i}`,
			role: "assistant",
			timestamp: Date.now() - 86_400_000,
			snippet: `match [kafka] number ${i} with a snippet long enough to need cutting at forty columns`,
			compacted: false,
		}));
		instance = await renderSizedAndWait(
			<SearchView
				initialQuery="kafka"
				hits={hits}
				hitsQuery="kafka"
				scope="project"
				searched
				refreshing={false}
				height={rows - 1}
				width={columns}
				isActive
				onQueryChange={vi.fn()}
				onSelect={vi.fn()}
				onCancel={vi.fn()}
				onToggleScope={vi.fn()}
			/>,
			columns,
			rows,
			has("Search —"),
		);
		// The selected hit's snippet follows its "›" line.
		const selected = (n: number) => (frame: string) => {
			const lines = frame.split("\n");
			const at = lines.findIndex((line) => line.startsWith("›  "));
			return at >= 0 && (lines[at + 1] ?? "").includes(`number ${n} `);
		};
		let lines = await fitting(instance, columns, rows - 1, selected(0));
		expect(lines[0]).toContain("Search —");
		await press(instance, KEYS.end, selected(39));
		lines = await fitting(instance, columns, rows - 1, selected(39));
		expect(lines[0]).toContain("Search —");
		expect(lines.some((line) => /▲ \d+ more/.test(line))).toBe(true);
		await press(instance, KEYS.home, selected(0));
		lines = await fitting(instance, columns, rows - 1, selected(0));
		expect(lines.some((line) => /▼ \d+ more/.test(line))).toBe(true);
	});

	it("the share confirmation: title and keys stay with a long list of findings", async () => {
		const details = Array.from({ length: 40 }, (_, i) => `finding ${i}: an API key in entry ${i} of a long session`);
		instance = await renderSizedAndWait(
			<ConfirmScreen
				title="Share this session as a secret gist on github.com? 40 secrets will be redacted first."
				details={details}
				confirmLabel="share"
				detailsLabel="what is redacted"
				onConfirm={vi.fn()}
				onCancel={vi.fn()}
			/>,
			columns,
			rows,
			has("Esc/n cancel"),
		);
		let lines = await fitting(instance, columns, rows - 1, has("Esc/n cancel"));
		expect(lines.join("\n")).toContain("Share this session");
		expect(lines.join("\n")).toContain(
			columns < 60 ? "y share · v details · Esc/n cancel" : "Enter/y share · v view what is redacted · Esc/n cancel",
		);
		await press(instance, "v", has("finding 0"));
		lines = await fitting(instance, columns, rows - 1, (f) => f.includes("finding 0") && f.includes("Esc/n cancel"));
		expect(lines.join("\n")).toContain("Share this session");
		expect(lines.some((line) => /▼ \d+ more/.test(line))).toBe(true);
		expect(lines.join("\n")).toContain(
			columns < 60 ? "y share · v hide · ↑↓ · Esc/n cancel" : "v hide what is redacted · ↑↓ scroll · Esc/n cancel",
		);
		// ↓ scrolls the findings: the first one leaves, the ▲ marker counts it.
		await press(instance, KEYS.down, (f) => !f.includes("finding 0:") && /▲ 1 more/.test(f));
		expect(misfit(instance.lastFrame(), columns, rows - 1)).toBeUndefined();
	});

	it("the model picker: title, markers and the selected model after End and Home", async () => {
		const models = Array.from({ length: 40 }, (_, i) => ({
			ref: `provider-${i}/a-model-with-a-long-name-${i}`,
			name: `A Model With A Long Display Name ${i}`,
			contextWindow: 200_000,
			reasoning: i % 2 === 0,
		}));
		instance = await renderSizedAndWait(
			<ModelPicker
				models={models}
				current="provider-20/a-model-with-a-long-name-20"
				height={rows - 1}
				width={columns}
				onSelect={vi.fn()}
				onCancel={vi.fn()}
			/>,
			columns,
			rows,
			has("Switch model"),
		);
		const selected = (n: number) => (frame: string) =>
			frame.split("\n").some((line) => line.startsWith("›") && line.includes(`provider-${n}/`));
		let lines = await fitting(instance, columns, rows - 1, selected(20));
		expect(lines[0]).toContain("Switch model");
		expect(lines.some((line) => /▲ \d+ more/.test(line))).toBe(true);
		await press(instance, KEYS.end, selected(39));
		lines = await fitting(instance, columns, rows - 1, selected(39));
		expect(lines[0]).toContain("Switch model");
		await press(instance, KEYS.home, selected(0));
		lines = await fitting(instance, columns, rows - 1, selected(0));
		expect(lines.some((line) => /▼ \d+ more/.test(line))).toBe(true);
		expect(lines.at(-1)).toContain("↑↓ move");
	});

	it("the locked-session choice: message and all three choices", async () => {
		const message = `This session is open in another xcsh (pid 4242 on this machine since 10:41): ${"/home/user/projects/a-long-project-name/".repeat(3)}session.jsonl`;
		instance = await renderSizedAndWait(
			<LockedSessionChoice message={message} onChoose={vi.fn()} />,
			columns,
			rows,
			has("Cancel"),
		);
		const lines = await fitting(instance, columns, rows - 1, has("Cancel"));
		const text = lines.join("\n");
		expect(text).toContain("open in another xcsh");
		expect(text).toContain("❯ Fork it");
		expect(text).toContain("Open it read-only");
	});
});
