import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileLines, firstLineOf } from "../../source/import/source-file.js";
import { forEachSourceLine } from "../../source/import/source-lines.js";

// A source read from its file a chunk at a time gives the lines its whole text gives.

const root = mkdtempSync(join(tmpdir(), "xcsh-source-file-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Lines over the 1 MB chunk, characters of 2–4 bytes across its edges, blank, torn and CRLF lines, no final newline. */
const TEXT = [
	JSON.stringify({ n: 1, text: "plain" }),
	"",
	"   ",
	JSON.stringify({ n: 2, text: "é日🙂".repeat(400_000) }),
	"{torn",
	`${JSON.stringify({ n: 3 })}\r`,
	"[1, 2]",
	JSON.stringify({ n: 4, text: "x".repeat(3 << 20) }),
	JSON.stringify({ n: 5, last: true }),
].join("\n");

function read(lines: (each: (value: Record<string, unknown>, line: number) => void) => number[]) {
	const seen: [number, unknown][] = [];
	const bad = lines((value, line) => seen.push([line, value]));
	return { seen, bad };
}

describe("a source file read a chunk at a time", () => {
	it("gives the lines, line numbers and unreadable lines its whole text gives", () => {
		const path = join(root, "mixed.jsonl");
		writeFileSync(path, TEXT);
		const whole = read((each) => forEachSourceLine(TEXT, each));
		expect(whole.bad).toEqual([5, 7]);
		expect(read(fileLines(path))).toEqual(whole);
		expect(firstLineOf(path)).toBe(JSON.stringify({ n: 1, text: "plain" }));
	});

	it("lists a line over the limit as unreadable, without reading it, and reads the rest", () => {
		const path = join(root, "long.jsonl");
		writeFileSync(path, `${TEXT}\n`);
		const { seen, bad } = read(fileLines(path, 2 << 20));
		expect(bad).toEqual([4, 5, 7, 8]);
		expect(seen.map(([line]) => line)).toEqual([1, 6, 9]);
	});
});
