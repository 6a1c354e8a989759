import { describe, expect, it } from "vitest";
import { SkeletonColumns } from "../../source/session/lazy-entry.js";
import { SessionLineParser } from "../../source/session/session-lines.js";
import type { SessionHeader } from "../../source/session/types.js";

const HEADER: SessionHeader = {
	type: "session",
	version: 3,
	id: "s",
	timestamp: "2026-01-01T00:00:00.000Z",
	cwd: "/p",
};

/** Resumes from `columns` and reads one appended custom entry (`id` under `parentId`) at line `number`. */
/** Rows of a skeleton, as read entries. */
function rowsOf(read: ReturnType<SessionLineParser["finish"]>): number | undefined {
	return read.kind === "ok" && read.entries instanceof SkeletonColumns ? read.entries.size : undefined;
}

function resumeAndAppend(columns: SkeletonColumns, id: string, parentId: string, number: number) {
	const parser = SessionLineParser.resume(HEADER, columns, []);
	const text = JSON.stringify({ type: "custom", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", customType: "x" });
	parser.push({ number, offset: number * 10, length: text.length, text });
	return parser.finish(false);
}

describe("SessionLineParser.resume", () => {
	it("goes on from a cached skeleton of 600,000 entries (a 5 GB session's worth)", () => {
		const columns = new SkeletonColumns();
		for (let i = 0; i < 600_000; i++)
			columns.push("message", `e${i}`, i === 0 ? null : `e${i - 1}`, "2026-01-01T00:00:00.000Z", i * 10, 9, {});
		const read = resumeAndAppend(columns, "next", "e599999", 600_002);
		expect(rowsOf(read)).toBe(600_001);
		expect(columns.id(600_000)).toBe("next");
	});

	it("still refuses an appended line whose id the cached skeleton already has", () => {
		const columns = new SkeletonColumns();
		for (const [i, id] of ["a", "b"].entries())
			columns.push("custom", id, null, "2026-01-01T00:00:00.000Z", i * 10, 9, {});
		const read = resumeAndAppend(columns, "b", "a", 4);
		expect(read.kind === "ok" && read.skipped).toEqual([{ line: 4, message: "duplicate entry id b" }]);
		expect(rowsOf(read)).toBe(2);
	});
});
