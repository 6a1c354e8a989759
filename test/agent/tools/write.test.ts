import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteTool } from "../../../source/agent/tools/write.js";
import { readText, textOf, useTempDir } from "./tool-helpers.js";

describe("write tool", () => {
	const temp = useTempDir();
	const write = (path: string, content: string) => createWriteTool(temp.dir).execute("call", { path, content });

	it("creates missing parent directories and the file", async () => {
		const result = await write("a/b/c.txt", "hello\nworld\n");
		expect(readText(join(temp.dir, "a/b/c.txt"))).toBe("hello\nworld\n");
		expect(textOf(result)).toBe("Created a/b/c.txt: wrote 12 bytes (2 lines)");
		expect(result.details).toEqual({ path: join(temp.dir, "a/b/c.txt"), bytes: 12, lines: 2, created: true });
	});

	it("replaces an existing file, counting UTF-8 bytes", async () => {
		writeFileSync(join(temp.dir, "f.txt"), "old content that is longer");
		const result = await write("f.txt", "€");
		expect(readText(join(temp.dir, "f.txt"))).toBe("€");
		expect(textOf(result)).toBe("Overwrote f.txt: wrote 3 bytes (1 line)");
		expect(result.details.created).toBe(false);
	});

	it("writes an empty file", async () => {
		const result = await write("empty.txt", "");
		expect(readText(join(temp.dir, "empty.txt"))).toBe("");
		expect(textOf(result)).toBe("Created empty.txt: wrote 0 bytes (0 lines)");
	});

	it("leaves no temp file behind and keeps the file's permissions", async () => {
		const file = join(temp.dir, "run.sh");
		writeFileSync(file, "#!/bin/sh\n");
		chmodSync(file, 0o750);
		await write("run.sh", "#!/bin/sh\necho hi\n");
		expect(statSync(file).mode & 0o777).toBe(0o750);
		expect(readdirSync(temp.dir)).toEqual(["run.sh"]);
	});

	it("writes through a symlink to its target", async () => {
		writeFileSync(join(temp.dir, "real.txt"), "old");
		symlinkSync(join(temp.dir, "real.txt"), join(temp.dir, "link.txt"));
		await write("link.txt", "new");
		expect(readText(join(temp.dir, "real.txt"))).toBe("new");
		expect(statSync(join(temp.dir, "link.txt")).isFile()).toBe(true);
	});

	it("refuses to replace a directory", async () => {
		mkdirSync(join(temp.dir, "src"));
		await expect(write("src", "x")).rejects.toThrow(/^src is a directory$/);
	});

	it("accepts absolute paths", async () => {
		const absolute = join(temp.dir, "abs.txt");
		await createWriteTool("/").execute("call", { path: absolute, content: "x" });
		expect(readText(absolute)).toBe("x");
	});

	it("does nothing when the call is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(
			createWriteTool(temp.dir).execute("call", { path: "x.txt", content: "x" }, controller.signal),
		).rejects.toThrow("Operation aborted");
		expect(readdirSync(temp.dir)).toEqual([]);
	});
});
