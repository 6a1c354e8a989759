import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findExtensionModules, loadExtensions } from "../../source/agent/extensions/loader.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("extension loading", () => {
	const temp = useTempAgentDir();

	function writeExtension(relative: string, source: string): string {
		const path = join(temp.agentDir, "extensions", relative);
		mkdirSync(join(path, ".."), { recursive: true });
		writeFileSync(path, source);
		return path;
	}

	it("loads .js / .mjs files and folders with an index from the agent dir, plus --extension paths", async () => {
		writeExtension("a.mjs", `export default (api) => api.on("session_before_switch", () => ({ cancel: true }));`);
		writeExtension(
			"tooly/index.js",
			`export default (api) => api.registerTool({ name: "hello", label: "Hello", description: "d", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "hi" }], details: {} }) });`,
		);
		writeExtension("notes.txt", "not an extension");
		const extra = join(temp.root, "extra.mjs");
		writeFileSync(extra, `export default (api) => api.on("session_switch", () => {});`);
		expect(
			findExtensionModules(join(temp.agentDir, "extensions")).map((p) => p.split("/").slice(-2).join("/")),
		).toEqual(["extensions/a.mjs", "tooly/index.js"]);
		const runner = await loadExtensions([extra], temp.root);
		expect(runner.errors).toEqual([]);
		expect(runner.getTools().map((t) => t.name)).toEqual(["hello"]);
		expect(await runner.emitBeforeSwitch({ type: "session_before_switch", reason: "new" })).toEqual({ cancel: true });
	});

	it("a broken extension is reported, never fatal", async () => {
		writeExtension("syntax.mjs", "export default (api => {");
		writeExtension("nodefault.mjs", "export const x = 1;");
		writeExtension("throws.mjs", `export default () => { throw new Error("boom at init"); };`);
		writeExtension("fine.mjs", `export default (api) => api.on("session_start", () => {});`);
		const runner = await loadExtensions([join(temp.root, "missing.mjs")], temp.root);
		const messages = runner.errors.map((e) => `${e.extension}: ${e.message}`);
		expect(messages).toHaveLength(4);
		expect(messages.find((m) => m.startsWith("nodefault.mjs"))).toContain("has no default-exported function");
		expect(messages.find((m) => m.startsWith("throws.mjs"))).toBe("throws.mjs: failed to initialise: boom at init");
		expect(messages.find((m) => m.startsWith("syntax.mjs"))).toContain("failed to load");
		expect(messages.find((m) => m.startsWith("missing.mjs"))).toContain("failed to load");
	});
});
