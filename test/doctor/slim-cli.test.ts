import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runCliAsync } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fingerprint, headerLine, writeSession } from "./craft.js";
import { bigText, inlineImage, messageLine, toolResult, userLine } from "./slim-craft.js";

const USAGE =
	"Usage: xcsh doctor <session.jsonl> | --all [--fix] [--json] | --unlock <session.jsonl> | --slim <session.jsonl>\n";

function size(bytes: number): string {
	return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

describe("xcsh doctor --slim", () => {
	const tmp = useTempAgentDir();
	const run = (args: string[]) => runCli(args, { agentDir: tmp.agentDir, cwd: tmp.root });

	it("is in --help", () => {
		const help = run(["--help"]).stdout;
		expect(help).toContain("xcsh doctor --slim <session.jsonl>");
		expect(help).toContain("Move big tool results and images to the blob store (with a .bak)");
	});

	it("moves content out, prints the sizes and the backup, exit 0", () => {
		const file = writeSession(tmp.agentDir, "s.jsonl", [
			headerLine(),
			userLine("u", null, "go"),
			messageLine("r1", "u", toolResult([{ type: "text", text: bigText(40_000, 1) }], 1)),
			messageLine("r2", "r1", toolResult([{ type: "text", text: bigText(50_000, 2) }, inlineImage(3000, 3)], 2)),
		]);
		const before = statSync(file).size;
		const result = run(["doctor", "--slim", file]);
		const after = statSync(file).size;
		expect(result).toEqual({
			status: 0,
			stdout: `Slimmed ${file}: ${size(before)} → ${size(after)} (2 tool results and 1 image moved to the blob store; backup: ${file}.bak)\n`,
			stderr: "",
		});
		expect(existsSync(`${file}.bak`)).toBe(true);
		expect(run(["doctor", file]).stdout).toBe(`${file}  ok\n\n1 file checked, 0 with problems, 0 repaired\n`);
	});

	it("says when there is nothing to move, and writes nothing", () => {
		const file = writeSession(tmp.agentDir, "s.jsonl", [headerLine(), userLine("u", null, "hi")]);
		const before = fingerprint(file);
		expect(run(["doctor", "--slim", file])).toEqual({
			status: 0,
			stdout: `Nothing to slim in ${file} (${before.size} B): no tool result text of 32 KB or more, no inline image; the file was not touched\n`,
			stderr: "",
		});
		expect(fingerprint(file)).toEqual(before);
		expect(existsSync(`${file}.bak`)).toBe(false);
	});

	it("refuses a foreign file (exit 2), a locked session and an unmigrated one (exit 1) with one line", () => {
		const foreign = writeSession(tmp.agentDir, "foreign.jsonl", ["hello"]);
		expect(run(["doctor", "--slim", foreign])).toEqual({
			status: 2,
			stdout: "",
			stderr: `Not a session file, left as it is: ${foreign} (first line is not valid JSON)\n`,
		});
		expect(readFileSync(foreign, "utf8")).toBe("hello\n");

		const lines = [headerLine(), messageLine("r", null, toolResult([{ type: "text", text: bigText(40_000, 1) }]))];
		const locked = writeSession(tmp.agentDir, "locked.jsonl", lines);
		writeFileSync(`${locked}.lock`, JSON.stringify({ pid: 4242, host: "far-away.example", startedAt: "" }));
		const before = fingerprint(locked);
		expect(run(["doctor", "--slim", locked])).toEqual({
			status: 1,
			stdout: "",
			stderr: `Not slimmed: ${locked} is open in xcsh (pid 4242 on far-away.example); close it first\n`,
		});
		expect(fingerprint(locked)).toEqual(before);

		const v2 = writeSession(tmp.agentDir, "v2.jsonl", [headerLine(2), lines[1]!]);
		expect(run(["doctor", "--slim", v2])).toEqual({
			status: 1,
			stdout: "",
			stderr: `Not slimmed: ${v2} is a v2 session; open it once in xcsh (which migrates it to v3, with a backup), then slim it\n`,
		});
		const header = { ...(JSON.parse(headerLine()) as object), version: "3" };
		const damaged = writeSession(tmp.agentDir, "d.jsonl", [JSON.stringify(header), lines[1]!]);
		expect(run(["doctor", "--slim", damaged])).toEqual({
			status: 1,
			stdout: "",
			stderr: `Not slimmed: the header of ${damaged} is damaged; xcsh doctor --fix ${damaged} repairs it first\n`,
		});
	});

	it("needs exactly one file and no other mode", () => {
		for (const args of [
			["doctor", "--slim"],
			["doctor", "--slim", "--all"],
			["doctor", "--slim", "a.jsonl", "--fix"],
			["doctor", "--slim", "a.jsonl", "--json"],
			["doctor", "--slim", "--unlock", "a.jsonl"],
		]) {
			expect(run(args), args.join(" ")).toEqual({ status: 2, stdout: "", stderr: USAGE });
		}
		const missing = join(tmp.root, "nope.jsonl");
		expect(run(["doctor", "--slim", "nope.jsonl"])).toEqual({
			status: 1,
			stdout: "",
			stderr: `File not found: ${missing}\n`,
		});
	});

	it("doctor lists sessions over the threshold with their size, and suggests --slim where it pays", async () => {
		const worth = writeSession(tmp.agentDir, "worth.jsonl", [
			headerLine(),
			userLine("u", null, "go"),
			messageLine("r1", "u", toolResult([{ type: "text", text: bigText(40_000, 1) }], 1)),
		]);
		const plain = writeSession(tmp.agentDir, "plain.jsonl", [headerLine(), userLine("u", null, "x".repeat(20_000))]);
		const small = writeSession(tmp.agentDir, "small.jsonl", [headerLine(), userLine("u", null, "hi")]);
		const env = { XCSH_LAZY_ABOVE_BYTES: "10000" };
		const result = await runCliAsync(["doctor", "--all"], { agentDir: tmp.agentDir, cwd: tmp.root, env });
		expect(result.status).toBe(0);
		const worthSize = size(statSync(worth).size);
		const moved = size(Buffer.byteLength(bigText(40_000, 1)));
		const over = "over the 9.8 KB above which a session opens with its big entries left on disk";
		expect(result.stdout).toContain(
			`${worth}  ok\n    info  large-session  ${worthSize}, ${over}; --slim would move ${moved} of tool results and images to the blob store\n  try: xcsh doctor --slim ${worth}\n`,
		);
		expect(result.stdout).toContain(`${plain}  ok\n    info  large-session  ${size(statSync(plain).size)}, ${over}\n`);
		expect(result.stdout).toContain(`${small}  ok\n`);
		expect(result.stdout).not.toContain(`xcsh doctor --slim ${plain}`);
		expect(result.stdout.endsWith("\n3 files checked, 0 with problems, 0 repaired\n")).toBe(true);
	});
});
