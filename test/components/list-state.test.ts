import { describe, expect, it } from "vitest";
import { filterListReducer, initialFilterList } from "../../components/list/filter-list.js";
import { editFilter, filterEditFor, listMoveFor, typedText } from "../../components/list/list-keys.js";
import { initialListState, type ListState, listReducer, listView } from "../../components/list/list-state.js";
import { listWindow, moreMarker, windowStartFor } from "../../components/list/list-window.js";

const letters = (count: number) => Array.from({ length: count }, (_, i) => String.fromCharCode(97 + (i % 26)) + i);

function list(count: number, height: number, selected = 0): ListState<string> {
	return initialListState(letters(count), height, selected);
}

describe("windowStartFor", () => {
	it("shows the whole list from the top when it fits", () => {
		expect(windowStartFor(4, 5, 10)).toBe(0);
		expect(windowStartFor(0, 0, 3)).toBe(0);
	});

	it("centres the selection and stays inside the list", () => {
		expect(windowStartFor(0, 100, 10)).toBe(0);
		expect(windowStartFor(50, 100, 10)).toBe(45);
		expect(windowStartFor(99, 100, 10)).toBe(90);
		// a zero or fractional height is one row
		expect(windowStartFor(7, 100, 0)).toBe(7);
		expect(windowStartFor(7, 100, 1.9)).toBe(7);
	});

	it("the window and its markers", () => {
		expect(listWindow(45, 100, 10)).toEqual({ start: 45, end: 55, above: 45, below: 45 });
		expect(moreMarker("above", 3)).toBe("▲ 3 more");
		expect(moreMarker("below", 0)).toBe(" ");
	});
});

describe("listReducer", () => {
	it("moves a row at a time and stops at both ends", () => {
		let state = list(5, 3);
		state = listReducer(state, { type: "move", delta: 1 });
		expect(state.selected).toBe(1);
		state = listReducer(state, { type: "move", delta: 10 });
		expect(state.selected).toBe(4);
		expect(state.windowStart).toBe(2);
		const top = listReducer(list(5, 3), { type: "move", delta: -1 });
		expect(top.selected).toBe(0);
	});

	it("returns the same state when the selection cannot move (a render is skipped)", () => {
		const state = list(5, 3);
		expect(listReducer(state, { type: "move", delta: -1 })).toBe(state);
		expect(listReducer(state, { type: "first" })).toBe(state);
	});

	it("wraps around when asked", () => {
		const state = list(3, 3);
		expect(listReducer(state, { type: "move", delta: -1, wrap: true }).selected).toBe(2);
		expect(listReducer(list(3, 3, 2), { type: "move", delta: 1, wrap: true }).selected).toBe(0);
	});

	it("pages by the height and jumps to the ends", () => {
		let state = list(100, 10);
		state = listReducer(state, { type: "page", direction: 1 });
		expect(state.selected).toBe(10);
		expect(state.windowStart).toBe(5);
		state = listReducer(state, { type: "last" });
		expect(state).toMatchObject({ selected: 99, windowStart: 90 });
		state = listReducer(state, { type: "page", direction: -1 });
		expect(state.selected).toBe(89);
		state = listReducer(state, { type: "first" });
		expect(state).toMatchObject({ selected: 0, windowStart: 0 });
	});

	it("an empty list selects 0 whatever the key", () => {
		for (const move of [{ type: "last" }, { type: "page", direction: 1 }, { type: "move", delta: 3 }] as const) {
			expect(listReducer(list(0, 4), move)).toMatchObject({ selected: 0, windowStart: 0 });
		}
		expect(listView(list(0, 4)).focused).toBeUndefined();
	});

	it("a reload keeps the selection on the same key, wherever it moved", () => {
		const state = list(10, 4, 6);
		const items = ["new", ...state.items];
		const next = listReducer(state, { type: "reload", items, keyOf: (s) => s, fallback: 0 });
		expect(next.items[next.selected]).toBe(state.items[6]);
		expect(next.selected).toBe(7);
	});

	it("a reload without the selected key goes to the fallback, clamped into the new list", () => {
		const state = list(10, 4, 6);
		const gone = state.items.filter((_, i) => i !== 6);
		expect(listReducer(state, { type: "reload", items: gone, keyOf: (s) => s, fallback: 6 }).selected).toBe(6);
		expect(listReducer(state, { type: "reload", items: gone.slice(0, 3), keyOf: (s) => s, fallback: 6 }).selected).toBe(
			2,
		);
		// without a key the selection does not follow its item
		expect(listReducer(state, { type: "reload", items: ["x", ...state.items], fallback: 0 }).selected).toBe(0);
	});

	it("a new height recentres the window on the selection", () => {
		const state = list(100, 10, 50);
		expect(state.windowStart).toBe(45);
		const next = listReducer(state, { type: "resize", height: 4 });
		expect(next).toMatchObject({ height: 4, selected: 50, windowStart: 48 });
		expect(listReducer(next, { type: "resize", height: 0 }).height).toBe(1);
	});

	it("the view shows the window's items and what is hidden each side", () => {
		const view = listView(list(20, 5, 10));
		expect(view).toMatchObject({ focused: "k10", selected: 10, windowStart: 8, hiddenAbove: 8, hiddenBelow: 7 });
		expect(view.visibleItems).toEqual(["i8", "j9", "k10", "l11", "m12"]);
	});
});

describe("the list keys", () => {
	it("map keymap actions to moves, and nothing else", () => {
		expect(listMoveFor("up")).toEqual({ type: "move", delta: -1, wrap: false });
		expect(listMoveFor("down", true)).toEqual({ type: "move", delta: 1, wrap: true });
		expect(listMoveFor("pageDown")).toEqual({ type: "page", direction: 1 });
		expect(listMoveFor("home")).toEqual({ type: "first" });
		expect(listMoveFor("end")).toEqual({ type: "last" });
		expect(listMoveFor("submit")).toBeUndefined();
		expect(listMoveFor(undefined)).toBeUndefined();
	});

	it("edit a filter line: text typed, Backspace or Delete erases a character, Ctrl+U clears", () => {
		expect(filterEditFor(undefined, "a\tb", {})).toEqual({ type: "type", text: "a b" });
		expect(filterEditFor(undefined, "x", { ctrl: true })).toBeUndefined();
		expect(filterEditFor("delete", "", {})).toEqual({ type: "erase" });
		expect(filterEditFor("killLine", "u", { ctrl: true })).toEqual({ type: "clear" });
		expect(filterEditFor("submit", "\r", {})).toBeUndefined();
		expect(editFilter("añ👍", { type: "erase" })).toBe("añ");
		expect(editFilter("ab", { type: "clear" })).toBe("");
		expect(typedText("a\x07b", {})).toBe("ab");
	});
});

describe("filterListReducer", () => {
	const rules = {
		match: (all: readonly string[], filter: string) => all.filter((item) => item.includes(filter)),
		keyOf: (item: string) => item,
	};
	const reducer = filterListReducer<string, ReturnType<typeof initialFilterList<string>>>(rules);
	const all = ["apple", "banana", "cherry", "grape", "pear"];

	it("a new filter starts at its first match; Escape's clear shows everything again", () => {
		let state = reducer(initialFilterList(rules, all, 3, 4), { type: "filter", edit: { type: "type", text: "a" } });
		expect(state.filter).toBe("a");
		expect(state.list.items).toEqual(["apple", "banana", "grape", "pear"]);
		expect(state.list.selected).toBe(0);
		state = reducer(state, { type: "list", move: { type: "last" } });
		state = reducer(state, { type: "filter", edit: { type: "clear" } });
		expect(state.list.items).toEqual(all);
		expect(state.list.selected).toBe(0);
	});

	it("a reload with the same filter keeps the selected item", () => {
		let state = reducer(initialFilterList(rules, all, 3), { type: "list", move: { type: "move", delta: 2 } });
		expect(state.list.items[state.list.selected]).toBe("cherry");
		state = reducer(state, { type: "sync", all: ["avocado", ...all], height: 3 });
		expect(state.list.items[state.list.selected]).toBe("cherry");
		// the same items and height change nothing
		expect(reducer(state, { type: "sync", all: state.all, height: 3 })).toBe(state);
	});
});
