import { describe, expect, it } from "vitest";
import { EntryTable, NO_POSITION } from "../../source/session/entry-table.js";
import { LazyEntry, SkeletonColumns, standaloneSkeleton } from "../../source/session/lazy-entry.js";
import type { StoredEntry } from "../../source/session/types.js";

function entry(id: string, parentId: string | null): StoredEntry {
	return { type: "custom", id, parentId, timestamp: "2026-12-02T00:00:00.000Z" } as StoredEntry;
}

function ids(slots: Iterable<{ id: string }>): string[] {
	return [...slots].map((slot) => slot.id);
}

describe("EntryTable", () => {
	it("walks paths over branches, parents defined later and parents missing from the file", () => {
		const table = new EntryTable([
			entry("a", null),
			entry("b", "a"),
			entry("c", "a"),
			entry("d", "f"), // its parent comes later in the file
			entry("e", "gone"), // its parent is not in the file: the path starts there
			entry("f", "c"),
		]);
		expect(ids(table.path(1))).toEqual(["a", "b"]);
		expect(ids(table.path(3))).toEqual(["a", "c", "f", "d"]);
		expect(ids(table.path(4))).toEqual(["e"]);
		expect(table.position("f")).toBe(5);
		expect(table.position("nope")).toBeUndefined();
	});

	it("stops a parent cycle of a damaged file at the first entry seen twice", () => {
		const table = new EntryTable([entry("a", "c"), entry("b", "a"), entry("c", "b"), entry("d", "c")]);
		expect(ids(table.path(3))).toEqual(["a", "b", "c", "d"]);
		expect(ids(table.path(0))).toEqual(["b", "c", "a"]);
	});

	it("takes a cached skeleton's parent positions without looking ids up", () => {
		const root = standaloneSkeleton("message", "r", null, "t", 0, 10);
		root.parentAt = NO_POSITION;
		// An id lookup would find no "elsewhere": the path reaches the root only through the cached position.
		const child = standaloneSkeleton("message", "c", "elsewhere", "t", 11, 10);
		child.parentAt = 0;
		const table = new EntryTable([root, child]);
		expect(ids(table.path(1))).toEqual(["r", "c"]);
	});

	it("takes a skeleton's rows as its first entries, views made on demand, and entries added after them", () => {
		const columns = new SkeletonColumns();
		columns.push("message", "r", null, "2026-12-02T00:00:00.000Z", 0, 10, {});
		columns.push("message", "c", "r", "2026-12-02T00:00:00.000Z", 11, 10, {});
		columns.push("message", "x", "r", "2026-12-02T00:00:00.000Z", 22, 10, {});
		const table = new EntryTable(columns);
		expect(table.size).toBe(3);
		expect(ids(table.path(2))).toEqual(["r", "x"]);
		// Worked out once and remembered in the columns (a cache written now needs no id map).
		expect(columns.parentAt(2)).toBe(0);
		expect(table.slot(1)).toBeInstanceOf(LazyEntry);
		expect(table.slot(1)).not.toBe(table.slot(1));
		expect(table.hasId(1, "c")).toBe(true);
		const at = table.push(entry("late", "c"), 1);
		expect(at).toBe(3);
		expect(ids(table.path(at))).toEqual(["r", "c", "late"]);
		expect(table.position("late")).toBe(3);
		expect(table.position("x")).toBe(2);
		expect(ids(table.slots())).toEqual(["r", "c", "x", "late"]);
	});

	it("grows past its first capacity as entries are appended", () => {
		const table = new EntryTable([entry("e0", null)]);
		for (let i = 1; i < 100; i++) table.push(entry(`e${i}`, `e${i - 1}`), i - 1);
		expect(table.size).toBe(100);
		expect(table.path(99)).toHaveLength(100);
		expect(table.position("e42")).toBe(42);
		table.push(entry("late", "e42"), 42);
		expect(ids(table.path(100)).slice(-2)).toEqual(["e42", "late"]);
		expect(table.position("late")).toBe(100);
	});
});
