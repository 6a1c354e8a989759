import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LogSink, setLogSink } from "../../source/logger.js";
import { lockPathFor } from "../../source/session/session-lock.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { PersistenceError } from "../../source/session/session-persistence.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { runCliAsync } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** Mounts a small tmpfs (needs root / CAP_SYS_ADMIN); false when this machine cannot. */
function mountTmpfs(dir: string, size: string): boolean {
	try {
		execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

const probe = join("/tmp", `xcsh-mount-probe-${process.pid}`);
mkdirSync(probe, { recursive: true });
const canMount = mountTmpfs(probe, "64k");
if (canMount) execFileSync("umount", [probe]);
rmSync(probe, { recursive: true, force: true });

/** Fills the filesystem until ENOSPC; returns the filler file to delete later. */
function fillDisk(dir: string): string {
	const filler = join(dir, "filler");
	const chunk = Buffer.alloc(16 * 1024, 120);
	let written = Buffer.alloc(0);
	try {
		for (;;) {
			written = Buffer.concat([written, chunk]);
			writeFileSync(filler, written);
		}
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
	}
	return filler;
}

describe.skipIf(!canMount)("a full disk (a real tmpfs; skipped where this machine cannot mount one)", () => {
	const temp = useTempAgentDir();
	let mountPoint: string;
	let logs: string[];
	let previousSink: LogSink;

	beforeEach(() => {
		mountPoint = join(temp.root, "small-disk");
		mkdirSync(mountPoint);
		if (!mountTmpfs(mountPoint, "512k")) throw new Error("mount failed");
		logs = [];
		previousSink = setLogSink((level, message) => {
			if (level === "error") logs.push(message);
		});
	});
	afterEach(() => {
		setLogSink(previousSink);
		execFileSync("umount", ["-l", mountPoint]);
	});

	it("ENOSPC: one clear error naming the file, memory intact, and everything saved once there is room", async () => {
		const session = await SessionManager.create("/project", { sessionDir: join(mountPoint, "sessions") });
		session.appendMessage(userMessage("question"));
		session.appendMessage(assistantMessage("answer"));
		await session.flush();
		const file = session.getSessionFile()!;

		const filler = fillDisk(mountPoint);
		session.appendMessage(toolResultMessage("x".repeat(64 * 1024)));
		const error = await session.flush().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(PersistenceError);
		expect((error as PersistenceError).code).toBe("ENOSPC");
		expect((error as Error).message).toBe(`Could not save ${file}: ENOSPC: no space left on device, write`);
		expect(logs).toEqual([(error as Error).message]);
		expect(() => session.appendMessage(userMessage("typed while the disk is full"))).toThrow("ENOSPC");
		expect(session.getEntries()).toHaveLength(4);
		expect(await session.retryPersistence()).toBe(false);
		expect(logs).toHaveLength(1);

		rmSync(filler);
		// The next append retries on its own; /session save is the same call made by hand.
		expect(() => session.appendMessage(userMessage("after cleaning up"))).toThrow();
		expect(await session.retryPersistence()).toBe(true);
		expect(session.getPersistError()).toBeUndefined();
		session.appendMessage(assistantMessage("and back to normal"));
		await session.close();

		const reopened = await SessionManager.open(file);
		expect(reopened.getEntries().map((e) => e.id)).toEqual(session.getEntries().map((e) => e.id));
		expect(reopened.getLoadReport().skippedLines).toEqual([]);
		expect(readdirSync(join(mountPoint, "sessions")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
		await reopened.close();
	});

	it("a rewrite on a full disk never leaves the target missing", async () => {
		const session = await SessionManager.create("/project", { sessionDir: join(mountPoint, "sessions") });
		session.appendMessage(userMessage("question"));
		session.appendMessage(assistantMessage("y".repeat(100 * 1024)));
		await session.flush();
		const file = session.getSessionFile()!;
		const filler = fillDisk(mountPoint);
		await expect(session.setSessionName("renamed on a full disk")).rejects.toThrow("ENOSPC");
		const onDisk = await SessionManager.openReadOnly(file);
		expect(onDisk.getEntries()).toHaveLength(2);
		expect(readdirSync(join(mountPoint, "sessions")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
		rmSync(filler);
		expect(await session.retryPersistence()).toBe(true);
		await session.close();
		expect((await SessionManager.openReadOnly(file)).getSessionName()).toBe("renamed on a full disk");
	});

	it("a lock that cannot be written: one error naming the file, and no empty lock left behind", async () => {
		const dir = join(mountPoint, "sessions");
		const session = await SessionManager.create("/project", { sessionDir: dir });
		session.appendMessage(userMessage("question"));
		session.appendMessage(assistantMessage("answer"));
		await session.close();
		const file = session.getSessionFile()!;
		const filler = fillDisk(mountPoint);
		const error = await SessionManager.open(file).catch((e: unknown) => e);
		expect((error as Error).message).toBe(`Could not lock ${file}: ENOSPC: no space left on device, write`);
		expect(existsSync(lockPathFor(file))).toBe(false);
		expect(readdirSync(dir).filter((n) => n !== basename(file))).toEqual([]);
		rmSync(filler);
	});

	it("xcsh -p with the agent folder on a full disk: the turn runs without history, each failure names its file", async () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		const env = { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "", OPENROUTER_API_KEY: "" };
		const run = (args: string[]) => runCliAsync(args, { agentDir: mountPoint, cwd: project, env });
		expect((await run(["-p", "first question"])).status).toBe(0);
		const sessionsDir = join(mountPoint, "sessions", readdirSync(join(mountPoint, "sessions"))[0]!);
		const [first] = readdirSync(sessionsDir);
		fillDisk(mountPoint);

		const full = await run(["-p", "asked on a full disk"]);
		expect(full.stdout).toContain('You said: "asked on a full disk"');
		const stderr = full.stderr.split("\n");
		expect(stderr[0]).toBe(
			`xcsh: prompt history is off for this run: cannot write ${join(mountPoint, "history.db")}: no space left on device (disk I/O error)`,
		);
		expect(full.stderr).toMatch(/xcsh: Could not save \S+\.jsonl: ENOSPC: no space left on device, write\n$/);

		const continued = await run(["--continue", "-p", "continued on a full disk"]);
		expect(continued.status).toBe(1);
		expect(continued.stderr).toContain(
			`xcsh: Could not lock ${join(sessionsDir, first!)}: ENOSPC: no space left on device, write\n`,
		);
		expect(readdirSync(sessionsDir)).toEqual([first]);
	});

	it("recovery appends only what is missing when the file is an intact prefix (room for the missing part is enough)", async () => {
		const session = await SessionManager.create("/project", { sessionDir: join(mountPoint, "sessions") });
		session.appendMessage(userMessage("question"));
		session.appendMessage(assistantMessage("z".repeat(200 * 1024)));
		await session.flush();
		const file = session.getSessionFile()!;
		const filler = fillDisk(mountPoint);
		session.appendMessage(toolResultMessage("t".repeat(8 * 1024)));
		await expect(session.flush()).rejects.toThrow("ENOSPC");

		// Room for the missing entry, far less than the 200 KB a full rewrite needs.
		rmSync(filler);
		const { bavail, bsize } = statfsSync(mountPoint);
		writeFileSync(filler, Buffer.alloc(bavail * bsize - 32 * 1024));
		expect(statSync(file).size).toBeGreaterThan(200 * 1024);
		expect(await session.retryPersistence()).toBe(true);
		await session.close();
		const reopened = await SessionManager.openReadOnly(file);
		expect(reopened.getEntries().map((e) => e.id)).toEqual(session.getEntries().map((e) => e.id));
		expect(reopened.getLoadReport()).toMatchObject({ skippedLines: [], tornTail: false });
		await reopened.close();
	});
});
