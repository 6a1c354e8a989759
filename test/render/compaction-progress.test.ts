import { describe, expect, it } from "vitest";
import { describeCompaction } from "../../source/render/compaction-progress.js";

describe("describeCompaction", () => {
	it("says what a compaction is doing and that Escape stops it", () => {
		expect(describeCompaction("Compacting the context", undefined)).toBe("Compacting the context · Esc stops");
		expect(describeCompaction("Compacting the context", { kind: "reading", read: 120e6, total: 610e6 })).toBe(
			"Compacting the context · 120 of 610 MB read · Esc stops",
		);
		expect(describeCompaction("Summarising", { kind: "summarising", piece: 2, pieces: 8 })).toBe(
			"Summarising · summarising part 2 of 8 · Esc stops",
		);
	});
});
