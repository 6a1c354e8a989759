import { describe, expect, it } from "vitest";
import { LazyEntry, SkeletonColumns } from "../../source/session/lazy-entry.js";
import { decodeSkeleton, encodeSkeleton, type Skeleton } from "../../source/session/skeleton-cache.js";
import type { SessionHeader } from "../../source/session/types.js";

const HEADER = {
	type: "session",
	version: 3,
	id: "s",
	timestamp: "2026-01-01T00:00:00.000Z",
	cwd: "/p",
} as SessionHeader;
const FILE = { ino: 1, bytes: 100, mtimeMs: 1, headHash: "h", tailHash: "t" };

/** What a skeleton says of each entry, through the public fields. */
function shapes(entries: readonly LazyEntry[]) {
	return entries.map((e) => ({
		type: e.type,
		id: e.id,
		parentId: e.parentId,
		timestamp: e.timestamp,
		offset: e.offset,
		length: e.length,
		facts: e.facts,
	}));
}

/** A view of every row of `columns`, in order. */
function viewsOf(columns: SkeletonColumns): LazyEntry[] {
	return Array.from({ length: columns.size }, (_, i) => new LazyEntry(columns, i));
}

/** A load's rows: a chain, a branch off the first entry, a dangling parent, odd timestamps, an assistant with usage. */
function load(): { columns: SkeletonColumns; entries: LazyEntry[] } {
	const columns = new SkeletonColumns();
	const rows: [string, string, string | null, unknown, Record<string, unknown>][] = [
		["message", "a", null, "2026-03-01T10:00:00.000Z", { role: "user", kind: "user" }],
		["message", "b", "a", "2026-03-01T10:00:01.250Z", { role: "assistant", model: "p/m", kind: "assistant" }],
		["message", "c", "a", "2026-03-01T10:00:02Z", { role: "user", kind: "user" }],
		["custom", "d", "gone", 1234, { kind: "custom" }],
		["label", "e", "d", undefined, {}],
	];
	const entries = rows.map(([type, id, parent, time, facts], i) => {
		const usage = id === "b" ? { usage: { input: 10, output: 5, cacheRead: 2, cost: 0.25 } } : {};
		return new LazyEntry(columns, columns.push(type, id, parent, time as string, i * 100, 99, { ...facts, ...usage }));
	});
	return { columns, entries };
}

describe("SkeletonColumns (a big session's skeleton as columns)", () => {
	it("gives back every field as pushed: parents by row or by id, timestamps exactly as the file wrote them", () => {
		const { entries } = load();
		expect(shapes(entries)).toEqual([
			{
				type: "message",
				id: "a",
				parentId: null,
				timestamp: "2026-03-01T10:00:00.000Z",
				offset: 0,
				length: 99,
				facts: { role: "user", kind: "user" },
			},
			{
				type: "message",
				id: "b",
				parentId: "a",
				timestamp: "2026-03-01T10:00:01.250Z",
				offset: 100,
				length: 99,
				facts: {
					role: "assistant",
					model: "p/m",
					kind: "assistant",
					usage: { input: 10, output: 5, cacheRead: 2, cost: 0.25 },
				},
			},
			// Not canonical ISO text: kept as written, not reprinted with milliseconds.
			{
				type: "message",
				id: "c",
				parentId: "a",
				timestamp: "2026-03-01T10:00:02Z",
				offset: 200,
				length: 99,
				facts: { role: "user", kind: "user" },
			},
			// A damaged file's number where a timestamp belongs stays that number.
			{
				type: "custom",
				id: "d",
				parentId: "gone",
				timestamp: 1234,
				offset: 300,
				length: 99,
				facts: { kind: "custom" },
			},
			{ type: "label", id: "e", parentId: "d", timestamp: undefined, offset: 400, length: 99, facts: {} },
		]);
	});

	it("a cache round trip keeps every field and the pinned context state, parents found by id when not worked out", () => {
		const { columns, entries } = load();
		const label = { type: "label", id: "e", parentId: "d", timestamp: "t", targetId: "a", label: "x" } as const;
		const message = { type: "message", id: "a", parentId: null, timestamp: "t", message: {} } as never;
		entries[4]!.pinned = label as never;
		// Only context state is kept pinned in a cache; a message body is read from the file again.
		entries[0]!.pinned = message;
		const skeleton: Skeleton = { file: FILE, header: HEADER, skipped: [], nextLineNumber: 7, columns };
		const fresh = decodeSkeleton(encodeSkeleton(skeleton))!;
		expect(shapes(viewsOf(fresh.columns))).toEqual(shapes(entries));
		expect(viewsOf(fresh.columns).map((e) => e.parentAt)).toEqual([-1, 0, 0, -1, 3]);
		expect([...fresh.columns.pins()]).toEqual([[4, label]]);
		// What the entry table works out: parents' positions (the dangling one has none).
		[-1, 0, 0, -1, 3].forEach((parent, i) => {
			entries[i]!.parentAt = parent;
		});
		const decoded = decodeSkeleton(encodeSkeleton(skeleton))!;
		expect(shapes(viewsOf(decoded.columns))).toEqual(shapes(entries));
		expect(viewsOf(decoded.columns).map((e) => e.parentAt)).toEqual([-1, 0, 0, -1, 3]);
	});

	it("an offset moves (a rewrite) and a row appended after a decode lands in the same columns", () => {
		const { columns: loaded, entries } = load();
		[-1, 0, 0, -1, 3].forEach((parent, i) => {
			entries[i]!.parentAt = parent;
		});
		const decoded = decodeSkeleton(
			encodeSkeleton({ file: FILE, header: HEADER, skipped: [], nextLineNumber: 7, columns: loaded }),
		)!;
		const { columns } = decoded;
		new LazyEntry(columns, 1).offset = 5_000_000_000;
		expect(new LazyEntry(columns, 1).offset).toBe(5_000_000_000);
		const next = new LazyEntry(columns, columns.push("message", "f", "e", "2026-03-01T11:00:00.000Z", 500, 10, {}));
		expect([next.row, next.parentId, next.timestamp]).toEqual([5, "e", "2026-03-01T11:00:00.000Z"]);
		expect(new LazyEntry(columns, 4).parentId).toBe("d");
	});

	it("a damaged or older cache decodes to nothing (the session is read again), never to wrong entries", () => {
		const { columns } = load();
		const bytes = encodeSkeleton({ file: FILE, header: HEADER, skipped: [], nextLineNumber: 7, columns });
		expect(decodeSkeleton(bytes)).toBeDefined();
		expect(decodeSkeleton(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
		expect(decodeSkeleton(Buffer.concat([bytes, Buffer.from("x")]))).toBeUndefined();
		expect(decodeSkeleton(Buffer.alloc(3))).toBeUndefined();
		const older = Buffer.from(bytes);
		older.writeUInt32LE(4, 0);
		expect(decodeSkeleton(older)).toBeUndefined();
		// More rows with usage than rows: a damaged head.
		const tooMuchUsage = Buffer.from(bytes);
		tooMuchUsage.writeUInt32LE(6, 12);
		expect(decodeSkeleton(tooMuchUsage)).toBeUndefined();
		const badJson = Buffer.from(bytes);
		badJson[badJson.length - 1] = 0x7b;
		expect(decodeSkeleton(badJson)).toBeUndefined();
	});

	it("ids round-trip whatever they hold (a damaged file's id may have a newline), and an empty skeleton too", () => {
		const columns = new SkeletonColumns();
		const odd = new LazyEntry(columns, columns.push("custom", "a\nb", null, "2026-03-01T10:00:00.000Z", 0, 5, {}));
		const plain = new LazyEntry(columns, columns.push("custom", "c", "a\nb", "2026-03-01T10:00:00.000Z", 6, 5, {}));
		odd.parentAt = -1;
		plain.parentAt = 0;
		const skeleton: Skeleton = { file: FILE, header: HEADER, skipped: [], nextLineNumber: 3, columns };
		expect(viewsOf(decodeSkeleton(encodeSkeleton(skeleton))!.columns).map((e) => [e.id, e.parentId])).toEqual([
			["a\nb", null],
			["c", "a\nb"],
		]);
		const empty = { ...skeleton, columns: new SkeletonColumns() };
		expect(decodeSkeleton(encodeSkeleton(empty))!.columns.size).toBe(0);
	});

	it("usage is kept only for the rows that have it, and found again for each, before and after a cache round trip", () => {
		const columns = new SkeletonColumns();
		const usageOf = (i: number) => ({ input: i, output: 2 * i, cacheRead: 3, cost: i / 4 });
		const entries: LazyEntry[] = [];
		for (let i = 0; i < 50; i++) {
			const facts = i % 7 === 3 ? { role: "assistant", usage: usageOf(i) } : { role: "user" };
			entries.push(
				new LazyEntry(
					columns,
					columns.push("message", `e${i}`, i === 0 ? null : `e${i - 1}`, "2026-03-01T10:00:00.000Z", i, 1, facts),
				),
			);
		}
		const expected = entries.map((_, i) => (i % 7 === 3 ? usageOf(i) : undefined));
		expect(entries.map((e) => e.usage)).toEqual(expected);
		entries.forEach((e, i) => {
			e.parentAt = i - 1;
		});
		const decoded = decodeSkeleton(
			encodeSkeleton({ file: FILE, header: HEADER, skipped: [], nextLineNumber: 51, columns }),
		)!;
		expect(viewsOf(decoded.columns).map((e) => e.usage)).toEqual(expected);
		// A row with usage appended after the decode is found too, and the ones before still are.
		const more = decoded.columns;
		const next = new LazyEntry(
			more,
			more.push("message", "e50", "e49", "2026-03-01T10:00:00.000Z", 50, 1, { usage: usageOf(50) }),
		);
		expect(next.usage).toEqual(usageOf(50));
		expect(new LazyEntry(more, 45).usage).toEqual(usageOf(45));
		expect(new LazyEntry(more, 44).usage).toBeUndefined();
	});
});
