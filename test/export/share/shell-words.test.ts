import { describe, expect, it } from "vitest";
import { parseShellWords } from "../../../source/export/shell-words.js";

describe("parseShellWords", () => {
	it("splits on any run of whitespace and ignores leading/trailing blanks", () => {
		expect(parseShellWords("  a   b\tc\n")).toEqual(["a", "b", "c"]);
		expect(parseShellWords("")).toEqual([]);
		expect(parseShellWords("   ")).toEqual([]);
	});

	it("keeps double- and single-quoted strings with spaces as one word", () => {
		expect(parseShellWords('"my file.html"')).toEqual(["my file.html"]);
		expect(parseShellWords("'my file.html' other")).toEqual(["my file.html", "other"]);
		expect(parseShellWords('out/"my file".html')).toEqual(["out/my file.html"]);
		expect(parseShellWords(`"it's" 'say "hi"'`)).toEqual(["it's", 'say "hi"']);
	});

	it("keeps an empty quoted string as an empty word", () => {
		expect(parseShellWords('a "" b')).toEqual(["a", "", "b"]);
		expect(parseShellWords("''")).toEqual([""]);
	});

	it('honours backslash escapes outside quotes and \\" \\\\ inside double quotes', () => {
		expect(parseShellWords("my\\ file.html")).toEqual(["my file.html"]);
		expect(parseShellWords("a\\\"b \\'c\\\\d")).toEqual(['a"b', "'c\\d"]);
		expect(parseShellWords('"a \\"quoted\\" \\\\ word"')).toEqual(['a "quoted" \\ word']);
		// Single quotes are literal, backslashes included.
		expect(parseShellWords("'a\\ b'")).toEqual(["a\\ b"]);
	});

	it("leaves other backslashes alone so Windows paths survive", () => {
		expect(parseShellWords("C:\\Users\\me\\out.html")).toEqual(["C:\\Users\\me\\out.html"]);
		expect(parseShellWords('"C:\\Program Files\\x.html"')).toEqual(["C:\\Program Files\\x.html"]);
		expect(parseShellWords("trailing\\")).toEqual(["trailing\\"]);
	});

	it("rejects an unterminated quote with the whole text", () => {
		expect(() => parseShellWords('"my file.html')).toThrow('Unterminated quote in: "my file.html');
		expect(() => parseShellWords("a 'b")).toThrow("Unterminated quote in: a 'b");
		expect(() => parseShellWords('"escaped at end\\"')).toThrow("Unterminated quote");
	});
});
