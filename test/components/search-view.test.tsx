import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SearchScreen } from "../../components/search-view/search-screen.js";
import { SearchView, type SearchViewProps, snippetParts } from "../../components/search-view/search-view.js";
import { TreeView } from "../../components/tree-view/tree-view.js";
import { SearchController } from "../../controllers/search-controller.js";
import type { SearchHit } from "../../source/index/session-index.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { KEYS, plain, pressAndWaitFor, renderAndWait, waitForFrame } from "../helpers/ink.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const PROJECT_TITLE = "Search — this project (Tab: all projects)";
const ALL_TITLE = "Search — all projects (Tab: this project)";
const FOOTER = "↑↓ PgUp/PgDn move · Enter open · Tab scope · role:user since:7d until:2026-11-01 filter · Esc back";

function hit(n: number, overrides: Partial<SearchHit> = {}): SearchHit {
	return {
		sessionPath: `/agent/sessions/s${n}.jsonl`,
		sessionId: `s${String(n).padStart(2, "0")}-0123456789`,
		cwd: "/work/alpha",
		entryId: `e${n}`,
		role: "assistant",
		timestamp: Date.now() - 3 * 86_400_000,
		snippet: `match [kafka] number ${n}`,
		compacted: false,
		...overrides,
	};
}

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

async function show(props: Partial<SearchViewProps> = {}, ready = (f: string) => f.includes("Search —")) {
	const spies = { onQueryChange: vi.fn(), onSelect: vi.fn(), onCancel: vi.fn(), onToggleScope: vi.fn() };
	const instance = await renderAndWait(
		<SearchView
			initialQuery="kafka"
			hits={[]}
			hitsQuery="kafka"
			scope="project"
			searched
			refreshing={false}
			height={20}
			width={100}
			isActive
			{...spies}
			{...props}
		/>,
		ready,
	);
	unmount = instance.unmount;
	return { instance, ...spies };
}

function selectedLine(frame: string): string {
	return frame.split("\n").find((line) => line.startsWith("›  ") || line.startsWith("› ●")) ?? "";
}

describe("SearchView", () => {
	it("shows each hit: session title (or short id), project, when, role, compacted, and the snippet", async () => {
		const hits = [
			hit(1, { title: "Kafka tuning", role: "user" }),
			hit(2, { compacted: true, role: "toolResult", cwd: "/work/beta" }),
		];
		const { instance } = await show({ hits, currentSessionFile: hits[1]!.sessionPath });
		const lines = plain(instance.lastFrame()).split("\n");
		expect(lines.slice(0, 4)).toEqual([PROJECT_TITLE, "› kafka", "2 matches", ""]);
		expect(lines[4]).toBe("›   Kafka tuning · alpha · 3 d ago · user");
		expect(lines[5]).toBe("    match kafka number 1");
		expect(lines[6]).toBe("  ● s02-0123 · beta · 3 d ago · tool · compacted");
		expect(lines[7]).toBe("    match kafka number 2");
		expect(lines.at(-1)).toBe(FOOTER);
		expect(lines).toHaveLength(20);
	});

	it("marks the matched terms: the snippet's [ ] become highlighted parts", () => {
		expect(snippetParts("the [kafka] lag of [Kafka] consumers")).toEqual([
			{ text: "the ", match: false },
			{ text: "kafka", match: true },
			{ text: " lag of ", match: false },
			{ text: "Kafka", match: true },
			{ text: " consumers", match: false },
		]);
		expect(snippetParts("[a]")).toEqual([{ text: "a", match: true }]);
		expect(snippetParts("no marks [] here")).toEqual([{ text: "no marks [] here", match: false }]);
	});

	it("empty states, one match, the index catching up, all projects, errors", async () => {
		const typed = await show({ searched: false, initialQuery: "", hitsQuery: "" });
		expect(plain(typed.instance.lastFrame())).toContain("Type to search every session");
		typed.instance.unmount();
		const none = await show({ refreshing: true, scope: "all" });
		const frame = plain(none.instance.lastFrame());
		expect(frame).toContain(`${ALL_TITLE} (updating the index…)`);
		expect(frame).toContain("0 matches");
		expect(frame).toContain("No matches");
		none.instance.unmount();
		const one = await show({ hits: [hit(1)] });
		expect(plain(one.instance.lastFrame())).toContain("1 match\n");
		one.instance.unmount();
		const bad = await show({ searched: false, filterError: 'role: takes user, assistant or tool (got "x")' });
		const badFrame = plain(bad.instance.lastFrame());
		expect(badFrame).toContain('role: takes user, assistant or tool (got "x")');
		expect(badFrame).not.toContain("Type to search");
		bad.instance.unmount();
		const broken = await show({ searched: false, error: "Search index unavailable: disk on fire" });
		expect(plain(broken.instance.lastFrame())).toContain("Search index unavailable: disk on fire");
	});

	it("edits the query line and reports every change", async () => {
		const { instance, onQueryChange } = await show();
		const reported = (query: string) => vi.waitFor(() => expect(onQueryChange).toHaveBeenLastCalledWith(query));
		await pressAndWaitFor(instance, " lag", (f) => f.includes("› kafka lag"));
		await reported("kafka lag");
		await pressAndWaitFor(instance, KEYS.backspace, (f) => f.includes("› kafka la\n"));
		await reported("kafka la");
		// ← only moves the cursor: the X typed next lands before the last letter.
		instance.stdin.write(KEYS.left);
		await pressAndWaitFor(instance, "X", (f) => f.includes("› kafka lXa"));
		// Ctrl+A changes nothing visible: the text typed next lands at the start.
		instance.stdin.write("\x01");
		await pressAndWaitFor(instance, "role:user ", (f) => f.includes("› role:user kafka lXa"));
		await reported("role:user kafka lXa");
		await pressAndWaitFor(instance, "\x15", (f) => f.split("\n")[1]?.trimEnd() === "›");
		await reported("");
	});

	it("moves with ↑/↓ and PgUp/PgDn in a window with ▲/▼; Enter opens, Tab toggles, Esc leaves", async () => {
		const hits = Array.from({ length: 12 }, (_, i) => hit(i));
		// 14 lines: 8 for hits, 4 hits of 2 lines each
		const { instance, onSelect, onToggleScope, onCancel } = await show({ hits, height: 14 });
		let frame = plain(instance.lastFrame());
		expect(frame).toContain("▼ 8 more");
		expect(selectedLine(frame)).toContain("s00-0123");
		await pressAndWaitFor(instance, KEYS.down, (f) => selectedLine(f).includes("s01-0123"));
		frame = await pressAndWaitFor(instance, KEYS.pageDown, (f) => selectedLine(f).includes("s05-0123"));
		expect(frame).toContain("▲ 3 more");
		expect(frame).toContain("▼ 5 more");
		await pressAndWaitFor(instance, KEYS.end, (f) => selectedLine(f).includes("s11-0123"));
		await pressAndWaitFor(instance, KEYS.pageUp, (f) => selectedLine(f).includes("s07-0123"));
		await pressAndWaitFor(instance, KEYS.up, (f) => selectedLine(f).includes("s06-0123"));
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onSelect).toHaveBeenCalledWith(hits[6]));
		instance.stdin.write(KEYS.tab);
		await vi.waitFor(() => expect(onToggleScope).toHaveBeenCalledTimes(1));
		await pressAndWaitFor(instance, KEYS.home, (f) => selectedLine(f).includes("s00-0123"));
		instance.stdin.write(KEYS.escape);
		await vi.waitFor(() => expect(onCancel).toHaveBeenCalledTimes(1));
	});

	it("new results for the same query keep the selected hit; a new query starts at the best one", async () => {
		const hits = [hit(1), hit(2), hit(3)];
		const spies = { onQueryChange: vi.fn(), onSelect: vi.fn(), onCancel: vi.fn(), onToggleScope: vi.fn() };
		const element = (list: SearchHit[], query: string) => (
			<SearchView
				initialQuery="kafka"
				hits={list}
				hitsQuery={query}
				scope="project"
				searched
				refreshing={false}
				height={20}
				width={100}
				isActive
				{...spies}
			/>
		);
		const instance = await renderAndWait(element(hits, "kafka"), (f) => f.includes("s01-0123"));
		unmount = instance.unmount;
		await pressAndWaitFor(instance, KEYS.down, (f) => selectedLine(f).includes("s02-0123"));
		instance.rerender(element([hit(0), ...hits], "kafka"));
		await waitForFrame(instance, (f) => f.includes("s00-0123") && selectedLine(f).includes("s02-0123"));
		instance.rerender(element([hit(3), hit(2)], "kafka x"));
		await waitForFrame(instance, (f) => selectedLine(f).includes("s03-0123"));
	});
});

describe("SearchScreen over a real index", () => {
	const temp = useTempAgentDir();

	it("answers the prefilled query and follows what is typed", async () => {
		const cwd = join(temp.root, "alpha");
		const sm = await SessionManager.create(cwd);
		sm.appendMessage(userMessage("tune the kafka consumer"));
		sm.appendMessage(assistantMessage("the zookeeper is fine"));
		await sm.close();
		const controller = new SearchController({
			cwd,
			session: () => {
				throw new Error("not opened in this test");
			},
			resume: async () => "failed",
		});
		try {
			await controller.open("kafka");
			const instance = await renderAndWait(
				<SearchScreen controller={controller} height={20} width={100} onSelect={vi.fn()} onCancel={vi.fn()} />,
				(f) => f.includes("tune the kafka consumer"),
			);
			unmount = instance.unmount;
			await pressAndWaitFor(instance, "\x15", (f) => f.includes("Type to search every session"));
			const frame = await pressAndWaitFor(instance, "zoo", (f) => f.includes("the zookeeper is fine"));
			expect(frame).not.toContain("kafka consumer");
			await pressAndWaitFor(instance, " role:user", (f) => f.includes("No matches"));
			await pressAndWaitFor(instance, "x", (f) => f.includes('role: takes user, assistant or tool (got "userx")'));
		} finally {
			await controller.dispose();
		}
	});
});

describe("the tree view's initial selection", () => {
	function branched() {
		const sm = SessionManager.inMemory("/p");
		sm.appendMessage(userMessage("hello"));
		const a1 = sm.appendMessage(assistantMessage("hi there"));
		sm.appendMessage(userMessage("first question"));
		const a2 = sm.appendMessage(assistantMessage("first answer"));
		sm.branch(a1);
		sm.appendMessage(userMessage("second question"));
		sm.appendMessage(assistantMessage("second answer"));
		const model = sm.appendModelChange("anthropic/claude");
		return { sm, a2, model };
	}

	async function tree(sm: SessionManager, initialSelectedId: string | undefined, onNavigate = vi.fn()) {
		const instance = await renderAndWait(
			<TreeView
				tree={sm.getSummaryTree()}
				leafId={sm.getLeafId()}
				height={12}
				width={80}
				isActive
				initialSelectedId={initialSelectedId}
				onNavigate={onNavigate}
				onLabel={vi.fn()}
				onCancel={vi.fn()}
			/>,
			(f) => f.includes("Session tree"),
		);
		unmount = instance.unmount;
		return instance;
	}

	const cursor = (frame: string) => frame.split("\n").find((line) => line.startsWith("❯ ")) ?? "";

	it("opens on the given entry of another branch; Enter there asks about a summary", async () => {
		const { sm, a2 } = branched();
		const instance = await tree(sm, a2);
		const frame = plain(instance.lastFrame());
		expect(cursor(frame)).toContain("assistant: first answer");
		expect(frame).toContain("Session tree — default");
		await pressAndWaitFor(instance, KEYS.enter, (f) => f.includes("Leaving the current branch. Summarize it?"));
	});

	it("an entry the default filter hides opens under the all filter; an unknown id falls back to the leaf", async () => {
		const { sm, model } = branched();
		const hidden = await tree(sm, model);
		expect(plain(hidden.lastFrame())).toContain("Session tree — all");
		expect(cursor(plain(hidden.lastFrame()))).toContain("[model] anthropic/claude");
		hidden.unmount();
		const unknown = await tree(sm, "nope");
		const frame = plain(unknown.lastFrame());
		expect(frame).toContain("Session tree — default");
		expect(cursor(frame)).toContain("assistant: second answer");
	});
});
