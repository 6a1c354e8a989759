import { describe, expect, it } from "vitest";
import {
	formatSize,
	splitLines,
	truncateHead,
	truncateTail,
	utf8Prefix,
	utf8Suffix,
} from "../../../source/agent/tools/truncate.js";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("splitLines", () => {
	it("does not count the newline that ends the last line as a new line", () => {
		expect(splitLines("")).toEqual([]);
		expect(splitLines("a\nb\n")).toEqual(["a", "b"]);
		expect(splitLines("a\nb")).toEqual(["a", "b"]);
		expect(splitLines("\n")).toEqual([""]);
	});
});

describe("formatSize", () => {
	it("uses B, KB and MB", () => {
		expect(formatSize(512)).toBe("512 B");
		expect(formatSize(50 * 1024)).toBe("50.0 KB");
		expect(formatSize(5 * 1024 * 1024)).toBe("5.0 MB");
	});
});

describe("truncateHead", () => {
	it("returns short text untouched", () => {
		expect(truncateHead("a\nb", { maxLines: 5, maxBytes: 100 })).toEqual({
			truncated: false,
			content: "a\nb",
			totalLines: 2,
			totalBytes: 3,
		});
	});

	it("keeps the first lines when over the line limit", () => {
		const cut = truncateHead(numbered(10), { maxLines: 3, maxBytes: 1000 });
		expect(cut).toMatchObject({
			truncated: true,
			content: "line 1\nline 2\nline 3",
			truncatedBy: "lines",
			keptLines: 3,
		});
		expect(cut.totalLines).toBe(10);
	});

	it("keeps whole lines only when over the byte limit", () => {
		const cut = truncateHead("aaaa\nbbbb\ncccc", { maxLines: 100, maxBytes: 11 });
		expect(cut).toMatchObject({ truncated: true, content: "aaaa\nbbbb", truncatedBy: "bytes", partialLine: false });
	});

	it("cuts a single over-long first line at a character boundary", () => {
		const cut = truncateHead(`${"é".repeat(10)}\nnext`, { maxLines: 100, maxBytes: 5 });
		expect(cut).toMatchObject({ truncated: true, content: "éé", partialLine: true, keptLines: 1 });
	});
});

describe("truncateTail", () => {
	it("keeps the last lines when over the line limit", () => {
		const cut = truncateTail(`${numbered(10)}\n`, { maxLines: 2, maxBytes: 1000 });
		expect(cut).toMatchObject({ truncated: true, content: "line 9\nline 10", truncatedBy: "lines", keptLines: 2 });
	});

	it("keeps the end of a single over-long last line", () => {
		const cut = truncateTail("x".repeat(20), { maxLines: 100, maxBytes: 4 });
		expect(cut).toMatchObject({ truncated: true, content: "xxxx", partialLine: true, truncatedBy: "bytes" });
	});
});

describe("utf8Prefix / utf8Suffix", () => {
	it("never split a multi-byte character", () => {
		expect(utf8Prefix("a€b", 3)).toBe("a");
		expect(utf8Prefix("a€b", 4)).toBe("a€");
		expect(utf8Suffix("a€b", 3)).toBe("b");
		expect(utf8Suffix("a€b", 4)).toBe("€b");
		expect(utf8Suffix("ab", 10)).toBe("ab");
	});
});
