/**
 * Malformed session files for property tests (test/doctor/fuzz.test.ts, bench/soak.ts): a header that
 * may be wrong, lines that may be torn, random bytes, NUL runs, invalid UTF-8, duplicate ids, parent
 * cycles, deep orphan chains and huge lines, with or without a final newline.
 */
import fc from "fast-check";

/** Fixed, so a failure replays exactly (the suite runs 300 cases, bench/soak.ts 10,000 of the same stream). */
export const FUZZ_SEED = 20_261_201;

const TS = "2026-02-16T10:21:00.000Z";
/** A small id pool, so duplicates, cycles and dangling parents happen by themselves. */
const ID_POOL = ["a", "b", "c", "d", "e", "f", "g"];
const HASH = "0123456789abcdef".repeat(4);
const INVALID_UTF8: readonly number[][] = [[0xff], [0xc3, 0x28], [0x80], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80]];

/** A generated file and what went into it (for a readable counterexample). */
export interface MalformedFile {
	bytes: Buffer;
	header: string;
	extras: string;
	lines: number;
}

const idArb = fc.constantFrom(...ID_POOL);
const parentArb = fc.oneof(
	{ weight: 3, arbitrary: fc.constant<unknown>(null) },
	{ weight: 6, arbitrary: idArb },
	{ weight: 1, arbitrary: fc.constant("not-in-file") },
	{ weight: 1, arbitrary: fc.constant(7) },
);

const blockArb = fc.oneof(
	fc.record({ type: fc.constant("text"), text: fc.string({ maxLength: 20 }) }),
	fc.record({
		type: fc.constant("image"),
		data: fc.constantFrom(`blob:sha256:${HASH}`, "iVBORw0KGgo=", "blob:sha256:zz"),
		mimeType: fc.constant("image/png"),
	}),
);

/** Entry-shaped objects; `message` entries always carry a message (see the known-bug test for the rest). */
const entryArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
	fc.record({
		type: fc.constant("custom"),
		id: idArb,
		parentId: parentArb,
		timestamp: fc.constant(TS),
		customType: fc.constant("fuzz"),
		data: fc.jsonValue({ maxDepth: 2 }),
	}),
	fc.record({
		type: fc.constant("message"),
		id: idArb,
		parentId: parentArb,
		timestamp: fc.constant(TS),
		message: fc.record({
			role: fc.constantFrom("user", "assistant", "toolResult", "hookMessage"),
			content: fc.oneof(fc.string({ maxLength: 30 }), fc.array(blockArb, { maxLength: 3 })),
			timestamp: fc.nat(),
		}),
	}),
	fc.record({
		type: fc.constant("label"),
		id: idArb,
		parentId: parentArb,
		timestamp: fc.constant(TS),
		targetId: idArb,
		label: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
	}),
	fc.record(
		{
			type: fc.constantFrom("model_change", "thinking_level_change", "compaction", "some_future_kind"),
			id: idArb,
			parentId: parentArb,
			timestamp: fc.constant(TS),
			model: fc.constant("anthropic/claude-sonnet-4-5"),
		},
		{ requiredKeys: ["type", "timestamp"] },
	),
);

/** Inserts bytes that are not UTF-8 inside the timestamp string: the line stays JSON. */
function withInvalidUtf8(entry: Record<string, unknown>, bad: readonly number[]): Buffer {
	const text = JSON.stringify(entry);
	const at = text.indexOf('"timestamp":"');
	if (at < 0) return Buffer.concat([Buffer.from(bad), Buffer.from(text)]);
	const cut = at + '"timestamp":"'.length;
	return Buffer.concat([Buffer.from(text.slice(0, cut)), Buffer.from(bad), Buffer.from(text.slice(cut))]);
}

const lineArb: fc.Arbitrary<Buffer> = fc.oneof(
	{ weight: 12, arbitrary: entryArb.map((e) => Buffer.from(JSON.stringify(e))) },
	{
		weight: 2,
		arbitrary: fc.tuple(entryArb, fc.double({ min: 0, max: 1, noNaN: true })).map(([e, f]) => {
			const text = JSON.stringify(e);
			return Buffer.from(text.slice(0, Math.floor(text.length * f)));
		}),
	},
	{ weight: 1, arbitrary: fc.uint8Array({ maxLength: 80 }).map((b) => Buffer.from(b)) },
	{ weight: 1, arbitrary: fc.integer({ min: 1, max: 600 }).map((n) => Buffer.alloc(n, 0)) },
	{
		weight: 1,
		arbitrary: fc.tuple(entryArb, fc.constantFrom(...INVALID_UTF8)).map(([e, bad]) => withInvalidUtf8(e, bad)),
	},
	{
		weight: 1,
		arbitrary: fc
			.constantFrom(
				"[1,2]",
				"42",
				"null",
				'"text"',
				'{"id":"a"}',
				'{"type":"custom"}',
				"",
				"   ",
				"\r",
				"{}",
				"\ufeff{}",
			)
			.map((s) => Buffer.from(s)),
	},
);

function header(fields: Record<string, unknown>): string {
	return JSON.stringify({ type: "session", ...fields, timestamp: TS, cwd: "/work/fuzz" });
}

/** [description, header lines]. Mostly valid v3, so the body gets exercised. */
const headerArb: fc.Arbitrary<[string, Buffer[]]> = fc.oneof(
	{ weight: 14, arbitrary: fc.constant<[string, Buffer[]]>(["v3", [Buffer.from(header({ version: 3, id: "fz" }))]]) },
	{ weight: 2, arbitrary: fc.constant<[string, Buffer[]]>(["v2", [Buffer.from(header({ version: 2, id: "fz" }))]]) },
	{ weight: 2, arbitrary: fc.constant<[string, Buffer[]]>(["v1", [Buffer.from(header({ id: "fz" }))]]) },
	{ weight: 1, arbitrary: fc.constant<[string, Buffer[]]>(["no id", [Buffer.from(header({ version: 3 }))]]) },
	{
		weight: 1,
		arbitrary: fc.constant<[string, Buffer[]]>(['version "3"', [Buffer.from(header({ version: "3", id: "fz" }))]]),
	},
	{
		weight: 1,
		arbitrary: fc.constant<[string, Buffer[]]>([
			"blank lines first",
			[Buffer.from(""), Buffer.from("  "), Buffer.from(header({ version: 3, id: "fz" }))],
		]),
	},
	{
		weight: 1,
		arbitrary: fc.constant<[string, Buffer[]]>([
			"huge title",
			[Buffer.from(header({ version: 3, id: "fz", title: "t".repeat(6000) }))],
		]),
	},
	{
		weight: 1,
		arbitrary: fc.uint8Array({ maxLength: 40 }).map((b): [string, Buffer[]] => ["random bytes", [Buffer.from(b)]]),
	},
	{ weight: 1, arbitrary: fc.constant<[string, Buffer[]]>(["array", [Buffer.from("[]")]]) },
	{ weight: 1, arbitrary: fc.constant<[string, Buffer[]]>(["none", []]) },
);

function cycleLines(length: number): Buffer[] {
	const lines: Buffer[] = [];
	for (let i = 0; i < length; i++) {
		const entry = {
			type: "custom",
			id: `cyc-${i}`,
			parentId: `cyc-${(i + 1) % length}`,
			timestamp: TS,
			customType: "c",
		};
		lines.push(Buffer.from(JSON.stringify(entry)));
	}
	return lines;
}

function orphanChainLines(length: number): Buffer[] {
	const lines: Buffer[] = [];
	for (let i = 0; i < length; i++) {
		const parentId = i === 0 ? "lost-parent" : `deep-${i - 1}`;
		lines.push(
			Buffer.from(JSON.stringify({ type: "custom", id: `deep-${i}`, parentId, timestamp: TS, customType: "d" })),
		);
	}
	return lines;
}

/** Structure no random line pool produces on its own: loops, a 10k-deep orphan chain, a line of a few MB. */
const extrasArb: fc.Arbitrary<[string, Buffer[]]> = fc.oneof(
	{ weight: 45, arbitrary: fc.constant<[string, Buffer[]]>(["none", []]) },
	{
		weight: 6,
		arbitrary: fc.integer({ min: 1, max: 6 }).map((n): [string, Buffer[]] => [`cycle of ${n}`, cycleLines(n)]),
	},
	{ weight: 1, arbitrary: fc.constant<[string, Buffer[]]>(["orphan chain of 10000", orphanChainLines(10_000)]) },
	{
		weight: 1,
		arbitrary: fc.integer({ min: 1, max: 3 }).map((mb): [string, Buffer[]] => {
			const entry = {
				type: "custom",
				id: "huge",
				parentId: null,
				timestamp: TS,
				customType: "h",
				data: "x".repeat(mb << 20),
			};
			return [`${mb} MB line`, [Buffer.from(JSON.stringify(entry))]];
		}),
	},
);

/** A whole malformed (or sometimes fine) session file. */
export function malformedSessionFile(): fc.Arbitrary<MalformedFile> {
	return fc
		.record({
			header: headerArb,
			body: fc.array(lineArb, { maxLength: 30 }),
			extras: extrasArb,
			extrasAt: fc.nat(),
			// "torn": the last write was cut off mid-line, as a crash leaves it.
			tail: fc.constantFrom("newline", "newline", "none", "torn"),
			tearAt: fc.double({ min: 0, max: 1, noNaN: true }),
		})
		.map(({ header: [headerKind, headerLines], body, extras: [extrasKind, extraLines], extrasAt, tail, tearAt }) => {
			const at = body.length === 0 ? 0 : extrasAt % (body.length + 1);
			const lines = [...headerLines, ...body.slice(0, at), ...extraLines, ...body.slice(at)];
			const last = lines[lines.length - 1];
			if (tail === "torn" && last && last.length > 1) {
				lines[lines.length - 1] = last.subarray(0, Math.max(1, Math.floor(last.length * tearAt)));
			}
			const finalNewline = tail === "newline";
			const parts: Buffer[] = [];
			lines.forEach((line, i) => {
				if (i > 0) parts.push(Buffer.from("\n"));
				parts.push(line);
			});
			if (finalNewline && lines.length > 0) parts.push(Buffer.from("\n"));
			const bytes = Buffer.concat(parts);
			return {
				bytes,
				header: headerKind,
				extras: extrasKind,
				lines: lines.length,
				// A counterexample of a few MB is unreadable: show its shape and its first bytes.
				[fc.toStringMethod]: () =>
					`MalformedFile(header ${headerKind}, extras ${extrasKind}, ${lines.length} lines, ${bytes.length} bytes, ` +
					`base64 start ${bytes.subarray(0, 400).toString("base64")})`,
			};
		});
}
