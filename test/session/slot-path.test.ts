import { describe, expect, it } from "vitest";
import { EntryTable } from "../../source/session/entry-table.js";
import { SkeletonColumns } from "../../source/session/lazy-entry.js";
import { SlotPath } from "../../source/session/slot-path.js";
import type { StoredEntry } from "../../source/session/types.js";

const TIME = "2026-12-03T00:00:00.000Z";

function entry(type: string, id: string, parentId: string | null): StoredEntry {
	return { type, id, parentId, timestamp: TIME } as StoredEntry;
}

/** A table of `rows` skeleton rows in a chain (e0 → e1 → …), the rows in `pins` pinned as labels. */
function chain(rows: number, pins: number[] = []): { table: EntryTable; columns: SkeletonColumns } {
	const columns = new SkeletonColumns();
	for (let i = 0; i < rows; i++) columns.push("message", `e${i}`, i === 0 ? null : `e${i - 1}`, TIME, i * 10, 9, {});
	for (const row of pins) columns.setPinned(row, entry("label", `e${row}`, row === 0 ? null : `e${row - 1}`));
	return { table: new EntryTable(columns), columns };
}

const idsOf = (path: SlotPath): string[] => [...path].map((slot) => slot.id);

describe("SlotPath", () => {
	it("two appends to the same path never see each other's entry (the shared buffer is written once)", () => {
		const { table } = chain(3);
		const base = table.path(2);
		const first = table.push(entry("message", "a", "e2"), 2);
		const second = table.push(entry("message", "b", "e2"), 2);
		const withA = base.with(first);
		const withB = base.with(second);
		const withAThenC = withA.with(table.push(entry("message", "c", "a"), first));
		expect(idsOf(base)).toEqual(["e0", "e1", "e2"]);
		expect(idsOf(withA)).toEqual(["e0", "e1", "e2", "a"]);
		expect(idsOf(withB)).toEqual(["e0", "e1", "e2", "b"]);
		expect(idsOf(withAThenC)).toEqual(["e0", "e1", "e2", "a", "c"]);
		// Many appends in a row share one growing buffer and stay right.
		let path = withAThenC;
		let parent = "c";
		for (let i = 0; i < 50; i++) {
			const id = `n${i}`;
			path = path.with(table.push(entry("message", id, parent), table.position(parent)!));
			parent = id;
		}
		expect(path.length).toBe(55);
		expect(path.at(-1)?.id).toBe("n49");
		expect(idsOf(withA)).toEqual(["e0", "e1", "e2", "a"]);
	});

	it("finds the entries kept in memory in path order without a view per row, added entries included", () => {
		const { table } = chain(6, [4, 1]);
		const at = table.push(entry("custom", "x", "e5"), 5);
		const path = table.path(at);
		expect(path.residents().map((e) => `${e.type}:${e.id}`)).toEqual(["label:e1", "label:e4", "custom:x"]);
		expect(path.resident(1)?.id).toBe("e1");
		expect(path.resident(2)).toBeUndefined();
		expect(path.type(6)).toBe("custom");
		expect(path.some((slot) => slot.id === "e3")).toBe(true);
		expect(path.map((slot, i) => `${i}${slot.id}`).slice(0, 2)).toEqual(["0e0", "1e1"]);
		expect(path.at(7)).toBeUndefined();
	});

	it("views a whole table in insertion order, and grows with it", () => {
		const { table } = chain(4);
		expect(idsOf(SlotPath.all(table))).toEqual(["e0", "e1", "e2", "e3"]);
		table.push(entry("message", "late", "e1"), 1);
		const all = SlotPath.all(table);
		expect(all.length).toBe(5);
		expect(all.at(4)?.id).toBe("late");
	});
});
