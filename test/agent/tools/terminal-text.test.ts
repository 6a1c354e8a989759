import { describe, expect, it } from "vitest";
import { ExitMarkerScanner, WRAPPER_SCRIPT } from "../../../source/agent/tools/exit-marker.js";
import { collapseCarriageReturns, TerminalTextCleaner } from "../../../source/agent/tools/terminal-text.js";

describe("TerminalTextCleaner", () => {
	it("strips colours, cursor moves, titles and stray control bytes", () => {
		const cleaner = new TerminalTextCleaner();
		const raw =
			"\x1b[1;31mred\x1b[0m \x1b[2K\x1b[1Gdone\x1b]0;title\x07 \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x07\b\x1b(B\r\n";
		expect(cleaner.push(raw) + cleaner.flush()).toBe("red done link\n");
	});

	it("holds back an escape sequence split across chunks", () => {
		const cleaner = new TerminalTextCleaner();
		expect(cleaner.push("a\x1b[3")).toBe("a");
		expect(cleaner.push("1mb\x1b")).toBe("b");
		expect(cleaner.push("[0mc")).toBe("c");
		expect(cleaner.push("d\x1b]0;ti")).toBe("d");
		expect(cleaner.push("tle\x1b")).toBe("");
		expect(cleaner.push("\\e\x1b(")).toBe("e");
		expect(cleaner.push("Bf")).toBe("f");
	});

	it("holds back a \\r that may be the first half of \\r\\n", () => {
		const cleaner = new TerminalTextCleaner();
		expect(cleaner.push("line\r")).toBe("line");
		expect(cleaner.push("\nnext")).toBe("\nnext");
		expect(cleaner.push("tail\r")).toBe("tail");
		expect(cleaner.flush()).toBe("\r");
	});

	it("gives up waiting on an unterminated sequence after a while", () => {
		const cleaner = new TerminalTextCleaner();
		// Past the window only the two-byte ESC ] is recognisable; the rest is shown as text.
		expect(cleaner.push(`\x1b]0;${"x".repeat(5000)}`)).toBe(`0;${"x".repeat(5000)}`);
	});
});

describe("collapseCarriageReturns", () => {
	it("keeps the last rewrite of each line, like a finished progress bar", () => {
		expect(collapseCarriageReturns("10%\r50%\r100%\nnext\rNEXT\n")).toBe("100%\nNEXT\n");
		expect(collapseCarriageReturns("done\r\n")).toBe("done\n");
		expect(collapseCarriageReturns("plain\n")).toBe("plain\n");
	});
});

describe("ExitMarkerScanner", () => {
	it("splits output at the marker and drops what follows", () => {
		const scanner = new ExitMarkerScanner();
		expect(scanner.push("out\r\n\x1b]7770;3\x07\r\n")).toEqual({ text: "out\r\n", done: true });
		expect(scanner.push("echo of our answer")).toEqual({ text: "", done: true });
	});

	it("finds a marker split across reads", () => {
		const scanner = new ExitMarkerScanner();
		expect(scanner.push("out\x1b]77")).toEqual({ text: "out", done: false });
		expect(scanner.push("70;0")).toEqual({ text: "", done: false });
		expect(scanner.push("\x07")).toEqual({ text: "", done: true });
	});

	it("passes on held-back text that turns out not to be the marker", () => {
		const scanner = new ExitMarkerScanner();
		expect(scanner.push("a\x1b]7")).toEqual({ text: "a", done: false });
		expect(scanner.push("1;x\x07b")).toEqual({ text: "\x1b]71;x\x07b", done: false });
		expect(scanner.push("c\x1b")).toEqual({ text: "c", done: false });
		expect(scanner.flush()).toBe("\x1b");
	});

	it("is produced by the wrapper's EXIT trap", () => {
		expect(WRAPPER_SCRIPT).toContain("trap '");
		expect(WRAPPER_SCRIPT).toContain("7770");
	});
});
