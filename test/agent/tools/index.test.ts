import { validateToolArguments } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { createCodingTools } from "../../../source/agent/tools/index.js";

const call = (name: string, args: Record<string, unknown>) => ({
	type: "toolCall" as const,
	id: "1",
	name,
	arguments: args,
});

describe("tool sets", () => {
	it("gives a coding session read, bash, edit and write, labelled for the UI", () => {
		const tools = createCodingTools("/work");
		expect(tools.map((t) => [t.name, t.label])).toEqual([
			["read", "Read"],
			["bash", "Bash"],
			["edit", "Edit"],
			["write", "Write"],
		]);
		for (const tool of tools) expect(tool.description.length).toBeGreaterThan(80);
	});

	it("never runs file changes concurrently, so two edits of one file cannot lose either", () => {
		const modes = Object.fromEntries(createCodingTools("/work").map((t) => [t.name, t.executionMode]));
		expect(modes).toEqual({ read: undefined, bash: undefined, edit: "sequential", write: "sequential" });
	});

	it("tells the model the limits and rules it has to work with", () => {
		const [read, bash, edit, write] = createCodingTools("/work");
		expect(read?.description).toContain("2000 lines or 50.0 KB");
		expect(read?.description).toContain("offset");
		expect(bash?.description).toContain("default 120");
		expect(bash?.description).toContain("full output is saved to a file");
		expect(bash?.description).toContain("interactive programs and prompts wait until the timeout");
		expect(edit?.description).toContain("must be unique");
		expect(write?.description).toContain("creating missing parent directories");
	});

	it("declares schemas the agent loop validates arguments against", () => {
		const [read, bash, edit, write] = createCodingTools("/work");
		if (!read || !bash || !edit || !write) throw new Error("missing tool");
		expect(validateToolArguments(read, call("read", { path: "a", offset: 2, limit: 5 }))).toEqual({
			path: "a",
			offset: 2,
			limit: 5,
		});
		expect(() => validateToolArguments(read, call("read", { path: "a", offset: 0 }))).toThrow();
		expect(() => validateToolArguments(bash, call("bash", { command: "ls", timeout: 0 }))).toThrow();
		expect(() => validateToolArguments(edit, call("edit", { path: "a", oldText: "x" }))).toThrow();
		expect(validateToolArguments(write, call("write", { path: "a", content: "" }))).toEqual({ path: "a", content: "" });
	});
});
