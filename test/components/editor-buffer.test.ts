import { describe, expect, it } from "vitest";
import {
	backspace,
	currentLine,
	deleteForward,
	type EditorBuffer,
	EMPTY_BUFFER,
	fromText,
	getText,
	graphemes,
	insertText,
	isEmpty,
	killToLineStart,
	killWordLeft,
	lineEnd,
	lineStart,
	moveDown,
	moveLeft,
	moveRight,
	moveUp,
	sanitizeInput,
	setText,
	textBeforeCursor,
	wordLeft,
	wordRight,
} from "../../components/editor/editor-buffer.js";

function at(text: string, row: number, col: number): EditorBuffer {
	return { ...fromText(text), row, col };
}

function repeat(buffer: EditorBuffer, times: number, op: (b: EditorBuffer) => EditorBuffer): EditorBuffer {
	let result = buffer;
	for (let i = 0; i < times; i++) result = op(result);
	return result;
}

describe("text in and out", () => {
	it("starts empty", () => {
		expect(EMPTY_BUFFER).toEqual({ lines: [""], row: 0, col: 0 });
		expect(isEmpty(EMPTY_BUFFER)).toBe(true);
		expect(isEmpty(fromText(" "))).toBe(false);
		expect(isEmpty(fromText("\n"))).toBe(false);
	});

	it("setText splits lines and puts the cursor at the end", () => {
		const buffer = setText(EMPTY_BUFFER, "one\ntwo 😀");
		expect(buffer).toEqual({ lines: ["one", "two 😀"], row: 1, col: 5 });
		expect(getText(buffer)).toBe("one\ntwo 😀");
		expect(fromText("a\r\nb\rc").lines).toEqual(["a", "b", "c"]);
	});

	it("reports the current line and the text before the cursor", () => {
		const buffer = at("ab\ncd😀ef", 1, 3);
		expect(currentLine(buffer)).toBe("cd😀ef");
		expect(textBeforeCursor(buffer)).toBe("cd😀");
	});

	it("sanitizes terminal input", () => {
		expect(sanitizeInput("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
		expect(sanitizeInput("x\x1b\x07\x7fy\tz")).toBe("xy\tz");
	});

	it("counts grapheme clusters", () => {
		expect(graphemes("a😀👨‍👩‍👧🇫🇷e\u0301")).toEqual(["a", "😀", "👨‍👩‍👧", "🇫🇷", "e\u0301"]);
	});
});

describe("insertText", () => {
	it("inserts at the cursor", () => {
		const buffer = insertText(at("held", 0, 3), "lo wor");
		expect(getText(buffer)).toBe("hello word");
		expect(buffer.col).toBe(9);
	});

	it("splits lines on newlines and ends after the text", () => {
		const buffer = insertText(at("start end", 0, 6), "one\ntwo\nthree ");
		expect(buffer.lines).toEqual(["start one", "two", "three end"]);
		expect(buffer).toMatchObject({ row: 2, col: 6 });
	});

	it("normalises CR and CRLF", () => {
		expect(insertText(EMPTY_BUFFER, "a\r\nb\rc").lines).toEqual(["a", "b", "c"]);
	});

	it("is a no-op for empty text", () => {
		const buffer = fromText("x");
		expect(insertText(buffer, "")).toBe(buffer);
	});

	it("treats an emoji as one character", () => {
		const buffer = insertText(at("ab", 0, 1), "😀");
		expect(buffer).toMatchObject({ lines: ["a😀b"], col: 2 });
		expect(getText(insertText(buffer, "!"))).toBe("a😀!b");
	});

	it("merges a combining mark into the letter before it", () => {
		const buffer = insertText(fromText("e"), "\u0301");
		expect(buffer.col).toBe(1);
		expect(graphemes(currentLine(buffer))).toHaveLength(1);
	});
});

describe("backspace and delete", () => {
	it("backspace removes the character left of the cursor", () => {
		expect(backspace(at("abc", 0, 2))).toEqual({ lines: ["ac"], row: 0, col: 1 });
	});

	it("backspace removes a whole emoji, ZWJ family or flag", () => {
		expect(backspace(fromText("a😀"))).toMatchObject({ lines: ["a"], col: 1 });
		expect(backspace(fromText("x👨‍👩‍👧"))).toMatchObject({ lines: ["x"], col: 1 });
		expect(backspace(fromText("🇫🇷"))).toMatchObject({ lines: [""], col: 0 });
	});

	it("backspace at column 0 joins with the previous line", () => {
		expect(backspace(at("ab\ncd", 1, 0))).toEqual({ lines: ["abcd"], row: 0, col: 2 });
	});

	it("backspace at the very start changes nothing", () => {
		const buffer = at("ab", 0, 0);
		expect(backspace(buffer)).toBe(buffer);
	});

	it("delete removes the character under the cursor", () => {
		expect(deleteForward(at("a😀b", 0, 1))).toEqual({ lines: ["ab"], row: 0, col: 1 });
	});

	it("delete at the end of a line joins the next line", () => {
		expect(deleteForward(at("ab\ncd", 0, 2))).toEqual({ lines: ["abcd"], row: 0, col: 2 });
	});

	it("delete at the very end changes nothing", () => {
		const buffer = fromText("ab");
		expect(deleteForward(buffer)).toBe(buffer);
	});
});

describe("cursor moves", () => {
	it("left and right step over emoji as one character", () => {
		const buffer = fromText("a😀b");
		expect(moveLeft(buffer).col).toBe(2);
		expect(moveLeft(moveLeft(buffer)).col).toBe(1);
		expect(moveRight(at("a😀b", 0, 1)).col).toBe(2);
	});

	it("left at column 0 goes to the end of the previous line; right at the end to the next", () => {
		expect(moveLeft(at("abc\nd", 1, 0))).toMatchObject({ row: 0, col: 3 });
		expect(moveRight(at("abc\nd", 0, 3))).toMatchObject({ row: 1, col: 0 });
	});

	it("left at the start and right at the end change nothing", () => {
		const start = at("ab", 0, 0);
		const end = fromText("ab");
		expect(moveLeft(start)).toBe(start);
		expect(moveRight(end)).toBe(end);
	});

	it("up and down move between lines and clamp the column", () => {
		const buffer = at("a long line\nshort\nanother long line", 0, 9);
		expect(moveDown(buffer)).toMatchObject({ row: 1, col: 5 });
		expect(moveDown(moveDown(buffer))).toMatchObject({ row: 2, col: 5 });
		expect(moveUp(at("ab\nabcdef", 1, 6))).toMatchObject({ row: 0, col: 2 });
	});

	it("clamps by characters, not UTF-16 units", () => {
		expect(moveUp(at("😀😀\nabcd", 1, 4))).toMatchObject({ row: 0, col: 2 });
	});

	it("up on the first line and down on the last change nothing", () => {
		const first = at("a\nb", 0, 1);
		const last = at("a\nb", 1, 1);
		expect(moveUp(first)).toBe(first);
		expect(moveDown(last)).toBe(last);
	});

	it("line start and end", () => {
		expect(lineStart(at("abc\ndef", 1, 2))).toMatchObject({ row: 1, col: 0 });
		expect(lineEnd(at("abc\nde😀f", 1, 0))).toMatchObject({ row: 1, col: 4 });
		const start = at("abc", 0, 0);
		expect(lineStart(start)).toBe(start);
		const end = fromText("abc");
		expect(lineEnd(end)).toBe(end);
	});
});

describe("word moves", () => {
	it("word left goes to the start of the previous word, skipping punctuation", () => {
		const buffer = fromText("foo bar.baz  ");
		const once = wordLeft(buffer);
		expect(once.col).toBe(8);
		expect(wordLeft(once).col).toBe(4);
		expect(repeat(buffer, 3, wordLeft).col).toBe(0);
	});

	it("word right goes to the end of the next word", () => {
		const buffer = at("foo bar.baz", 0, 0);
		expect(wordRight(buffer).col).toBe(3);
		expect(repeat(buffer, 2, wordRight).col).toBe(7);
		expect(repeat(buffer, 3, wordRight).col).toBe(11);
	});

	it("treats letters of any script as word characters and emoji as separators", () => {
		expect(wordLeft(fromText("naïve 😀 über")).col).toBe(8);
		expect(wordRight(at("😀 日本語 x", 0, 0)).col).toBe(5);
	});

	it("wraps across lines at the ends", () => {
		expect(wordLeft(at("ab\ncd", 1, 0))).toMatchObject({ row: 0, col: 2 });
		expect(wordRight(at("ab\ncd", 0, 2))).toMatchObject({ row: 1, col: 0 });
	});
});

describe("kill", () => {
	it("Ctrl+U deletes from the line start to the cursor", () => {
		expect(killToLineStart(at("one\ntwo three", 1, 4))).toEqual({ lines: ["one", "three"], row: 1, col: 0 });
	});

	it("Ctrl+U at column 0 changes nothing", () => {
		const buffer = at("a\nb", 1, 0);
		expect(killToLineStart(buffer)).toBe(buffer);
	});

	it("Ctrl+W deletes the previous word", () => {
		expect(killWordLeft(fromText("git commit -m"))).toMatchObject({ lines: ["git commit -"], col: 12 });
		expect(killWordLeft(fromText("git commit  "))).toMatchObject({ lines: ["git "], col: 4 });
		expect(killWordLeft(at("ab\ncd", 1, 0))).toMatchObject({ lines: ["abcd"], row: 0, col: 2 });
	});
});
