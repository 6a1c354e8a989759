import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { deadPid } from "../helpers/lock-race.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("temp files of a rewrite whose process died", () => {
	const temp = useTempAgentDir();
	const children: ChildProcess[] = [];
	afterEach(() => {
		for (const child of children.splice(0)) child.kill("SIGKILL");
	});

	async function savedSession(): Promise<string> {
		const session = await SessionManager.create(temp.root);
		session.appendMessage(userMessage("secret prompt"));
		session.appendMessage(assistantMessage("answer"));
		await session.close();
		return session.getSessionFile()!;
	}

	/** A running process that is not xcsh: its temp files must never be touched. */
	function livePid(): number {
		const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
		children.push(child);
		return child.pid!;
	}

	function plant(file: string, pid: number, hex: string, infix = ""): string {
		const path = join(dirname(file), `.${basename(file)}${infix}.${pid}.${hex}.tmp`);
		writeFileSync(path, "a full unredacted copy\n".repeat(100));
		return path;
	}

	it("opening the session removes the copies of dead pids and keeps those of live ones", async () => {
		const file = await savedSession();
		const dead = deadPid();
		const deadCopy = plant(file, dead, "0a1b2c3d");
		const deadLockTemp = plant(file, dead, "00ff00ff", ".lock");
		const liveCopy = plant(file, livePid(), "deadbeef");
		const otherSession = join(dirname(file), `.other.jsonl.${dead}.12345678.tmp`);
		writeFileSync(otherSession, "x");

		const session = await SessionManager.open(file);
		expect(existsSync(deadCopy)).toBe(false);
		expect(existsSync(deadLockTemp)).toBe(false);
		expect(existsSync(liveCopy)).toBe(true);
		expect(existsSync(otherSession)).toBe(true);
		await session.close();
	});

	it("a read-only open touches nothing", async () => {
		const file = await savedSession();
		const deadCopy = plant(file, deadPid(), "0a1b2c3d");
		const session = await SessionManager.openReadOnly(file);
		expect(existsSync(deadCopy)).toBe(true);
		await session.close();
	});

	it("xcsh doctor reports them with their size; --fix removes them", () => {
		const file = join(temp.agentDir, "sessions", "--p--", "s.jsonl");
		const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" };
		const dir = dirname(file);
		mkdirSync(dir, { recursive: true });
		writeFileSync(file, `${JSON.stringify(header)}\n`);
		const dead = deadPid();
		const copy = plant(file, dead, "0a1b2c3d");
		const live = plant(file, livePid(), "deadbeef");
		const run = (args: string[]) => runCli(args, { agentDir: temp.agentDir, cwd: temp.root });

		const report = run(["doctor", file]);
		expect(report.status).toBe(0);
		expect(report.stdout).toBe(
			`${file}  1 warning\n    warning  stale-temp  temp file of pid ${dead}, which is no longer running (2.2 KB): ${copy}\n\n1 file checked, 1 with problems, 0 repaired\n`,
		);
		expect(existsSync(copy)).toBe(true);

		const fixed = run(["doctor", file, "--fix"]);
		expect(fixed.status).toBe(0);
		expect(fixed.stdout).toContain(`  removed stale temp file ${copy}\n  now: ok\n`);
		expect(fixed.stdout.endsWith("\n1 file checked, 1 with problems, 1 repaired\n")).toBe(true);
		expect(existsSync(copy)).toBe(false);
		expect(existsSync(live)).toBe(true);
		expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([basename(live)]);
	});
});
