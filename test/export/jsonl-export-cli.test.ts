import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CommandController } from "../../controllers/command-controller.js";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { exportThinking } from "../../source/cli/export-command.js";
import { completeArgs } from "../../source/commands/complete-args.js";
import { buildCommands, findCommand } from "../../source/commands/registry.js";
import type { CommandContext, CommandResult } from "../../source/commands/types.js";
import { AgentSession } from "../../source/session/agent-session.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { storySession, TOKEN } from "./trajectory-sessions.js";

describe("xcsh --export / xcsh export with the JSON-lines formats: messages and refusals", () => {
	const temp = useTempAgentDir();
	const run = (args: string[]) => runCli(args, { agentDir: temp.agentDir, cwd: temp.root });

	async function storyFile(): Promise<string> {
		const { session } = await storySession(temp.root);
		await session.close();
		return session.getSessionFile()!;
	}

	it("--help names the formats and their flags", () => {
		const help = run(["--help"]).stdout;
		expect(help).toContain("$ xcsh export <session.jsonl> [out] --format pi|atif|openai-sft");
		expect(help).toContain("pi: a JSONL pi reads fully, atif: trajectories for");
		expect(help).toContain("--format <f>         --export: html (default), md, json, pi, atif or openai-sft");
		expect(help).toContain("a .jsonl output needs pi, atif or openai-sft");
		expect(help).toContain(
			"--branch             --export: only the path to the session's last entry (atif, openai-sft: not every branch)",
		);
		expect(help).toContain("--system             --export openai-sft: put the system prompt first");
		expect(help).toContain("--thinking           --export openai-sft: keep the reasoning (as reasoning_content)");
		expect(run(["export"])).toMatchObject({
			status: 2,
			stderr:
				"Usage: xcsh --export <session.jsonl> [out.html|out.md|out.json|out.jsonl] [--format f] [--branch] [--force]\n",
		});
	});

	it("a flag the format does not take is one line, exit 2, and nothing is written", async () => {
		const file = await storyFile();
		const cases: [string, string[], string][] = [
			["out.html", ["--system"], "--system is for --format openai-sft"],
			["out.jsonl", ["--format", "pi", "--thinking"], "--thinking is for --format openai-sft"],
			["out.jsonl", ["--format", "atif", "--focused"], "--focused is for --format md and json"],
			[
				"out.jsonl",
				["--format", "openai-sft", "--collapse-tools"],
				"--collapse-tools is for --format html, md and json",
			],
		];
		for (const [name, flags, message] of cases)
			expect(run(["--export", file, join(temp.root, name), ...flags])).toEqual({
				status: 2,
				stdout: "",
				stderr: `${message}\n`,
			});
		expect(run(["--export", file, join(temp.root, "out.json"), "--format", "pi"])).toMatchObject({
			status: 2,
			stderr: "out.json does not match --format pi: use a .jsonl name\n",
		});
		expect(readdirSync(temp.root).filter((name) => name.startsWith("out"))).toEqual([]);
	});

	it("a .jsonl output never replaces a session (not even with --force) nor the input; an existing file needs --force", async () => {
		const file = await storyFile();
		const before = readFileSync(file);
		expect(run(["--export", file, file, "--format", "pi", "--force"])).toMatchObject({
			status: 1,
			stderr: `Refusing to export onto the session itself: ${file}\n`,
		});
		const other = join(temp.root, "other.jsonl");
		writeFileSync(other, before);
		expect(run(["--export", file, other, "--format", "atif", "--force"])).toMatchObject({
			status: 1,
			stderr: `Refusing to overwrite a session file: ${other}\n`,
		});
		const notes = join(temp.root, "notes.jsonl");
		writeFileSync(notes, '{"not":"a session"}\n');
		expect(run(["--export", file, notes, "--format", "openai-sft"])).toMatchObject({
			status: 1,
			stderr: `${notes} already exists; add --force to replace it\n`,
		});
		expect(run(["--export", file, notes, "--format", "openai-sft", "--force"]).status).toBe(0);
		expect(readFileSync(file).equals(before)).toBe(true);
		expect(readFileSync(other).equals(before)).toBe(true);
	});

	it("default names are <session>.<format>.jsonl beside the cwd; an empty session has nothing to export", async () => {
		const file = await storyFile();
		const name = file
			.split("/")
			.at(-1)!
			.replace(/\.jsonl$/, "");
		expect(run(["--export", file, "--format", "atif", "--no-redact"]).stdout).toBe(
			`Exported to: ${join(temp.root, `${name}.atif.jsonl`)}\n2 trajectories, one per branch\nNot redacted (--no-redact)\n`,
		);
		expect(run(["--export", file, "--format", "atif", "--no-redact"]).stdout).toContain(`${name}-2.atif.jsonl`);
		// A session with no message yet (xcsh itself writes none such: a file by hand).
		const empty = join(temp.root, "empty.jsonl");
		const header = { type: "session", version: 3, id: "e1", timestamp: "2026-01-01T00:00:00.000Z", cwd: temp.root };
		const change = { type: "model_change", id: "m1", parentId: null, timestamp: header.timestamp, model: "a/b" };
		writeFileSync(empty, `${JSON.stringify(header)}\n${JSON.stringify(change)}\n`);
		expect(run(["--export", empty, join(temp.root, "e.jsonl"), "--format", "openai-sft"])).toMatchObject({
			status: 1,
			stderr: "Nothing to export: the session has no messages\n",
		});
	});

	it("--thinking is a switch for an export: a word the parser gave it is the output", () => {
		expect(exportThinking(undefined, ["out.jsonl"])).toEqual({ on: false, output: "out.jsonl" });
		expect(exportThinking("", [])).toEqual({ on: true, output: undefined });
		expect(exportThinking("out.jsonl", [])).toEqual({ on: true, output: "out.jsonl" });
		expect(exportThinking("high", ["out.jsonl"])).toEqual({ on: true, output: "out.jsonl" });
	});

	it("a secret in a tool result is redacted in every format; --no-redact keeps it and says so", async () => {
		const file = await storyFile();
		for (const format of ["pi", "atif", "openai-sft"]) {
			const out = join(temp.root, `safe-${format}.jsonl`);
			const result = run(["--export", file, out, "--format", format]);
			expect(result.stdout).toMatch(/\n1 secret redacted \(1 github-token\)\n$/);
			const text = readFileSync(out, "utf8");
			expect(text).not.toContain(TOKEN);
			expect(text).toContain("[REDACTED:github-token]");
			const raw = join(temp.root, `raw-${format}.jsonl`);
			expect(run(["--export", file, raw, "--format", format, "--no-redact"]).stdout).toMatch(
				/\nNot redacted \(--no-redact\)\n$/,
			);
			expect(readFileSync(raw, "utf8")).toContain(TOKEN);
		}
	});
});

describe("/export with the JSON-lines formats", () => {
	const temp = useTempAgentDir();
	const sessions: AgentSession[] = [];
	afterEach(async () => {
		for (const session of sessions.splice(0)) await session.dispose();
	});

	async function open(): Promise<AgentSession> {
		const { session: manager } = await storySession(temp.root);
		const session = await AgentSession.create({
			sessionManager: manager,
			models: { find: () => undefined, getApiKey: () => undefined },
			model: OFFLINE_MODEL,
		});
		sessions.push(session);
		return session;
	}

	const deps = {
		exportHtml: async () => "",
		share: async () => ({ kind: "cancelled" as const }),
		openInBrowser: async () => true,
		shareDestination: async () => "",
		copyToClipboard: async () => "clipboard" as const,
	};

	function run(session: AgentSession, args: string): Promise<CommandResult> {
		const controller = new CommandController(
			{ session, models: { list: () => [], find: () => undefined, missingKey: () => undefined } },
			buildCommands(deps),
		);
		return controller.execute("export", args);
	}

	it("writes pi (the whole file), atif and openai-sft (every branch), --branch one path, and says what it wrote", async () => {
		const session = await open();
		const pi = join(temp.root, "s.jsonl");
		expect(await run(session, `${pi} --format pi`)).toEqual({
			kind: "notice",
			level: "info",
			text: `Exported to: ${pi}\n19 entries\n1 secret redacted (1 github-token)`,
		});
		const atif = join(temp.root, "t.jsonl");
		expect(await run(session, `${atif} --format atif --branch --no-redact`)).toMatchObject({
			text: `Exported to: ${atif}\n1 trajectory\nNot redacted (--no-redact)`,
		});
		const sft = join(temp.root, "f.jsonl");
		expect(await run(session, `${sft} --format openai-sft --system --thinking`)).toMatchObject({
			text: `Exported to: ${sft}\n2 examples, one per branch\n1 secret redacted (1 github-token)`,
		});
		expect(readFileSync(sft, "utf8")).toContain('"role":"system"');
		expect(await run(session, `${join(temp.root, "x.html")} --system`)).toEqual({
			kind: "notice",
			level: "error",
			text: "--system is for --format openai-sft",
		});
		expect(await run(session, `${session.sessionManager.getSessionFile()} --format pi --force`)).toMatchObject({
			level: "error",
			text: `Refusing to export onto the session itself: ${session.sessionManager.getSessionFile()}`,
		});
	});

	it("Tab offers the new formats and flags", () => {
		const spec = findCommand("export", buildCommands(deps))!.spec;
		const context = {} as CommandContext;
		expect(completeArgs(spec, "--format ", context)?.candidates).toEqual([
			"html",
			"md",
			"json",
			"pi",
			"atif",
			"openai-sft",
		]);
		expect(completeArgs(spec, "--format o", context)).toEqual({ insert: "penai-sft ", candidates: [] });
		expect(completeArgs(spec, "--sy", context)).toEqual({ insert: "stem ", candidates: [] });
		expect(completeArgs(spec, "--thi", context)).toEqual({ insert: "nking ", candidates: [] });
	});
});
