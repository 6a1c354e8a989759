import { describe, expect, it } from "vitest";
import { LazyEntry, SkeletonColumns, standaloneSkeleton } from "../../source/session/lazy-entry.js";
import { SessionLineParser } from "../../source/session/session-lines.js";
import type { SessionHeader } from "../../source/session/types.js";

const HEADER: SessionHeader = {
	type: "session",
	version: 3,
	id: "s",
	timestamp: "2026-01-01T00:00:00.000Z",
	cwd: "/p",
};

/** Resumes from `entries` and reads one appended custom entry (`id` under `parentId`) at line `number`. */
function resumeAndAppend(entries: readonly LazyEntry[], id: string, parentId: string, number: number) {
	const parser = SessionLineParser.resume(HEADER, entries, []);
	const text = JSON.stringify({ type: "custom", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", customType: "x" });
	parser.push({ number, offset: number * 10, length: text.length, text });
	return parser.finish(false);
}

describe("SessionLineParser.resume", () => {
	it("goes on from a cached skeleton of 600,000 entries (a 5 GB session's worth)", () => {
		const columns = new SkeletonColumns();
		const entries = Array.from({ length: 600_000 }, (_, i) => {
			const row = columns.push(
				"message",
				`e${i}`,
				i === 0 ? null : `e${i - 1}`,
				"2026-01-01T00:00:00.000Z",
				i * 10,
				9,
				{},
			);
			return new LazyEntry(columns, row);
		});
		const read = resumeAndAppend(entries, "next", "e599999", 600_002);
		expect(read.kind === "ok" && read.entries.length).toBe(600_001);
	});

	it("still refuses an appended line whose id the cached skeleton already has", () => {
		const entries = ["a", "b"].map((id, i) =>
			standaloneSkeleton("custom", id, null, "2026-01-01T00:00:00.000Z", i * 10, 9),
		);
		const read = resumeAndAppend(entries, "b", "a", 4);
		expect(read.kind === "ok" && read.skipped).toEqual([{ line: 4, message: "duplicate entry id b" }]);
		expect(read.kind === "ok" && read.entries.length).toBe(2);
	});
});
