import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LogSink, setLogSink } from "../source/logger.js";
import { SessionManager } from "../source/session/session-manager.js";
import { PersistenceError } from "../source/session/session-persistence.js";
import { assistantMessage, toolResultMessage, userMessage } from "./helpers/messages.js";
import { useTempAgentDir } from "./helpers/temp-agent-dir.js";

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
		const session = await SessionManager.create("/project", join(mountPoint, "sessions"));
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
		const session = await SessionManager.create("/project", join(mountPoint, "sessions"));
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
});
