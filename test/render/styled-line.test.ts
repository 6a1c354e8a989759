import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { clip } from "../../source/render/clip.js";
import { cyan, dim } from "../../source/render/paint.js";
import { styledLine } from "../../source/render/styled-line.js";
import { plain } from "../helpers/ink.js";

describe("styledLine (a list row cut to the width, as Ink's truncate-end cuts it)", () => {
	it("keeps a line that fits whole, each span in its style", () => {
		const line = styledLine([{ text: "❯ ", style: cyan }, { text: "│ ", style: dim }, { text: "user: hello" }], 20);
		expect(line).toBe(`${cyan("❯ ")}${dim("│ ")}user: hello`);
		expect(stringWidth(line)).toBe(15);
	});

	it("cuts a longer line to width - 1 columns and an ellipsis in the style of the span it cuts", () => {
		const line = styledLine([{ text: "  " }, { text: "assistant: a long answer", style: cyan }], 12);
		expect(line).toBe(`  ${cyan("assistant…")}`);
		expect(stringWidth(line)).toBe(12);
	});

	it("fills the width exactly when the text is exactly as wide", () => {
		expect(plain(styledLine([{ text: "ab" }, { text: "cdef" }], 6))).toBe("abcdef");
		expect(plain(styledLine([{ text: "ab" }, { text: "cdefg" }], 6))).toBe("abcde…");
	});

	it("puts the ellipsis on the next span when a span ends right at the cut", () => {
		const line = styledLine([{ text: "abcde" }, { text: "fgh", style: cyan }], 6);
		expect(line).toBe(`abcde${cyan("…")}`);
	});

	it("counts wide and combining characters as the terminal does, never splitting one", () => {
		// 漢 and 字 take two columns each; é as e + U+0301 takes one.
		expect(plain(styledLine([{ text: "漢字漢字" }], 6))).toBe("漢字…");
		expect(stringWidth(styledLine([{ text: "漢字漢字" }], 6))).toBe(5);
		expect(plain(styledLine([{ text: "cafe\u0301 ✓ → café" }], 30))).toBe("cafe\u0301 ✓ → café");
		expect(plain(styledLine([{ text: "cafe\u0301 ✓ → café" }], 5))).toBe("cafe\u0301…");
		for (const width of [1, 2, 3, 7, 8, 9, 20]) {
			const line = styledLine([{ text: "x 漢 ✓ café 😀 y", style: dim }, { text: "tail" }], width);
			expect(stringWidth(line)).toBeLessThanOrEqual(width);
		}
	});

	it("reads only the head of a very long text", () => {
		const line = styledLine([{ text: `é${"x".repeat(1_000_000)}` }], 10);
		expect(plain(line)).toBe(`é${"x".repeat(8)}…`);
	});
});

describe("clip", () => {
	it("cuts a short string of wide characters that is still too wide (four characters, eight columns)", () => {
		expect(clip("漢字漢字", 6)).toBe("漢字…");
		expect(clip("漢字漢字", 8)).toBe("漢字漢字");
		expect(clip("plain text", 5)).toBe("plai…");
		expect(clip("plain", 5)).toBe("plain");
	});
});
