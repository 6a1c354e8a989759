import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { displayPath, resolveToolPath } from "../../../source/agent/tools/paths.js";

describe("resolveToolPath", () => {
	it("keeps absolute paths, normalising them", () => {
		expect(resolveToolPath("/work", "/etc/./hosts")).toBe("/etc/hosts");
	});

	it("expands ~ and ~/ to the home directory", () => {
		expect(resolveToolPath("/work", "~")).toBe(homedir());
		expect(resolveToolPath("/work", "~/notes/a.md")).toBe(join(homedir(), "notes/a.md"));
	});

	it("resolves relative paths against the cwd", () => {
		expect(resolveToolPath("/work/project", "src/a.ts")).toBe("/work/project/src/a.ts");
		expect(resolveToolPath("/work/project", "../other/b.ts")).toBe("/work/other/b.ts");
	});

	it("treats ~user as an ordinary relative name", () => {
		expect(resolveToolPath("/work", "~bob/x")).toBe("/work/~bob/x");
	});
});

describe("displayPath", () => {
	it("is relative inside the cwd and . for the cwd itself", () => {
		expect(displayPath("/work/project", "/work/project/src/a.ts")).toBe("src/a.ts");
		expect(displayPath("/work/project", "/work/project")).toBe(".");
	});

	it("uses ~/ for paths under home outside the cwd", () => {
		expect(displayPath("/nowhere", join(homedir(), "notes/a.md"))).toBe("~/notes/a.md");
		expect(displayPath("/nowhere", homedir())).toBe("~");
	});

	it("is absolute elsewhere, rather than a ../../ chain", () => {
		expect(displayPath("/work/project", "/etc/hosts")).toBe("/etc/hosts");
	});

	it("does not mistake a sibling whose name starts with .. for a parent", () => {
		expect(displayPath("/work", "/work/..hidden")).toBe("..hidden");
	});
});
