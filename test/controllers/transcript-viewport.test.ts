import { describe, expect, it, vi } from "vitest";
import {
	type TranscriptSource,
	TranscriptViewport,
	viewportWindow,
	warmBlocks,
} from "../../controllers/transcript-viewport.js";

/** Blocks named b0, b1… whose rows read "b<block>.<row>"; counts which blocks were asked for rows. */
function blocks(sizes: readonly number[]): TranscriptSource & { touched: Set<number> } {
	const touched = new Set<number>();
	return {
		touched,
		length: sizes.length,
		key: (index) => `b${index}`,
		rows: (index) => {
			touched.add(index);
			return Array.from({ length: sizes[index] ?? 0 }, (_, row) => `b${index}.${row}`);
		},
	};
}

function scrolledView(source: TranscriptSource, height: number): TranscriptViewport {
	const view = new TranscriptViewport();
	view.attach(source, height);
	return view;
}

describe("viewportWindow", () => {
	it("follows the end: the last rows, nothing below", () => {
		const source = blocks([3, 2, 4]);
		expect(viewportWindow(source, undefined, 4)).toEqual({
			rows: ["b2.0", "b2.1", "b2.2", "b2.3"],
			below: 0,
			belowExact: true,
		});
	});

	it("shows every row of a short transcript", () => {
		expect(viewportWindow(blocks([1, 1]), undefined, 10).rows).toEqual(["b0.0", "b1.0"]);
	});

	it("only computes the rows of the blocks on screen", () => {
		const source = blocks(Array.from({ length: 100_000 }, () => 3));
		viewportWindow(source, undefined, 7);
		expect([...source.touched].sort((a, b) => a - b)).toEqual([99_997, 99_998, 99_999]);
	});

	it("skips blocks without rows", () => {
		expect(viewportWindow(blocks([2, 0, 0, 1]), undefined, 3).rows).toEqual(["b0.0", "b0.1", "b3.0"]);
	});
});

describe("TranscriptViewport", () => {
	it("scrolls up a page, keeps a row for the marker and counts the rows below", () => {
		const source = blocks([10, 10, 10]);
		const view = scrolledView(source, 5);
		view.page(-1);
		const window = viewportWindow(source, view.getSnapshot().anchor, 5);
		expect(window.rows).toEqual(["b2.2", "b2.3", "b2.4", "b2.5"]);
		expect(window.below).toBe(4);
		expect(window.belowExact).toBe(true);
	});

	it("scrolls a line at a time across blocks", () => {
		const source = blocks([2, 2]);
		const view = scrolledView(source, 2);
		view.scrollBy(-2);
		expect(view.getSnapshot().anchor).toMatchObject({ key: "b0", row: 1 });
		expect(viewportWindow(source, view.getSnapshot().anchor, 2)).toMatchObject({ rows: ["b0.1"], below: 2 });
	});

	it("stops at the first page: the first row stays on screen", () => {
		const source = blocks([3, 3, 3]);
		const view = scrolledView(source, 4);
		view.scrollBy(-1000);
		const window = viewportWindow(source, view.getSnapshot().anchor, 4);
		expect(window.rows).toEqual(["b0.0", "b0.1", "b0.2"]);
		expect(window.below).toBe(6);
	});

	it("goes back to following the end when scrolled down past it", () => {
		const source = blocks([10, 10]);
		const view = scrolledView(source, 5);
		view.page(-2);
		expect(view.scrolled).toBe(true);
		view.page(1);
		view.page(1);
		expect(view.scrolled).toBe(false);
		expect(view.getSnapshot().anchor).toBeUndefined();
	});

	it("does not move when output arrives below while scrolled up", () => {
		const view = scrolledView(blocks([10, 10]), 5);
		view.page(-1);
		const anchor = view.getSnapshot().anchor;
		const grown = blocks([10, 10, 50, 50]);
		const window = viewportWindow(grown, anchor, 5);
		expect(window.rows).toEqual(["b1.2", "b1.3", "b1.4", "b1.5"]);
		expect(window.below).toBe(104);
	});

	it("keeps its block when rows change (resize, Ctrl+O) and clamps the row", () => {
		const view = scrolledView(blocks([20, 20]), 5);
		view.scrollBy(-22);
		expect(view.getSnapshot().anchor).toMatchObject({ key: "b0", row: 17 });
		const narrower = blocks([30, 30]);
		expect(viewportWindow(narrower, view.getSnapshot().anchor, 5).rows.at(-1)).toBe("b0.17");
		const shorter = blocks([5, 30]);
		expect(viewportWindow(shorter, view.getSnapshot().anchor, 5).rows).toEqual(["b0.1", "b0.2", "b0.3", "b0.4"]);
	});

	it("follows the end again when its block is gone (the history was rebuilt)", () => {
		const view = scrolledView(blocks([10, 10]), 5);
		view.page(-1);
		const rebuilt: TranscriptSource = { length: 1, key: () => "new", rows: () => ["x", "y"] };
		expect(viewportWindow(rebuilt, view.getSnapshot().anchor, 5)).toEqual({
			rows: ["x", "y"],
			below: 0,
			belowExact: true,
		});
	});

	it("stops counting rows below after a budget of blocks and says so", () => {
		const source = blocks(Array.from({ length: 5_000 }, () => 2));
		const view = scrolledView(source, 10);
		view.scrollBy(-5_000);
		source.touched.clear();
		const window = viewportWindow(source, view.getSnapshot().anchor, 10);
		expect(window.belowExact).toBe(false);
		expect(window.below).toBeGreaterThan(0);
		expect(source.touched.size).toBeLessThan(1_000);
	});

	it("does nothing on an empty transcript and tells listeners of every move", () => {
		const view = scrolledView(blocks([]), 5);
		view.page(-1);
		expect(view.scrolled).toBe(false);
		const calls: number[] = [];
		const full = scrolledView(blocks([30]), 5);
		full.subscribe(() => calls.push(1));
		full.page(-1);
		full.toBottom();
		full.toBottom();
		expect(calls).toHaveLength(2);
	});
});

describe("warming the rows around the window", () => {
	it("computes the blocks of the pages above the window, nearest first, then a page below", () => {
		const source = blocks(Array.from({ length: 100 }, () => 3));
		const view = scrolledView(source, 6);
		view.scrollBy(-30);
		const anchor = view.getSnapshot().anchor;
		expect(anchor).toMatchObject({ index: 89, row: 2 });
		source.touched.clear();
		const warmed = [...warmBlocks(source, anchor, 6, 2)];
		// 18 rows (the window and two pages) above the anchor's row: blocks 89 down to 84; then 6 rows below
		expect(warmed).toEqual([89, 88, 87, 86, 85, 84, 83, 90, 91]);
		// and nothing else but the last block (where the end is)
		expect([...source.touched].sort((a, b) => a - b)).toEqual([83, 84, 85, 86, 87, 88, 89, 90, 91, 99]);
	});

	it("computes the rows above the end in the background after a draw, so PgUp finds them ready", async () => {
		const source = blocks(Array.from({ length: 1000 }, () => 3));
		new TranscriptViewport().attach(source, 6);
		await vi.waitFor(() => expect(source.touched.has(1000 - 7)).toBe(true));
		expect(source.touched.has(1000 - 20)).toBe(false);
	});
});
