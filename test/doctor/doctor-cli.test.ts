import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { entryLine, fingerprint, headerLine, writeSession } from "./craft.js";

const USAGE =
	"Usage: xcsh doctor <session.jsonl> | --all [--fix] [--json] | --unlock <session.jsonl> | --slim <session.jsonl>\n";

interface JsonReport {
	files: {
		path: string;
		ok: boolean;
		header: { valid: boolean; version?: number; reason?: string };
		findings: { severity: string; kind: string; line?: number }[];
		repair?: { outcome: { kind: string; backupPath?: string }; removedLock?: string; after: { ok: boolean } };
	}[];
	summary: { checked: number; withProblems: number; repaired: number };
}

describe("xcsh doctor", () => {
	const tmp = useTempAgentDir();
	const run = (args: string[]) => runCli(args, { agentDir: tmp.agentDir, cwd: tmp.root });
	const write = (name: string, lines: readonly string[], finalNewline = true) =>
		writeSession(tmp.agentDir, name, lines, finalNewline);

	it("is in --help", () => {
		const help = run(["--help"]).stdout;
		expect(help).toContain("xcsh doctor <session.jsonl> | --all");
		expect(help).toContain("--fix");
		expect(help).toContain("xcsh sessions purge --older-than 30d");
	});

	it("rejects bad arguments with the usage line and exit 2", () => {
		for (const args of [
			["doctor"],
			["doctor", "a.jsonl", "b.jsonl"],
			["doctor", "--all", "a.jsonl"],
			["doctor", "--fix"],
		]) {
			expect(run(args), args.join(" ")).toEqual({ status: 2, stdout: "", stderr: USAGE });
		}
	});

	it("says which file is missing, exit 1", () => {
		const missing = join(tmp.root, "nope.jsonl");
		expect(run(["doctor", "nope.jsonl"])).toEqual({ status: 1, stdout: "", stderr: `File not found: ${missing}\n` });
		mkdirSync(join(tmp.root, "dir.jsonl"));
		expect(run(["doctor", "dir.jsonl"]).stderr).toBe(`Not a session file: ${join(tmp.root, "dir.jsonl")}\n`);
	});

	it("prints ok and the summary for a clean file, exit 0", () => {
		const file = write("clean.jsonl", [headerLine(), entryLine("a", null)]);
		expect(run(["doctor", file])).toEqual({
			status: 0,
			stdout: `${file}  ok\n\n1 file checked, 0 with problems, 0 repaired\n`,
			stderr: "",
		});
	});

	it("lists findings with line numbers and severities; errors exit 1, warnings and notes exit 0", () => {
		const file = write("bad.jsonl", [headerLine(), entryLine("a", null), "{oops", entryLine("a", null), '{"ty'], false);
		const before = fingerprint(file);
		const result = run(["doctor", file]);
		expect(result.status).toBe(1);
		const lines = result.stdout.split("\n");
		expect(lines[0]).toBe(`${file}  3 errors`);
		expect(lines[1]).toMatch(/^ {2}line 3 +error +unparseable-line +skipped when loading: .*JSON/);
		expect(lines[2]).toMatch(
			/^ {2}line 5 +error +torn-tail +the last line was cut off \(no final newline, not JSON\)$/,
		);
		expect(lines[3]).toMatch(/^ {2}lines 2, 4 +error +duplicate-id +entry id a is used 2 times; only line 2 loads$/);
		expect(result.stdout.endsWith("\n1 file checked, 1 with problems, 0 repaired\n")).toBe(true);
		expect(fingerprint(file)).toEqual(before);

		const warned = write("orphan.jsonl", [headerLine(2), entryLine("o", "gone")]);
		const warning = run(["doctor", warned]);
		expect(warning.status).toBe(0);
		expect(warning.stdout).toContain(`${warned}  1 warning\n`);
		expect(warning.stdout).toMatch(/line 2 +warning +orphan +entry o points to parent gone, which is not in the file/);
		expect(warning.stdout).toMatch(
			/ {2}info +needs-migration +format v2: migrated to v3 \(with a backup\) when next opened/,
		);
	});

	it("reports a foreign file as not a session file, exit 1", () => {
		const file = write("foreign.jsonl", ["hello"]);
		expect(run(["doctor", file])).toMatchObject({
			status: 1,
			stdout: `${file}  not a session file (first line is not valid JSON)\n\n1 file checked, 1 with problems, 0 repaired\n`,
		});
	});

	it("cuts long finding lists in the table", () => {
		const lines = [headerLine(), ...Array.from({ length: 25 }, (_, i) => `garbage ${i}`)];
		const file = write("many.jsonl", lines);
		const out = run(["doctor", file]).stdout;
		expect(out).toContain("  … 5 more findings (--json lists them all)\n");
		expect(out.match(/unparseable-line/g)).toHaveLength(20);
	});

	it("--json gives every finding with its severity", () => {
		const file = write("bad.jsonl", [headerLine(), entryLine("a", null), "{oops", entryLine("o", "gone")]);
		const result = run(["doctor", file, "--json"]);
		expect(result.status).toBe(1);
		const report = JSON.parse(result.stdout) as JsonReport;
		expect(report).toEqual({
			files: [
				{
					path: file,
					ok: false,
					header: { valid: true, version: 3 },
					findings: [
						{ severity: "error", kind: "unparseable-line", line: 3, message: expect.any(String) },
						{ severity: "warning", kind: "orphan", id: "o", line: 4, parentId: "gone" },
					],
				},
			],
			summary: { checked: 1, withProblems: 1, repaired: 0 },
		});
	});

	it("--fix repairs, reports what it did, and judges the repaired file", () => {
		const file = write("bad.jsonl", [headerLine(), entryLine("a", null), "{oops", entryLine("b", "a")]);
		const fixed = run(["doctor", file, "--fix"]);
		expect(fixed.status).toBe(0);
		expect(fixed.stdout).toContain(
			`  repaired: moved 1 line to ${file}.quarantine.jsonl; the original is in ${file}.bak\n  now: ok\n`,
		);
		expect(fixed.stdout.endsWith("\n1 file checked, 1 with problems, 1 repaired\n")).toBe(true);
		expect(existsSync(`${file}.bak`)).toBe(true);
		expect(run(["doctor", file])).toMatchObject({
			status: 0,
			stdout: `${file}  ok\n\n1 file checked, 0 with problems, 0 repaired\n`,
		});

		// A cycle cannot be fixed: exit 1 after --fix, and the file is not rewritten for it.
		const looped = write("loop.jsonl", [headerLine(), entryLine("x", "y"), entryLine("y", "x"), "junk"]);
		const partly = run(["doctor", looped, "--fix", "--json"]);
		expect(partly.status).toBe(1);
		const report = JSON.parse(partly.stdout) as JsonReport;
		expect(report.files[0]!.repair).toMatchObject({ outcome: { kind: "rewritten" }, after: { ok: false } });
		expect(readFileSync(looped, "utf8")).not.toContain("junk");
		const again = run(["doctor", looped, "--fix"]);
		expect(again.status).toBe(1);
		expect(again.stdout).toContain(
			"  not repaired: orphans, cycles, missing blobs and lines too long to read cannot be fixed automatically\n",
		);
	});

	it("--fix leaves a foreign file alone and names a live lock", () => {
		const foreign = write("foreign.jsonl", ["hello"]);
		const result = run(["doctor", foreign, "--fix"]);
		expect(result.status).toBe(1);
		expect(result.stdout).toContain("  not repaired: not a session file, left as it is\n");
		expect(readFileSync(foreign, "utf8")).toBe("hello\n");

		const file = write("open.jsonl", [headerLine(), "junk"]);
		const host = "far-away.example";
		writeFileSync(`${file}.lock`, JSON.stringify({ pid: 4242, host, startedAt: "2026-01-01T00:00:00.000Z" }));
		const locked = run(["doctor", file, "--fix"]);
		expect(locked.status).toBe(1);
		expect(locked.stdout).toContain(`  not repaired: open in xcsh (pid 4242 on ${host}); close it first\n`);
		expect(locked.stdout).toMatch(/ {2}info +live-lock +open in xcsh \(pid 4242 on far-away\.example\)/);
	});

	it("--all checks every project's sessions", () => {
		const a = write("a.jsonl", [headerLine(), entryLine("a", null)]);
		const b = write("b.jsonl", [headerLine(), "junk"]);
		const other = join(tmp.agentDir, "sessions", "--other--");
		mkdirSync(other, { recursive: true });
		const c = join(other, "c.jsonl");
		writeFileSync(c, `${headerLine()}\n`);
		const result = run(["doctor", "--all"]);
		expect(result.status).toBe(1);
		expect(result.stdout).toContain(`${a}  ok\n`);
		expect(result.stdout).toContain(`${b}  1 error\n`);
		expect(result.stdout).toContain(`${c}  ok\n`);
		expect(result.stdout.endsWith("\n3 files checked, 1 with problems, 0 repaired\n")).toBe(true);
		const fixed = run(["doctor", "--all", "--fix"]);
		expect(fixed.status).toBe(0);
		expect(fixed.stdout.endsWith("\n3 files checked, 1 with problems, 1 repaired\n")).toBe(true);
		// The quarantine file the repair wrote is not taken for a session.
		expect(run(["doctor", "--all"]).stdout.endsWith("\n3 files checked, 0 with problems, 0 repaired\n")).toBe(true);
	});

	it("--all with no sessions at all", () => {
		expect(run(["doctor", "--all"])).toEqual({
			status: 0,
			stdout: "0 files checked, 0 with problems, 0 repaired\n",
			stderr: "",
		});
	});
});

describe("xcsh doctor on a damaged header", () => {
	const tmp = useTempAgentDir();
	const run = (args: string[]) => runCli(args, { agentDir: tmp.agentDir, cwd: tmp.root });

	it("names a version that is not a number, and --fix sets it", () => {
		const header = JSON.parse(headerLine()) as Record<string, unknown>;
		const file = writeSession(tmp.agentDir, "v.jsonl", [
			JSON.stringify({ ...header, version: "3" }),
			entryLine("a", null),
		]);
		const found = run(["doctor", file]);
		expect(found.status).toBe(1);
		expect(found.stdout).toMatch(
			/ {2}error +malformed-version +the header's version is "3", not a number: the session opens read-only until --fix sets it\n/,
		);
		const fixed = run(["doctor", "--fix", file]);
		expect(fixed.stdout).toContain(`  repaired: set the header's version to 3; the original is in ${file}.bak\n`);
		expect(fixed.stdout).toContain("  now: ok\n");
	});

	it("notes a BOM and blank lines before the header, and --fix removes them", () => {
		const file = writeSession(tmp.agentDir, "b.jsonl", ["\uFEFF", "", headerLine(), entryLine("a", null)]);
		const found = run(["doctor", file]);
		expect(found.status).toBe(0);
		expect(found.stdout).toMatch(
			/ {2}info +header-prefix +a byte order mark and 2 blank lines before the header \(read fine; --fix removes them\)\n/,
		);
		const fixed = run(["doctor", "--fix", file]);
		expect(fixed.stdout).toContain(
			`  repaired: removed a byte order mark and 2 blank lines before the header; the original is in ${file}.bak\n`,
		);
		const blank = writeSession(tmp.agentDir, "c.jsonl", ["", headerLine(), entryLine("a", null)]);
		expect(run(["doctor", blank]).stdout).toMatch(/1 blank line before the header \(read fine; --fix removes it\)/);
	});
});
