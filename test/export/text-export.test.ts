import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseExportFormat } from "../../source/export/export-target.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const TOKEN = "ghp_FAKETpnAMD2zhau2IfUknAkMIQJqgDmFwp7F";

describe("Markdown and JSON export", () => {
	const temp = useTempAgentDir();

	async function session(): Promise<string> {
		const manager = await SessionManager.create(temp.root);
		manager.appendMessage(userMessage("why does the build fail?"));
		manager.appendMessage({
			...assistantMessage("Let me look."),
			content: [
				{ type: "thinking", thinking: "check the log" },
				{ type: "text", text: "Let me look." },
				{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } },
			],
			stopReason: "toolUse",
		});
		manager.appendMessage(toolResultMessage(`token ${TOKEN}\n1 failing test`));
		manager.appendMessage(assistantMessage("The test `a.ts` fails:\n\n```ts\nexpect(1).toBe(2)\n```"));
		await manager.close();
		return manager.getSessionFile()!;
	}

	it("Markdown reads well on GitHub: a heading per turn, tool calls and results in <details>, code fenced, redacted", async () => {
		const file = await session();
		const out = join(temp.root, "s.md");
		const result = runCli(["--export", file, out], { agentDir: temp.agentDir, cwd: temp.root });
		expect(result.status).toBe(0);
		expect(result.stdout).toContain(`Exported to: ${out}\n1 secret redacted (1 github-token)`);
		const md = readFileSync(out, "utf8");
		expect(md).toMatch(/^# Session [0-9a-f]{16}\n/);
		expect(md).toContain("## 1. User\n\nwhy does the build fail?");
		expect(md).toContain("<details><summary>Tool call: bash</summary>");
		expect(md).toContain('```json\n{\n  "command": "npm test"\n}\n```');
		expect(md).toContain("<details><summary>Result of read</summary>");
		expect(md).toContain("<details><summary>Thinking</summary>");
		expect(md).toContain("```ts\nexpect(1).toBe(2)\n```");
		expect(md).not.toContain(TOKEN);
	});

	it("JSON is the resolved path of messages; --focused keeps only prompts and final answers", async () => {
		const file = await session();
		const out = join(temp.root, "s.json");
		expect(runCli(["--export", file, out], { agentDir: temp.agentDir, cwd: temp.root }).status).toBe(0);
		const json = JSON.parse(readFileSync(out, "utf8")) as { header: { id: string }; messages: { role: string }[] };
		expect(json.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		const focused = join(temp.root, "f.md");
		expect(runCli(["--export", file, focused, "--focused"], { agentDir: temp.agentDir, cwd: temp.root }).status).toBe(
			0,
		);
		const md = readFileSync(focused, "utf8");
		expect(md).toContain("why does the build fail?");
		expect(md).toContain("The test `a.ts` fails");
		expect(md).not.toContain("Tool call");
		expect(md).not.toContain("Let me look.");
		const viaFlag = runCli(["--export", file, join(temp.root, "x.out"), "--format", "json"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		expect(viaFlag.status).toBe(0);
		expect(JSON.parse(readFileSync(join(temp.root, "x.out"), "utf8")).messages).toHaveLength(4);
		expect(runCli(["--export", file, "--format", "pdf"], { agentDir: temp.agentDir, cwd: temp.root })).toMatchObject({
			status: 2,
			stderr: '--format takes html, md, json, pi, atif or openai-sft (got "pdf")\n',
		});
	});

	it("picks the format from the extension, or from --format for a name of no known format", () => {
		expect(chooseExportFormat("a.md", undefined)).toEqual({ format: "md" });
		expect(chooseExportFormat("a.MARKDOWN", undefined)).toEqual({ format: "md" });
		expect(chooseExportFormat("a.json", undefined)).toEqual({ format: "json" });
		expect(chooseExportFormat("a.html", undefined)).toEqual({ format: "html" });
		expect(chooseExportFormat("dir/a.HTM", undefined)).toEqual({ format: "html" });
		expect(chooseExportFormat(undefined, undefined)).toEqual({ format: "html" });
		expect(chooseExportFormat(undefined, "md")).toEqual({ format: "md" });
		expect(chooseExportFormat("notes.txt", "json")).toEqual({ format: "json" });
		expect(chooseExportFormat("notes", undefined)).toEqual({
			error:
				"Cannot tell the export format from notes: use a .html, .md or .json name, or --format html|md|json|pi|atif|openai-sft",
		});
		expect(chooseExportFormat("dir/s.JSONL", "json")).toEqual({
			error: "s.JSONL does not match --format json: use a .json name",
		});
		expect(chooseExportFormat("a.md", "html")).toEqual({
			error: "a.md does not match --format html: use a .html or .htm name",
		});
		expect(chooseExportFormat("a.md", "")).toEqual({
			error: '--format takes html, md, json, pi, atif or openai-sft (got "")',
		});
	});
});
