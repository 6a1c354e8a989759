import { describe, expect, it } from "vitest";
import { type ScannedLine, scanLines } from "../../source/session/line-scan.js";

function reader(bytes: Buffer) {
	const reads: number[] = [];
	const readAt = async (position: number, length: number) => {
		reads.push(length);
		return bytes.subarray(position, position + length);
	};
	return { readAt, reads };
}

async function scan(text: string | Buffer, options: Parameters<typeof scanLines>[3] = {}) {
	const bytes = typeof text === "string" ? Buffer.from(text) : text;
	const lines: ScannedLine[] = [];
	const { readAt, reads } = reader(bytes);
	const end = await scanLines(readAt, bytes.length, (line) => lines.push(line), options);
	return { lines, end, reads };
}

describe("scanLines", () => {
	it("without read-ahead, reads every chunk into one buffer, after the last chunk's lines were reported", async () => {
		const text = Buffer.from("one\ntwo\nthree\nfour\n");
		const given = new Set<Buffer>();
		const events: string[] = [];
		const readAt = async (position: number, length: number, into?: Buffer) => {
			given.add(into!);
			events.push(`read ${position}`);
			const read = text.copy(into!, 0, position, position + length);
			return into!.subarray(0, read);
		};
		await scanLines(readAt, text.length, (line) => void events.push(line.text ?? ""), { chunkBytes: 8 });
		expect(given.size).toBe(1);
		expect(events).toEqual(["read 0", "one", "two", "read 8", "three", "read 16", "four"]);
	});

	it("reads the chunks into two buffers it hands the reader in turn (one read ahead), and the lines stay right", async () => {
		const text = Buffer.from('{"a":1}\nsecond line\n\n{"é":"ü"}\ntorn');
		const given = new Set<Buffer>();
		const readAt = async (position: number, length: number, into?: Buffer) => {
			if (!into) throw new Error("no buffer to read into");
			given.add(into);
			// Dirty the buffer as a reused one would be: only what is read may be used.
			into.fill(0x78);
			const read = text.copy(into, 0, position, position + length);
			return into.subarray(0, read);
		};
		const lines: ScannedLine[] = [];
		const end = await scanLines(readAt, text.length, (line) => lines.push(line), { chunkBytes: 5, readAhead: true });
		expect(given.size).toBe(2);
		expect(lines.map((line) => line.text)).toEqual(['{"a":1}', "second line", "", '{"é":"ü"}', "torn"]);
		expect(end.missingFinalNewline).toBe(true);
	});

	it("reports every line with its number, byte offset and length, across chunk boundaries", async () => {
		const text = 'ab\n{"é":1}\n\nlast\n';
		const { lines, end, reads } = await scan(text, { chunkBytes: 3 });
		expect(reads.every((n) => n <= 3)).toBe(true);
		expect(lines).toEqual([
			{ number: 1, offset: 0, length: 2, text: "ab" },
			{ number: 2, offset: 3, length: 8, text: '{"é":1}' },
			{ number: 3, offset: 12, length: 0, text: "" },
			{ number: 4, offset: 13, length: 4, text: "last" },
		]);
		for (const line of lines)
			expect(
				Buffer.from(text)
					.subarray(line.offset, line.offset + line.length)
					.toString(),
			).toBe(line.text);
		expect(end).toEqual({ missingFinalNewline: false, endOffset: 18, nextLineNumber: 5 });
	});

	it("reports a torn last line and drops a leading byte order mark", async () => {
		const { lines, end } = await scan("\uFEFFhead\ntorn", { chunkBytes: 4 });
		expect(lines).toEqual([
			{ number: 1, offset: 3, length: 4, text: "head" },
			{ number: 2, offset: 8, length: 4, text: "torn", unterminated: true },
		]);
		expect(end.missingFinalNewline).toBe(true);
	});

	it("keeps a byte order mark in line 1 when asked (the session index keeps the header's bytes)", async () => {
		const { lines } = await scan("\uFEFFhead\nnext\n", { chunkBytes: 4, keepBom: true });
		expect(lines).toEqual([
			{ number: 1, offset: 0, length: 7, text: "\uFEFFhead" },
			{ number: 2, offset: 8, length: 4, text: "next" },
		]);
	});

	it("skips a line longer than the limit without holding its bytes, and reads the lines after it", async () => {
		const long = "x".repeat(50);
		const { lines } = await scan(`one\n${long}\ntwo\n${long}`, { chunkBytes: 8, maxLineBytes: 20 });
		expect(lines.map((l) => [l.number, l.text, l.length])).toEqual([
			[1, "one", 3],
			[2, null, 50],
			[3, "two", 3],
			[4, null, 50],
		]);
	});

	it("starts at a byte offset with a given line number, and reports progress", async () => {
		const progress: number[] = [];
		const { lines } = await scan("skip\nfrom here\n", {
			from: 5,
			firstLineNumber: 2,
			chunkBytes: 4,
			onProgress: (read) => progress.push(read),
		});
		expect(lines).toEqual([{ number: 2, offset: 5, length: 9, text: "from here" }]);
		expect(progress).toEqual([9, 13, 15]);
	});

	it("stops when the signal is aborted", async () => {
		const controller = new AbortController();
		const bytes = Buffer.from("a\nb\nc\nd\n");
		const { readAt } = reader(bytes);
		const seen: string[] = [];
		const scanning = scanLines(
			readAt,
			bytes.length,
			(line) => {
				seen.push(line.text ?? "");
				controller.abort(new Error("cancelled"));
			},
			{ chunkBytes: 2, signal: controller.signal },
		);
		await expect(scanning).rejects.toThrow("cancelled");
		expect(seen).toEqual(["a"]);
	});

	it("hands a line longer than `rawAbove` over as its bytes, decoded only when its text is asked for", async () => {
		const text = 'short\n{"long":"ééé"}\nlast long line, torn';
		const { lines, end } = await scan(text, { rawAbove: 8, chunkBytes: 7 });
		expect(lines.map((line) => line.raw?.toString() ?? null)).toEqual([null, '{"long":"ééé"}', "last long line, torn"]);
		expect(lines.map((line) => [line.number, line.offset, line.length, line.text])).toEqual([
			[1, 0, 5, "short"],
			[2, 6, 17, '{"long":"ééé"}'],
			[3, 24, 20, "last long line, torn"],
		]);
		expect(lines[2]!.unterminated).toBe(true);
		expect(end.missingFinalNewline).toBe(true);
	});
});
