import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDefaultSessionDir } from "../../source/session/session-paths.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const TS = "2026-03-01T10:00:00.000Z";
/** A small v3 session: a header, a prompt and an answer. */
const SESSION_TEXT = `${[
	{ type: "session", version: 3, id: "0123456789abcdef", timestamp: TS, cwd: "/work/p" },
	{ type: "message", id: "u1", parentId: null, timestamp: TS, message: { role: "user", content: "hi", timestamp: 1 } },
	{
		type: "message",
		id: "a1",
		parentId: "u1",
		timestamp: TS,
		message: { role: "assistant", content: [{ type: "text", text: "hello" }], timestamp: 2 },
	},
]
	.map((line) => JSON.stringify(line))
	.join("\n")}\n`;

/** `xcsh --export` run as a real child process of the built CLI: outputs that would destroy something are refused. */
describe("xcsh --export refuses outputs that could destroy a session or a file", () => {
	const temp = useTempAgentDir();
	const run = (args: string[]) => runCli(args, { agentDir: temp.agentDir, cwd: temp.root });

	/** A copy of the v1 fixture at `name` in the temp root, and its bytes. */
	function session(name: string): { path: string; bytes: Buffer } {
		const path = join(temp.root, name);
		writeFileSync(path, SESSION_TEXT);
		return { path, bytes: readFileSync(path) };
	}

	const files = () => readdirSync(temp.root).sort();

	it("xcsh --export s.jsonl s.jsonl leaves the session byte for byte, and writes nothing (no backup needed)", () => {
		const s = session("s.jsonl");
		const before = files();
		const result = run(["--export", "s.jsonl", "s.jsonl"]);
		expect(result).toMatchObject({
			status: 2,
			stdout: "",
			stderr:
				"Refusing to write an export to s.jsonl: .jsonl is the session format; use .html, .md or .json, or --format pi|atif|openai-sft\n",
		});
		expect(readFileSync(s.path).equals(s.bytes)).toBe(true);
		expect(files()).toEqual(before);
		// Naming the format does not make a .jsonl output acceptable.
		expect(run(["--export", "s.jsonl", "s.jsonl", "--format", "html", "--force"]).status).toBe(2);
		expect(readFileSync(s.path).equals(s.bytes)).toBe(true);
	});

	it("xcsh --export a.jsonl b.jsonl leaves the other session untouched", () => {
		session("a.jsonl");
		const b = session("b.jsonl");
		const result = run(["--export", "a.jsonl", "b.jsonl"]);
		expect(result.status).toBe(2);
		expect(result.stderr).toBe(
			"Refusing to write an export to b.jsonl: .jsonl is the session format; use .html, .md or .json, or --format pi|atif|openai-sft\n",
		);
		expect(readFileSync(b.path).equals(b.bytes)).toBe(true);
	});

	it("an existing session file under any other name is refused, even with --force", () => {
		session("a.jsonl");
		const b = session("b.html");
		for (const extra of [[], ["--force"]]) {
			expect(run(["--export", "a.jsonl", "b.html", ...extra])).toMatchObject({
				status: 1,
				stderr: `Refusing to overwrite a session file: ${b.path}\n`,
			});
		}
		expect(readFileSync(b.path).equals(b.bytes)).toBe(true);
	});

	it("anything under the sessions folder is refused, also through a symlinked folder and for names that do not exist yet", () => {
		const s = session("s.jsonl");
		const project = getDefaultSessionDir(temp.root);
		// Private, as xcsh makes it (a readable agent dir is tightened with a notice on start).
		mkdirSync(project, { recursive: true, mode: 0o700 });
		const sessions = join(temp.agentDir, "sessions");
		const inside = join(project, "page.html");
		expect(run(["--export", s.path, inside])).toMatchObject({
			status: 1,
			stderr: `Refusing to write an export inside the sessions folder (${sessions}): ${inside}\n`,
		});
		expect(run(["--export", s.path, join(sessions, "new", "dir", "page.md")]).status).toBe(1);
		symlinkSync(project, join(temp.root, "via-link"));
		const viaLink = join(temp.root, "via-link", "page.html");
		expect(run(["--export", s.path, viaLink])).toMatchObject({
			status: 1,
			stderr: `Refusing to write an export inside the sessions folder (${sessions}): ${viaLink}\n`,
		});
		expect(readdirSync(project)).toEqual([]);
		expect(existsSync(join(sessions, "new"))).toBe(false);
	});

	it("an output that is the input through a symlink is refused by real path, even with --force", () => {
		const s = session("s.jsonl");
		symlinkSync(s.path, join(temp.root, "page.html"));
		const page = join(temp.root, "page.html");
		for (const extra of [[], ["--force"]]) {
			expect(run(["--export", "s.jsonl", "page.html", ...extra])).toMatchObject({
				status: 1,
				stderr: `Refusing to export onto the session itself: ${page}\n`,
			});
		}
		mkdirSync(join(temp.root, "real"));
		const inner = session("real/t.session");
		symlinkSync(join(temp.root, "real"), join(temp.root, "alias"));
		// The input named through the folder link, the output through the real folder: the same file.
		expect(run(["--export", "alias/t.session", "real/t.session", "--format", "html", "--force"])).toMatchObject({
			status: 1,
			stderr: `Refusing to export onto the session itself: ${inner.path}
`,
		});
		expect(readFileSync(inner.path).equals(inner.bytes)).toBe(true);
		expect(readFileSync(s.path).equals(s.bytes)).toBe(true);
	});

	it("an extension that does not say the format is refused with the accepted names; --format accepts other names", () => {
		const s = session("s.jsonl");
		expect(run(["--export", "s.jsonl", "out.txt"])).toMatchObject({
			status: 2,
			stderr:
				"Cannot tell the export format from out.txt: use a .html, .md or .json name, or --format html|md|json|pi|atif|openai-sft\n",
		});
		expect(run(["--export", "s.jsonl", "out"]).status).toBe(2);
		expect(run(["--export", "s.jsonl", "out.md", "--format", "json"])).toMatchObject({
			status: 2,
			stderr: "out.md does not match --format json: use a .json name\n",
		});
		expect(run(["--export", "s.jsonl", "out.html", "--format", "md"]).stderr).toBe(
			"out.html does not match --format md: use a .md or .markdown name\n",
		);
		expect(files().filter((f) => f.startsWith("out"))).toEqual([]);
		const txt = join(temp.root, "out.txt");
		expect(run(["--export", s.path, "out.txt", "--format", "md"])).toMatchObject({
			status: 0,
			stdout: `Exported to: ${txt}\n`,
		});
		expect(readFileSync(txt, "utf8")).toMatch(/^# /);
		expect(run(["--export", s.path, "page.HTM"]).status).toBe(0);
	});

	it("an existing file is replaced only with --force, atomically", () => {
		session("s.jsonl");
		const page = join(temp.root, "page.html");
		writeFileSync(page, "keep me");
		expect(run(["--export", "s.jsonl", "page.html"])).toMatchObject({
			status: 1,
			stdout: "",
			stderr: `${page} already exists; add --force to replace it\n`,
		});
		expect(readFileSync(page, "utf8")).toBe("keep me");
		expect(run(["--export", "s.jsonl", "page.html", "--force"])).toMatchObject({
			status: 0,
			stdout: `Exported to: ${page}\n`,
		});
		expect(readFileSync(page, "utf8")).toContain("<!DOCTYPE html>");
		expect(files().filter((f) => f.endsWith(".tmp"))).toEqual([]);
		// --force replaces files, never a folder (or a device, or a pipe).
		mkdirSync(join(temp.root, "folder.html"));
		expect(run(["--export", "s.jsonl", "folder.html", "--force"])).toMatchObject({
			status: 1,
			stderr: `${join(temp.root, "folder.html")} is not a regular file\n`,
		});
	});

	it("--help and the usage line name --force", () => {
		expect(run(["--help"]).stdout).toContain(
			"--force              --export: replace an existing output file (never a session file)",
		);
		expect(run(["--export", ""])).toMatchObject({
			status: 2,
			stderr:
				"Usage: xcsh --export <session.jsonl> [out.html|out.md|out.json|out.jsonl] [--format f] [--branch] [--force]\n",
		});
	});

	it("the default output name never replaces an earlier export: s.html, then s-2.html; --force reuses s.html", () => {
		session("s.jsonl");
		const first = join(temp.root, "s.html");
		expect(run(["--export", "s.jsonl"]).stdout).toBe(`Exported to: ${first}\n`);
		writeFileSync(first, "an earlier export, edited");
		expect(run(["--export", "s.jsonl"]).stdout).toBe(`Exported to: ${join(temp.root, "s-2.html")}\n`);
		expect(readFileSync(first, "utf8")).toBe("an earlier export, edited");
		expect(run(["--export", "s.jsonl", "--format", "md"]).stdout).toBe(`Exported to: ${join(temp.root, "s.md")}\n`);
		expect(run(["--export", "s.jsonl", "--force"]).stdout).toBe(`Exported to: ${first}\n`);
		expect(readFileSync(first, "utf8")).toContain("<!DOCTYPE html>");
	});
});
