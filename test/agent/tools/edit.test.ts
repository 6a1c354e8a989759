import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSingleEdit } from "../../../source/agent/tools/diff.js";
import { createEditTool } from "../../../source/agent/tools/edit.js";
import { readText, textOf, useTempDir } from "./tool-helpers.js";

describe("edit tool", () => {
	const temp = useTempDir();
	const edit = (path: string, oldText: string, newText: string) =>
		createEditTool(temp.dir).execute("call", { path, oldText, newText });
	const file = (name: string, content: string) => {
		writeFileSync(join(temp.dir, name), content);
		return join(temp.dir, name);
	};

	it("replaces the one exact occurrence and summarises the change", async () => {
		const path = file("a.ts", "line 1\nline 2\nconst x = 1;\nline 4\nline 5\nline 6\nline 7\n");
		const result = await edit("a.ts", "const x = 1;", "const x = 2;\nconst y = 3;");
		expect(readText(path)).toBe("line 1\nline 2\nconst x = 2;\nconst y = 3;\nline 4\nline 5\nline 6\nline 7\n");
		expect(textOf(result)).toBe("Edited a.ts: replaced 1 line with 2 lines at line 3");
		expect(result.details).toEqual({
			path,
			firstChangedLine: 3,
			diff: [
				"@@ -1,6 +1,7 @@",
				" line 1",
				" line 2",
				"-const x = 1;",
				"+const x = 2;",
				"+const y = 3;",
				" line 4",
				" line 5",
				" line 6",
			].join("\n"),
		});
		expect(readdirSync(temp.dir)).toEqual(["a.ts"]);
	});

	it("inserts replacement text literally, with no $-pattern expansion", async () => {
		const path = file("p.txt", "price: X\n");
		await edit("p.txt", "X", "$& and $1 and $$");
		expect(readText(path)).toBe("price: $& and $1 and $$\n");
	});

	it("reports text that is not in the file", async () => {
		file("a.ts", "const x = 1;\n");
		await expect(edit("a.ts", "const  x = 1;", "y")).rejects.toThrow(
			/^Could not find the exact text in a\.ts\. The old text must match exactly, including whitespace\.$/,
		);
	});

	it("reports ambiguous text with the number of occurrences", async () => {
		const path = file("a.ts", "foo();\nbar();\nfoo();\n");
		await expect(edit("a.ts", "foo();", "baz();")).rejects.toThrow(
			/^Found 2 occurrences of the text in a\.ts\. Add more surrounding context to make it unique\.$/,
		);
		expect(readText(path)).toBe("foo();\nbar();\nfoo();\n");
	});

	it("counts overlapping occurrences as ambiguous", async () => {
		file("a.txt", "aaa");
		await expect(edit("a.txt", "aa", "b")).rejects.toThrow("Found 2 occurrences of the text in a.txt.");
	});

	it("rejects identical old and new text, and empty old text", async () => {
		file("a.ts", "x\n");
		await expect(edit("a.ts", "x", "x")).rejects.toThrow(
			/^oldText and newText are identical; nothing to change in a\.ts$/,
		);
		await expect(edit("a.ts", "x\r\n", "x\n")).rejects.toThrow("oldText and newText are identical");
		await expect(edit("a.ts", "", "y")).rejects.toThrow(/^oldText must not be empty$/);
	});

	it("reports a missing file and a directory", async () => {
		await expect(edit("missing.ts", "a", "b")).rejects.toThrow(/^File not found: missing\.ts$/);
		await expect(edit(".", "a", "b")).rejects.toThrow(/^\. is a directory$/);
	});

	it("keeps CRLF line endings, matching LF text from read", async () => {
		const path = file("win.txt", "one\r\ntwo\r\nthree\r\n");
		const result = await edit("win.txt", "two\nthree", "2\n3\n3.5");
		expect(readFileSync(path, "latin1")).toBe("one\r\n2\r\n3\r\n3.5\r\n");
		expect(result.details.firstChangedLine).toBe(2);
	});

	it("accepts CRLF in oldText for a CRLF file", async () => {
		const path = file("win.txt", "one\r\ntwo\r\n");
		await edit("win.txt", "one\r\ntwo", "uno\r\ndos");
		expect(readFileSync(path, "latin1")).toBe("uno\r\ndos\r\n");
	});

	it("leaves the endings of lines outside the match alone in a mixed file", async () => {
		const path = file("mixed.txt", "a\r\nb\nc\r\nd\r\n");
		await edit("mixed.txt", "d", "D");
		expect(readFileSync(path, "latin1")).toBe("a\r\nb\nc\r\nD\r\n");
	});

	it("keeps a UTF-8 BOM", async () => {
		const path = file("bom.txt", "\uFEFFhello world\n");
		await edit("bom.txt", "world", "there");
		expect(readFileSync(path).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
		expect(readText(path)).toBe("\uFEFFhello there\n");
	});

	it("does nothing when the call is already aborted", async () => {
		const path = file("a.ts", "x\n");
		const controller = new AbortController();
		controller.abort();
		await expect(
			createEditTool(temp.dir).execute("call", { path: "a.ts", oldText: "x", newText: "y" }, controller.signal),
		).rejects.toThrow("Operation aborted");
		expect(readText(path)).toBe("x\n");
	});
});

describe("diffSingleEdit", () => {
	it("uses the line before an empty range in the hunk header", () => {
		expect(diffSingleEdit("", "a\n")).toEqual({
			diff: "@@ -0,0 +1,1 @@\n+a",
			firstChangedLine: 1,
			removedLines: 0,
			addedLines: 1,
		});
	});

	it("shows a pure deletion with context", () => {
		const change = diffSingleEdit("a\nb\nc\n", "a\nc\n", 1);
		expect(change.diff).toBe("@@ -1,3 +1,2 @@\n a\n-b\n c");
		expect(change).toMatchObject({ firstChangedLine: 2, removedLines: 1, addedLines: 0 });
	});
});
