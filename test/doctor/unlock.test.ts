import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { holdSession } from "../helpers/hold-session.js";
import { deadPid } from "../helpers/lock-race.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const USAGE =
	"Usage: xcsh doctor <session.jsonl> | --all [--fix] [--json] | --unlock <session.jsonl> | --slim <session.jsonl>\n";

describe("xcsh doctor --unlock", () => {
	const tmp = useTempAgentDir();
	const children: ChildProcess[] = [];
	afterEach(() => {
		for (const child of children.splice(0)) child.kill("SIGKILL");
	});
	const run = (args: string[]) => runCli(args, { agentDir: tmp.agentDir, cwd: tmp.root });

	function session(): { file: string; lockPath: string } {
		const file = join(tmp.root, "s.jsonl");
		writeFileSync(file, `${JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" })}\n`);
		return { file, lockPath: `${file}.lock` };
	}

	function lock(lockPath: string, info: Record<string, unknown>): void {
		writeFileSync(lockPath, `${JSON.stringify({ startedAt: "2026-01-01T00:00:00.000Z", ...info })}\n`);
	}

	/** A running program that is not xcsh. */
	function otherProgram(): number {
		const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
		children.push(child);
		return child.pid!;
	}

	/** A running xcsh session holder; resolves with its pid once it holds the lock. */
	async function heldByXcsh(file: string): Promise<number> {
		const child = await holdSession(file, tmp.agentDir);
		children.push(child);
		return child.pid!;
	}

	it("is in --help", () => {
		expect(run(["--help"]).stdout).toContain(
			"    --unlock             doctor --unlock <session.jsonl>: break a lock of another host or a dead process (never a running xcsh here)\n",
		);
	});

	it("needs exactly one file and no other mode", () => {
		for (const args of [
			["doctor", "--unlock"],
			["doctor", "--unlock", "--all"],
			["doctor", "--unlock", "a", "--fix"],
		]) {
			expect(run(args), args.join(" ")).toEqual({ status: 2, stdout: "", stderr: USAGE });
		}
	});

	it("says when there is no lock", () => {
		const { file, lockPath } = session();
		expect(run(["doctor", "--unlock", file])).toEqual({
			status: 0,
			stdout: `Not locked: ${lockPath} does not exist\n`,
			stderr: "",
		});
	});

	it("breaks a lock of another host, showing the holder first (the .lock path works too)", () => {
		const { lockPath } = session();
		lock(lockPath, { pid: 4242, host: "far-away.example" });
		expect(run(["doctor", "--unlock", lockPath])).toEqual({
			status: 0,
			stdout: `Lock ${lockPath}: pid 4242 on far-away.example, since 2026-01-01T00:00:00.000Z, another host (cannot be checked from here)\nRemoved ${lockPath}\n`,
			stderr: "",
		});
		expect(existsSync(lockPath)).toBe(false);
	});

	it("breaks a lock whose pid now runs another program, with or without a recorded start time", () => {
		const { file, lockPath } = session();
		const pid = otherProgram();
		const shown = `Lock ${lockPath}: pid ${pid}, since 2026-01-01T00:00:00.000Z, now another program (the xcsh that locked it is gone)\nRemoved ${lockPath}\n`;
		lock(lockPath, { pid, host: hostname(), procStart: "1" });
		expect(run(["doctor", "--unlock", file])).toEqual({ status: 0, stdout: shown, stderr: "" });
		lock(lockPath, { pid, host: hostname() });
		expect(run(["doctor", "--unlock", file])).toEqual({ status: 0, stdout: shown, stderr: "" });
		expect(existsSync(lockPath)).toBe(false);
	});

	it("breaks a lock of a dead process and an unreadable one", () => {
		const { file, lockPath } = session();
		const dead = deadPid();
		lock(lockPath, { pid: dead, host: hostname() });
		expect(run(["doctor", "--unlock", file]).stdout).toBe(
			`Lock ${lockPath}: pid ${dead}, since 2026-01-01T00:00:00.000Z, no longer running\nRemoved ${lockPath}\n`,
		);
		writeFileSync(lockPath, "");
		const at = new Date("2026-01-02T03:04:05.000Z");
		utimesSync(lockPath, at, at);
		expect(run(["doctor", "--unlock", file]).stdout).toBe(
			`Lock ${lockPath}: unreadable (0 bytes, last written 2026-01-02T03:04:05.000Z)\nRemoved ${lockPath}\n`,
		);
		expect(existsSync(lockPath)).toBe(false);
	});

	it("refuses a running xcsh on this host and leaves its lock", async () => {
		const { file, lockPath } = session();
		const pid = await heldByXcsh(file);
		const before = readFileSync(lockPath, "utf8");
		const result = run(["doctor", "--unlock", file]);
		expect(result.status).toBe(1);
		expect(result.stdout).toMatch(
			new RegExp(`^Lock ${lockPath}: pid ${pid}, since \\S+, a running xcsh on this host\\n$`),
		);
		expect(result.stderr).toBe(`Not removed: the session is open in a running xcsh (pid ${pid}); close it there\n`);
		expect(readFileSync(lockPath, "utf8")).toBe(before);
	});
});
