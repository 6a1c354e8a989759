import { describe, expect, it } from "vitest";
import { SkeletonColumns } from "../../source/session/lazy-entry.js";
import { scanLines } from "../../source/session/line-scan.js";
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

describe("a lazy read of long lines handed over as bytes (skimmed)", () => {
	const long = (unit: string) => unit.repeat(Math.ceil(3000 / unit.length));
	const at = (n: number) => `2026-01-01T00:00:0${n}.000Z`;
	const lines = [
		JSON.stringify(HEADER),
		JSON.stringify({
			type: "message",
			id: "u",
			parentId: null,
			timestamp: at(1),
			message: { role: "user", content: long("question ") },
		}),
		JSON.stringify({
			type: "message",
			id: "a",
			parentId: "u",
			timestamp: at(2),
			message: {
				role: "assistant",
				content: [
					{ type: "text", text: long(" \n") },
					{ type: "toolCall", id: "c", name: "bash", arguments: { command: long("ls ") } },
				],
				provider: "anthropic",
				model: "claude",
				usage: { input: 1, output: 2, cacheRead: 3, cost: { total: 4 } },
			},
		}),
		JSON.stringify({
			type: "model_change",
			id: "m",
			parentId: "a",
			timestamp: at(3),
			model: long("m"),
			note: long("n"),
		}),
		`{"type":"message","id":"bad","parentId":"m","timestamp":"${at(4)}","message":{"role":"user","content":"${long("x")}\t"}}`,
		JSON.stringify([long("not an object ")]),
		JSON.stringify({ type: "custom", id: "u", parentId: "m", timestamp: at(5), data: long("dup ") }),
		JSON.stringify({ id: "notype", parentId: "m", timestamp: at(6), data: long("z") }),
		JSON.stringify({ type: "message", id: "nomessage", parentId: "m", timestamp: at(7), data: long("z") }),
		JSON.stringify({
			type: "message",
			id: "t",
			parentId: "m",
			timestamp: "odd",
			message: { role: "toolResult", content: [{ type: "text", text: long("out") }] },
		}),
	];

	async function read(rawAbove?: number) {
		const bytes = Buffer.from(`${lines.join("\n")}\n`);
		const parser = new SessionLineParser({ lazy: true });
		let raw = 0;
		await scanLines(
			async (position, length) => bytes.subarray(position, position + length),
			bytes.length,
			(line) => {
				if (line.raw) raw++;
				parser.push(line);
			},
			{ rawAbove },
		);
		const result = parser.finish(false);
		if (result.kind !== "ok" || !(result.entries instanceof SkeletonColumns)) throw new Error("no skeleton");
		const columns = result.entries;
		const rows = Array.from({ length: columns.size }, (_, row) => ({
			type: columns.type(row),
			id: columns.id(row),
			parentId: columns.parentId(row),
			timestamp: columns.timestamp(row),
			offset: columns.offset(row),
			length: columns.length(row),
			facts: columns.facts(row),
			pinned: columns.pinned(row),
		}));
		return { rows, skipped: result.skipped, raw };
	}

	it("makes the rows, pinned bodies and skipped lines (with their messages) of a read that decodes every line", async () => {
		const decoded = await read();
		const skimmed = await read(1024);
		expect(decoded.raw).toBe(0);
		expect(skimmed.raw).toBe(lines.length - 1);
		expect(skimmed.rows).toEqual(decoded.rows);
		expect(skimmed.skipped).toEqual(decoded.skipped);
		expect(decoded.rows.map((row) => row.facts.kind)).toEqual(["user", "toolCall", "model", "toolResult"]);
		expect(decoded.rows[2]!.pinned).toMatchObject({ type: "model_change", model: long("m") });
		expect(decoded.skipped.map((line) => line.line)).toEqual([5, 6, 7, 8, 9]);
	});
});
