import { describe, expect, it } from "vitest";
import { IdList } from "../../source/session/id-list.js";

describe("IdList", () => {
	it("reads the ids of a newline-joined text, then ids pushed after it", () => {
		const list = IdList.fromLines("a1\nbb22\nc", 3)!;
		expect(list.length).toBe(3);
		expect([list.get(0), list.get(1), list.get(2)]).toEqual(["a1", "bb22", "c"]);
		list.push("d4");
		expect(list.length).toBe(4);
		expect(list.get(3)).toBe("d4");
		expect(list.slice(4)).toEqual(["a1", "bb22", "c", "d4"]);
		expect(list.lines(4)).toBe("a1\nbb22\nc\nd4");
		expect(list.lines(2)).toBe("a1\nbb22");
	});

	it("compares a row's id without making it: same length and same text only", () => {
		const list = IdList.fromLines("abc\nab\nabcd", 3)!;
		expect(list.is(0, "abc")).toBe(true);
		expect(list.is(0, "ab")).toBe(false);
		expect(list.is(1, "ab")).toBe(true);
		expect(list.is(1, "abc")).toBe(false);
		expect(list.is(2, "abcd")).toBe(true);
		list.push("x");
		expect(list.is(3, "x")).toBe(true);
	});

	it("refuses a text with another number of ids than the cache says", () => {
		expect(IdList.fromLines("a\nb", 3)).toBeUndefined();
		expect(IdList.fromLines("a\nb\nc", 2)).toBeUndefined();
		expect(IdList.fromLines("x", 0)).toBeUndefined();
		expect(IdList.fromLines("", 0)?.length).toBe(0);
		// One empty id is a row too.
		expect(IdList.fromLines("", 1)?.get(0)).toBe("");
	});

	it("an id holding a newline cannot be joined: lines() says so", () => {
		const list = IdList.of(["a", "b\nc"]);
		expect(list.lines(1)).toBe("a");
		expect(list.lines(2)).toBeUndefined();
		expect(list.slice(2)).toEqual(["a", "b\nc"]);
	});
});
