import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importFile } from "../../source/import/import-run.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { FOREIGN, fixture } from "./import-helpers.js";

const options = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };

describe("import edge cases", () => {
	const temp = useTempAgentDir();
	const write = (name: string, text: string) => {
		const path = join(temp.root, name);
		writeFileSync(path, text);
		return path;
	};

	it("an empty file, a file of no known tool and an unknown pi version are skipped with a reason", async () => {
		expect(await importFile(write("empty.jsonl", ""), options)).toMatchObject({
			status: "skipped",
			reason: "empty file",
		});
		expect(await importFile(write("other.jsonl", '{"hello":1}\n'), options)).toMatchObject({
			status: "skipped",
			reason: "not a session of a known tool (claude-code, codex, gemini, opencode, pi)",
		});
		const pi = write(
			"pi.jsonl",
			'{"type":"session","version":9,"id":"x","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}\n',
		);
		expect(await importFile(pi, options)).toMatchObject({
			status: "skipped",
			reason: "pi session version 9 is not supported (1 to 3 are)",
		});
		expect(await importFile(join(temp.root, "missing.jsonl"), options)).toMatchObject({
			status: "skipped",
			reason: "no such file or directory",
		});
	});

	it("a truncated last line is left out and reported; the rest is imported", async () => {
		const text = readFileSync(fixture("claude-code-01-short-thinking-tools.jsonl"), "utf8").trimEnd();
		const result = await importFile(write("torn.jsonl", text.slice(0, -40)), options);
		expect(result).toMatchObject({ status: "imported", unreadableLines: [15] });
	});

	it("a huge line and unknown record types are kept", async () => {
		const base = { sessionId: "s-1", cwd: "/p", isSidechain: false, version: "2.1.0" };
		const huge = "x".repeat(3_000_000);
		const records = [
			{
				...base,
				type: "user",
				uuid: "u1",
				parentUuid: null,
				timestamp: "2026-01-01T00:00:00Z",
				message: { role: "user", content: huge },
			},
			{
				...base,
				type: "mystery-record",
				uuid: "m1",
				parentUuid: "u1",
				timestamp: "2026-01-01T00:00:01Z",
				payload: [1, 2],
			},
			{
				...base,
				type: "assistant",
				uuid: "a1",
				parentUuid: "m1",
				timestamp: "2026-01-01T00:00:02Z",
				message: { id: "msg", role: "assistant", model: "claude-x", content: [{ type: "text", text: "ok" }] },
			},
		];
		const path = write("huge.jsonl", `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
		const result = await importFile(path, options);
		if (result.status !== "imported") throw new Error(JSON.stringify(result));
		const manager = await SessionManager.open(result.sessionFile, { breadcrumb: false });
		const entries = manager.getEntries();
		const context = manager.buildSessionContext();
		await manager.close();
		expect(entries.find((e) => (e as { data?: { type?: string } }).data?.type === "mystery-record")).toMatchObject({
			type: "custom",
			customType: "import",
			data: { payload: [1, 2] },
		});
		expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		// xcsh's persistence caps a string at 500,000 characters, with its notice.
		const user = context.messages[0] as { content: { text: string }[] };
		expect(user.content[0]!.text.startsWith("xxxx")).toBe(true);
		expect(user.content[0]!.text).toContain("[Session persistence truncated large content]");
	});

	it("an image goes to the blob store", async () => {
		const data = Buffer.alloc(4096, 9).toString("base64");
		const lines = [
			{
				timestamp: "2026-01-01T00:00:00Z",
				type: "session_meta",
				payload: { id: "c-1", cwd: "/p", timestamp: "2026-01-01T00:00:00Z" },
			},
			{
				timestamp: "2026-01-01T00:00:01Z",
				type: "response_item",
				payload: {
					type: "message",
					role: "user",
					content: [
						{ type: "input_text", text: "look" },
						{ type: "input_image", image_url: `data:image/png;base64,${data}` },
					],
				},
			},
			{
				timestamp: "2026-01-01T00:00:02Z",
				type: "response_item",
				payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "seen" }] },
			},
		];
		const result = await importFile(write("img.jsonl", `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`), options);
		if (result.status !== "imported") throw new Error(JSON.stringify(result));
		const raw = readFileSync(result.sessionFile, "utf8");
		expect(raw).toContain('"data":"blob:sha256:');
		const manager = await SessionManager.open(result.sessionFile, { breadcrumb: false });
		const user = manager.buildSessionContext().messages[0] as { content: { type: string; data?: string }[] };
		await manager.close();
		expect(user.content[1]).toEqual({ type: "image", data, mimeType: "image/png" });
	});
});

describe("xcsh import (the built CLI)", () => {
	const temp = useTempAgentDir();

	it("imports files and directories, says so per file, exits 1 when one was skipped", () => {
		const dir = join(temp.root, "src");
		mkdirSync(dir);
		writeFileSync(join(dir, "a.jsonl"), readFileSync(fixture("pi-02-v3-small-fixture-provider.jsonl")));
		writeFileSync(join(dir, "bad.jsonl"), "not json\n");
		const run = runCli(["import", dir], { agentDir: temp.agentDir, cwd: temp.root });
		expect(run.status).toBe(1);
		const out = run.stdout.split("\n");
		expect(out[0]).toMatch(
			new RegExp(
				`^imported ${dir}/a\\.jsonl \\(pi\\) → .*/sessions/--tmp-as-agent-fixture-project--/.*\\.jsonl, project /tmp/as-agent-fixture/project: 9 entries$`,
			),
		);
		expect(out[1]).toBe(
			`skipped ${dir}/bad.jsonl: not a session of a known tool (claude-code, codex, gemini, opencode, pi)`,
		);
		const again = runCli(["import", join(dir, "a.jsonl")], { agentDir: temp.agentDir, cwd: temp.root });
		expect(again.status).toBe(0);
		expect(again.stdout).toMatch(/^unchanged .*a\.jsonl: already imported into .*\.jsonl\n$/);
	});

	it("--json parses, --dry-run writes nothing, Gemini's project is named", () => {
		const run = runCli(["import", fixture("gemini-03-json-2025-10-thoughts.json"), "--dry-run", "--json"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		expect(run.status).toBe(0);
		const [result] = JSON.parse(run.stdout);
		expect(result).toMatchObject({
			status: "imported",
			tool: "gemini",
			sessionFile: "(new session)",
			cwd: temp.root,
			cwdFrom: "current directory",
		});
		const text = runCli(["import", fixture("gemini-03-json-2025-10-thoughts.json"), "--cwd", "/work/bot"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		expect(text.stdout).toContain("project /work/bot (from --cwd: the source keeps no working directory)");
		const dry = runCli(["import", fixture("gemini-02-json-2026-03-toolcalls.json"), "--dry-run"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		expect(dry.stdout).toContain(
			`would import ${fixture("gemini-02-json-2026-03-toolcalls.json")} (gemini) → (new session), project ${temp.root} (the current directory: the source keeps no working directory; pass --cwd to choose): 13 entries`,
		);
	});

	it("--scan lists the usual homes and what it would import, writing nothing", () => {
		const home = join(temp.root, "home");
		const projects = join(home, ".claude", "projects", "-p");
		mkdirSync(projects, { recursive: true });
		writeFileSync(join(projects, "s.jsonl"), readFileSync(fixture("claude-code-01-short-thinking-tools.jsonl")));
		const run = runCli(["import", "--scan"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
			env: { HOME: home, XDG_DATA_HOME: join(home, "data") },
		});
		expect(run.status).toBe(0);
		expect(run.stdout).toContain(`claude-code: ${join(home, ".claude", "projects")}\n`);
		expect(run.stdout).toContain(`would import ${join(projects, "s.jsonl")} (claude-code) → (new session)`);
		expect(run.stdout).toContain(`Run xcsh import ${join(home, ".claude", "projects")} to import them.`);
	});

	it("--scan finds opencode's storage tree and its database (here not a readable one)", () => {
		const home = join(temp.root, "home");
		const data = join(home, "data", "opencode");
		cpSync(join(FOREIGN, "opencode", "storage"), join(data, "storage"), { recursive: true });
		writeFileSync(join(data, "opencode.db"), "SQLite format 3\u0000");
		const run = runCli(["import", "--scan"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
			env: { HOME: home, XDG_DATA_HOME: join(home, "data") },
		});
		expect(run.status).toBe(1);
		expect(run.stdout).toContain(`opencode: ${join(data, "storage")}\nopencode: ${join(data, "opencode.db")}\n`);
		const lines = run.stdout.split("\n");
		expect(lines.filter((line) => line.startsWith("would import ")).map((line) => line.split(" ")[2])).toEqual([
			join(
				data,
				"storage",
				"session",
				"4b0ea68d7af9a6031a7ffda7ad66e0cb83315750",
				"ses_4f29e0b1affeLk2Mn4Bv6Cx8Za.json",
			),
			join(
				data,
				"storage",
				"session",
				"4b0ea68d7af9a6031a7ffda7ad66e0cb83315750",
				"ses_4f29df77cffeRt5Yh7Uj9Ik1Ol.json",
			),
		]);
		expect(lines).toContain(
			`skipped ${join(data, "opencode.db")}: not a readable SQLite database (file is not a database)`,
		);
		expect(existsSync(join(temp.agentDir, "sessions"))).toBe(false);
	});

	it("bad usage exits 2 with one line", () => {
		const none = runCli(["import"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(none.status).toBe(2);
		expect(none.stderr).toBe(
			"Usage: xcsh import <file|dir>… [--from claude-code|codex|gemini|opencode|pi|auto] [--dry-run] [--json] [--cwd <dir>] | xcsh import --scan [--auto on|off]\n",
		);
		const from = runCli(["import", "x", "--from", "cursor"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(from.status).toBe(2);
		expect(from.stderr).toBe("Unknown --from cursor: use claude-code, codex, gemini, opencode, pi or auto.\n");
		const help = runCli(["--help"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(help.stdout).toContain("$ xcsh import --scan");
	});
});
