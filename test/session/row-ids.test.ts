import { describe, expect, it } from "vitest";
import { SkeletonColumns } from "../../source/session/lazy-entry.js";
import { RowIds } from "../../source/session/row-ids.js";

const TIME = "2026-12-03T00:00:00.000Z";

describe("RowIds (the loader's duplicate-id check over skeleton rows)", () => {
	it("finds every id added, and no other, as the table grows past many times its first size", () => {
		const columns = new SkeletonColumns();
		const ids = new RowIds(columns);
		for (let i = 0; i < 20_000; i++) {
			const id = `id-${(i * 7919).toString(36)}`;
			expect(ids.has(id)).toBe(false);
			ids.add(columns.push("custom", id, null, TIME, i, 1, {}), id);
		}
		for (let i = 0; i < 20_000; i += 997) expect(ids.has(`id-${(i * 7919).toString(36)}`)).toBe(true);
		expect(ids.has("id-")).toBe(false);
		expect(ids.has("")).toBe(false);
	});

	it("indexes a resumed skeleton's rows, ids with newlines and non-ASCII text included", () => {
		const columns = new SkeletonColumns();
		for (const [i, id] of ["a\nb", "ü-1", "c"].entries()) columns.push("custom", id, null, TIME, i, 1, {});
		const ids = new RowIds(columns);
		expect(["a\nb", "ü-1", "c"].map((id) => ids.has(id))).toEqual([true, true, true]);
		expect(ids.has("a")).toBe(false);
		expect(ids.has("ü-2")).toBe(false);
	});
});
