import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { imageMimeFromBytes, imageMimeFromExtension } from "../../../source/agent/tools/image-type.js";
import { createReadTool, MAX_IMAGE_BYTES } from "../../../source/agent/tools/read.js";
import { TINY_PNG, textOf, useTempDir } from "./tool-helpers.js";

const lines = (n: number, width = 0) =>
	`${Array.from({ length: n }, (_, i) => String(i + 1).padStart(width, "0")).join("\n")}\n`;

describe("read tool: text", () => {
	const temp = useTempDir();
	const read = (params: { path: string; offset?: number; limit?: number }) =>
		createReadTool(temp.dir).execute("call", params);

	it("returns a small file whole, with no note", async () => {
		writeFileSync(join(temp.dir, "a.txt"), "one\ntwo\n");
		const result = await read({ path: "a.txt" });
		expect(textOf(result)).toBe("one\ntwo");
		expect(result.details).toEqual({
			kind: "text",
			path: join(temp.dir, "a.txt"),
			startLine: 1,
			endLine: 2,
			totalLines: 2,
			truncated: false,
		});
	});

	it("stops at 2000 lines and says where to continue", async () => {
		writeFileSync(join(temp.dir, "big.txt"), lines(5400));
		const first = textOf(await read({ path: "big.txt" }));
		expect(first.startsWith("1\n2\n")).toBe(true);
		expect(first).toContain("\n2000\n\n[Showing lines 1-2000 of 5400. Use offset=2001 to continue.]");
		expect(first).not.toContain("2001\n");

		const second = textOf(await read({ path: "big.txt", offset: 2001 }));
		expect(second.startsWith("2001\n")).toBe(true);
		expect(second.endsWith("[Showing lines 2001-4000 of 5400. Use offset=4001 to continue.]")).toBe(true);

		const last = await read({ path: "big.txt", offset: 5001 });
		expect(textOf(last).startsWith("5001\n")).toBe(true);
		expect(textOf(last).endsWith("5400")).toBe(true);
		expect(last.details).toMatchObject({ startLine: 5001, endLine: 5400, truncated: false });
	});

	it("honours offset and limit", async () => {
		writeFileSync(join(temp.dir, "big.txt"), lines(5400));
		const result = await read({ path: "big.txt", offset: 5, limit: 3 });
		expect(textOf(result)).toBe("5\n6\n7\n\n[Showing lines 5-7 of 5400. Use offset=8 to continue.]");
		expect(result.details).toMatchObject({ startLine: 5, endLine: 7, totalLines: 5400, truncated: true });
	});

	it("stops at ~50 KB and names the limit", async () => {
		// 1000 lines of 100 digits: 101 bytes each, so 506 lines fit in 51,200 bytes.
		writeFileSync(join(temp.dir, "wide.txt"), lines(1000, 100));
		const text = textOf(await read({ path: "wide.txt" }));
		expect(text.endsWith("[Showing lines 1-506 of 1000 (50.0 KB limit). Use offset=507 to continue.]")).toBe(true);
	});

	it("cuts a single line longer than the byte limit", async () => {
		writeFileSync(join(temp.dir, "minified.js"), `${"x".repeat(60_000)}\nnext\n`);
		const text = textOf(await read({ path: "minified.js" }));
		expect(text.endsWith("\n\n[Showing lines 1-1 of 2 (line 1 cut at 50.0 KB). Use offset=2 to continue.]")).toBe(true);
		expect(text.indexOf("\n")).toBe(50 * 1024);
	});

	it("notes a cut last line without offering an offset past the end", async () => {
		writeFileSync(join(temp.dir, "one.js"), "y".repeat(60_000));
		const text = textOf(await read({ path: "one.js" }));
		expect(text.endsWith("\n\n[Showing lines 1-1 of 1 (line 1 cut at 50.0 KB).]")).toBe(true);
	});

	it("shows CRLF files with LF and without a BOM", async () => {
		writeFileSync(join(temp.dir, "win.txt"), "\uFEFFa\r\nb\r\n");
		expect(textOf(await read({ path: "win.txt" }))).toBe("a\nb");
	});

	it("says so for an empty file", async () => {
		writeFileSync(join(temp.dir, "empty.txt"), "");
		expect(textOf(await read({ path: "empty.txt" }))).toBe("[File is empty]");
	});

	it("rejects an offset past the end", async () => {
		writeFileSync(join(temp.dir, "f.txt"), "a\nb\nc\n");
		await expect(read({ path: "f.txt", offset: 10 })).rejects.toThrow("Offset 10 is beyond the end of f.txt (3 lines)");
		writeFileSync(join(temp.dir, "empty.txt"), "");
		await expect(read({ path: "empty.txt", offset: 2 })).rejects.toThrow(
			"Offset 2 is beyond the end of empty.txt (0 lines)",
		);
	});

	it("rejects offset and limit that are not positive integers", async () => {
		writeFileSync(join(temp.dir, "f.txt"), "a\n");
		await expect(read({ path: "f.txt", offset: 0 })).rejects.toThrow("offset must be a positive integer");
		await expect(read({ path: "f.txt", limit: 1.5 })).rejects.toThrow("limit must be a positive integer");
	});

	it("reports a missing file and a directory by name", async () => {
		await expect(read({ path: "nope.txt" })).rejects.toThrow(/^File not found: nope\.txt$/);
		await expect(read({ path: "nope/deeper.txt" })).rejects.toThrow("File not found: nope/deeper.txt");
		mkdirSync(join(temp.dir, "src"));
		await expect(read({ path: "src" })).rejects.toThrow(/^src is a directory$/);
	});

	it("refuses binary files instead of returning garbage", async () => {
		writeFileSync(join(temp.dir, "blob.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]));
		await expect(read({ path: "blob.bin" })).rejects.toThrow("blob.bin is a binary file and cannot be read as text");
	});

	it("stops before reading when the call is already aborted", async () => {
		writeFileSync(join(temp.dir, "a.txt"), "a\n");
		const controller = new AbortController();
		controller.abort();
		await expect(createReadTool(temp.dir).execute("call", { path: "a.txt" }, controller.signal)).rejects.toThrow(
			"Operation aborted",
		);
	});
});

describe("read tool: images", () => {
	const temp = useTempDir();
	const read = (path: string) => createReadTool(temp.dir).execute("call", { path });

	it("returns a PNG as an image block with a short note", async () => {
		writeFileSync(join(temp.dir, "dot.png"), TINY_PNG);
		const result = await read("dot.png");
		expect(result.content).toEqual([
			{ type: "text", text: `Read image dot.png (image/png, ${TINY_PNG.length} B)` },
			{ type: "image", data: TINY_PNG.toString("base64"), mimeType: "image/png" },
		]);
		expect(result.details).toEqual({
			kind: "image",
			path: join(temp.dir, "dot.png"),
			mimeType: "image/png",
			bytes: TINY_PNG.length,
		});
	});

	it("takes the MIME type from the bytes when the extension names another image type", async () => {
		writeFileSync(join(temp.dir, "screenshot.jpg"), TINY_PNG);
		const result = await read("screenshot.jpg");
		expect(result.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
	});

	it("rejects a file with an image extension whose bytes are not an image", async () => {
		writeFileSync(join(temp.dir, "fake.png"), "not a picture");
		await expect(read("fake.png")).rejects.toThrow(
			"fake.png has an image extension but is not a PNG, JPEG, GIF or WebP image",
		);
	});

	it("treats image bytes without an image extension as binary", async () => {
		writeFileSync(join(temp.dir, "dot.dat"), TINY_PNG);
		await expect(read("dot.dat")).rejects.toThrow("dot.dat is a binary file and cannot be read as text");
	});

	it("refuses images too large to attach", async () => {
		const huge = Buffer.alloc(6 * 1024 * 1024);
		TINY_PNG.copy(huge);
		writeFileSync(join(temp.dir, "huge.png"), huge);
		expect(huge.length).toBeGreaterThan(MAX_IMAGE_BYTES);
		await expect(read("huge.png")).rejects.toThrow("huge.png is 6.0 MB; images larger than 5.0 MB cannot be attached");
	});
});

describe("image type detection", () => {
	it("knows the extensions, case-insensitively", () => {
		expect(imageMimeFromExtension("a.PNG")).toBe("image/png");
		expect(imageMimeFromExtension("a.jpg")).toBe("image/jpeg");
		expect(imageMimeFromExtension("a.jpeg")).toBe("image/jpeg");
		expect(imageMimeFromExtension("a.gif")).toBe("image/gif");
		expect(imageMimeFromExtension("a.webp")).toBe("image/webp");
		expect(imageMimeFromExtension("a.svg")).toBeUndefined();
	});

	it("knows the magic bytes", () => {
		expect(imageMimeFromBytes(TINY_PNG)).toBe("image/png");
		expect(imageMimeFromBytes(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
		expect(imageMimeFromBytes(Buffer.from("GIF89a..."))).toBe("image/gif");
		expect(imageMimeFromBytes(Buffer.from("GIF87a..."))).toBe("image/gif");
		expect(imageMimeFromBytes(Buffer.from("RIFF\x10\x00\x00\x00WEBPVP8 "))).toBe("image/webp");
		expect(imageMimeFromBytes(Buffer.from("RIFF\x10\x00\x00\x00WAVEfmt "))).toBeUndefined();
		expect(imageMimeFromBytes(Buffer.from([0x89, 0x50]))).toBeUndefined();
	});
});
