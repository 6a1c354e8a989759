import { describe, expect, it } from "vitest";
import { initialModelPickerState, modelPickerReducer } from "../../components/model-picker/model-picker-state.js";
import { initialSearchViewState, searchViewReducer } from "../../components/search-view/use-search-view-state.js";
import {
	initialSessionSelectorState,
	sessionSelectorReducer,
} from "../../components/session-selector/use-session-selector-state.js";
import type { SearchHit } from "../../source/index/session-index.js";
import type { SessionInfo } from "../../source/session/types.js";

function session(i: number, title?: string): SessionInfo {
	return {
		id: `id-${i}`,
		path: `/s/${i}.jsonl`,
		cwd: "/work",
		created: new Date(1_000_000 - i),
		modified: new Date(1_000_000 - i),
		size: 1,
		messageCount: 2,
		firstMessage: `message ${i}`,
		...(title === undefined ? {} : { title }),
	};
}

function hit(i: number): SearchHit {
	const base = { sessionPath: `/s/${i}.jsonl`, sessionId: `id-${i}`, cwd: "/work", entryId: `e${i}` };
	return { ...base, role: "user", timestamp: i, snippet: `[word] ${i}`, compacted: false };
}

describe("the session picker's reducer", () => {
	const sessions = Array.from({ length: 6 }, (_, i) => session(i, i === 2 ? "Named" : undefined));

	it("asks before deleting the selected session and renames it in place", () => {
		let state = initialSessionSelectorState(sessions, 3);
		state = sessionSelectorReducer(state, { type: "list", move: { type: "move", delta: 2 } });
		expect(sessionSelectorReducer(state, { type: "askDelete" }).mode).toEqual({
			kind: "confirmDelete",
			path: "/s/2.jsonl",
			label: "Named",
		});
		state = sessionSelectorReducer(state, { type: "startRename" });
		state = sessionSelectorReducer(state, { type: "renameEdit", edit: { type: "erase" } });
		state = sessionSelectorReducer(state, { type: "renameEdit", edit: { type: "type", text: "ly" } });
		expect(state.mode).toEqual({ kind: "rename", path: "/s/2.jsonl", text: "Namely" });
		expect(sessionSelectorReducer(state, { type: "endMode" }).mode).toEqual({ kind: "browse" });
	});

	it("a reload keeps the selected session; a filter starts at its best match", () => {
		let state = initialSessionSelectorState(sessions, 3);
		state = sessionSelectorReducer(state, { type: "list", move: { type: "last" } });
		state = sessionSelectorReducer(state, { type: "sync", all: [session(9), ...sessions], height: 3 });
		expect(state.list.items[state.list.selected]?.path).toBe("/s/5.jsonl");
		state = sessionSelectorReducer(state, { type: "filter", edit: { type: "type", text: "message" } });
		expect(state.list.selected).toBe(0);
	});
});

describe("the search screen's reducer", () => {
	const hits = [hit(1), hit(2), hit(3), hit(4)];

	it("new hits for the same query keep the selected hit; a new query starts at the best", () => {
		let state = initialSearchViewState("word", hits, "word", 2);
		state = searchViewReducer(state, { type: "list", move: { type: "move", delta: 2 } });
		state = searchViewReducer(state, { type: "sync", hits: [hit(0), ...hits], query: "word", rows: 2 });
		expect(state.list.items[state.list.selected]).toEqual(hit(3));
		state = searchViewReducer(state, { type: "sync", hits: [hit(0), ...hits], query: "word2", rows: 2 });
		expect(state.list.selected).toBe(0);
	});

	it("edits the query line without moving the selection", () => {
		let state = initialSearchViewState("wor", hits, "wor", 2);
		state = searchViewReducer(state, { type: "list", move: { type: "last" } });
		state = searchViewReducer(state, { type: "type", text: "d\t!" });
		state = searchViewReducer(state, { type: "edit", edit: "backspace" });
		expect(state.buffer.lines).toEqual(["word "]);
		expect(state.list.selected).toBe(3);
	});
});

describe("the model picker's reducer", () => {
	const models = ["anthropic/claude", "openai/gpt-5", "local/qwen"].map((ref) => ({
		ref,
		name: ref,
		contextWindow: 0,
		reasoning: false,
	}));

	it("opens on the current model and filters by every word", () => {
		let state = initialModelPickerState(models, "local/qwen", 2);
		expect(state.list.selected).toBe(2);
		state = modelPickerReducer(state, { type: "filter", edit: { type: "type", text: "open gpt" } });
		expect(state.list.items.map((m) => m.ref)).toEqual(["openai/gpt-5"]);
	});
});
