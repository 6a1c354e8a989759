import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { LOCK_GRACE_MS } from "../../source/session/lock-file.js";
import {
	acquireLock,
	isLockStale,
	lockPathFor,
	readLock,
	SessionLockedError,
} from "../../source/session/session-lock.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { runCliAsync } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

const ROOT = resolve(import.meta.dirname, "../..");

describe("single writer per session", () => {
	const temp = useTempAgentDir();
	const children: Child[] = [];

	afterEach(() => {
		for (const child of children.splice(0)) child.kill("SIGKILL");
	});

	async function savedSession(text = "hello"): Promise<string> {
		const session = await SessionManager.create(temp.root);
		session.appendMessage(userMessage(text));
		session.appendMessage(assistantMessage(`re: ${text}`));
		await session.close();
		return session.getSessionFile()!;
	}

	/** Starts another process that opens the session for writing; resolves with its pid once it holds the lock. */
	function holdInAnotherProcess(file: string, entries = 1): Promise<{ child: Child; pid: number }> {
		const child = spawn(
			process.execPath,
			["--import", "tsx", "test/helpers/hold-session-child.ts", file, String(entries)],
			{
				cwd: ROOT,
				env: { ...process.env, XCSH_AGENT_DIR: temp.agentDir },
				stdio: ["pipe", "pipe", "pipe"],
			},
		);
		children.push(child);
		return new Promise((resolvePromise, reject) => {
			let out = "";
			child.stdout.setEncoding("utf8").on("data", (d: string) => {
				out += d;
				const match = /holding (\d+)/.exec(out);
				if (match) resolvePromise({ child, pid: Number(match[1]) });
			});
			child.on("exit", (code) => reject(new Error(`holder exited early (${code})`)));
		});
	}

	const exited = (child: Child) =>
		new Promise<void>((r) => (child.exitCode !== null ? r() : child.once("exit", () => r())));

	it("the lock file is created atomically with pid, host and start time, and released on close", async () => {
		const file = await savedSession();
		const manager = await SessionManager.open(file);
		const lock = readLock(lockPathFor(file));
		expect(lock).toMatchObject({ pid: process.pid, host: hostname() });
		expect(Date.parse(lock!.startedAt)).not.toBeNaN();
		const again = await SessionManager.open(file);
		await again.close();
		expect(existsSync(lockPathFor(file))).toBe(true);
		await manager.close();
		expect(existsSync(lockPathFor(file))).toBe(false);
	});

	it("a second process is refused with the message, can open read-only, and can fork", async () => {
		const file = await savedSession("shared work");
		const { pid } = await holdInAnotherProcess(file);
		const refusal = await SessionManager.open(file).catch((e: unknown) => e);
		expect(refusal).toBeInstanceOf(SessionLockedError);
		expect((refusal as Error).message).toBe(`Session is open in another xcsh (pid ${pid})`);

		const before = readFileSync(file, "utf8");
		const readOnly = await SessionManager.openReadOnly(file);
		expect(readOnly.isReadOnly()).toBe(true);
		expect(readOnly.buildSessionContext().messages).toHaveLength(2);
		readOnly.appendMessage(userMessage("never written"));
		await readOnly.close();
		expect(readFileSync(file, "utf8")).toBe(before);

		const fork = await SessionManager.forkFrom(file, temp.root);
		expect(fork.getEntries().filter((e) => e.type === "message")).toHaveLength(2);
		expect(fork.getSessionFile()).not.toBe(file);
		await fork.close();
	});

	it("--continue skips a session another xcsh has open and says so", async () => {
		const older = await savedSession("older");
		const newer = await savedSession("newer");
		await holdInAnotherProcess(newer);
		const skipped: string[] = [];
		const manager = await SessionManager.continueRecent(temp.root);
		skipped.push(...manager.getSkippedLockedSessions().map((x) => x.path));
		expect(manager.getSessionFile()).toBe(older);
		expect(skipped).toEqual([newer]);
		await manager.close();
	});

	it("a signal releases the lock; a crash leaves a stale lock that the next open takes over", async () => {
		const file = await savedSession();
		const first = await holdInAnotherProcess(file);
		first.child.kill("SIGTERM");
		await exited(first.child);
		expect(existsSync(lockPathFor(file))).toBe(false);

		const second = await holdInAnotherProcess(file);
		second.child.kill("SIGKILL");
		await exited(second.child);
		const stale = readLock(lockPathFor(file));
		expect(stale?.pid).toBe(second.pid);
		expect(isLockStale(stale!)).toBe(true);
		const manager = await SessionManager.open(file);
		expect(readLock(lockPathFor(file))?.pid).toBe(process.pid);
		await manager.close();
	});

	it("an unreadable lock is left alone for the grace period, then taken over; a lock of another host never is", () => {
		const file = join(temp.root, "x.jsonl");
		writeFileSync(lockPathFor(file), "{tor");
		const young = acquireLock(file);
		expect(young).toMatchObject({ kind: "held", holder: { pid: 0 } });
		expect(readFileSync(lockPathFor(file), "utf8")).toBe("{tor");
		expect(new SessionLockedError(file, { pid: 0, host: hostname(), startedAt: "" }).message).toBe(
			`Session is being opened by another xcsh (its lock ${lockPathFor(file)} is not written yet); try again`,
		);
		const past = new Date(Date.now() - LOCK_GRACE_MS - 1000);
		utimesSync(lockPathFor(file), past, past);
		const taken = acquireLock(file);
		expect(taken.kind).toBe("acquired");
		expect(readLock(lockPathFor(file))?.pid).toBe(process.pid);
		if (taken.kind === "acquired") taken.release();
		writeFileSync(lockPathFor(file), JSON.stringify({ pid: 999999, host: "elsewhere", startedAt: "x" }));
		expect(acquireLock(file)).toMatchObject({ kind: "held", holder: { host: "elsewhere" } });
		expect(new SessionLockedError(file, { pid: 9, host: "elsewhere", startedAt: "" }).message).toBe(
			"Session is open in another xcsh (pid 9 on elsewhere)",
		);
	});

	it("a rewrite after the lock was lost is refused: what the new holder appended stays", async () => {
		const file = await savedSession();
		const first = await SessionManager.open(file);
		// The lock is broken under it (doctor --unlock): another process opens the session and appends.
		unlinkSync(lockPathFor(file));
		const { child, pid } = await holdInAnotherProcess(file, 5);
		const heldBy = () =>
			readFileSync(file, "utf8")
				.split("\n")
				.filter((line) => line.includes('"held-by"'));
		expect(heldBy()).toHaveLength(5);

		const error = await first.setSessionName("renamed").catch((e: unknown) => e);
		expect((error as Error).message).toBe(
			`Could not save ${file}: this xcsh no longer holds the session's lock, so the file was not replaced (the session is kept in memory)`,
		);
		expect(first.getSessionName()).toBe("renamed");
		expect(heldBy()).toHaveLength(5);
		await expect(first.close()).rejects.toThrow("no longer holds");
		expect(heldBy()).toHaveLength(5);
		expect(readLock(lockPathFor(file))?.pid).toBe(pid);
		child.stdin.end();
		await exited(child);
	});

	it("xcsh -p --resume on a held session exits non-zero with the message", async () => {
		const file = await savedSession();
		const { pid } = await holdInAnotherProcess(file);
		const result = await runCliAsync(["-p", "--resume", file, "hi"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(result.status).toBe(1);
		expect(result.stderr).toBe(
			`xcsh: Session is open in another xcsh (pid ${pid}): fork it or open it read-only from a terminal\n`,
		);
	});
});
