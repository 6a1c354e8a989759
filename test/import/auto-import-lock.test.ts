import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireAutoImportLock, autoImportHolder, autoImportLockPath } from "../../source/import/auto-import-lock.js";
import { processStartOf } from "../../source/session/process-start.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** Another process that takes the lock for real; resolves once it holds it. */
function holder(agentDir: string): Promise<ChildProcessWithoutNullStreams> {
	const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/auto-lock-child.ts"], {
		cwd: ROOT,
		env: { ...process.env, XCSH_AGENT_DIR: agentDir },
	});
	return new Promise((resolvePromise, reject) => {
		let out = "";
		child.stdout.setEncoding("utf8").on("data", (data: string) => {
			out += data;
			if (out.includes("holding")) resolvePromise(child);
			else if (out.includes("held by")) reject(new Error(out));
		});
		child.on("exit", (code) => reject(new Error(`holder exited early (${code}): ${out}`)));
	});
}

function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
	return new Promise((resolvePromise) => {
		if (child.exitCode !== null || child.signalCode !== null) resolvePromise();
		else child.once("exit", () => resolvePromise());
	});
}

describe("one background import at a time: the auto-import lock", () => {
	const temp = useTempAgentDir();
	const children: ChildProcessWithoutNullStreams[] = [];
	afterEach(async () => {
		for (const child of children.splice(0)) {
			child.kill("SIGKILL");
			await exited(child);
		}
	});

	it("is a file under the agent dir naming this process while held, gone once released", () => {
		const path = autoImportLockPath();
		expect(path).toBe(resolve(temp.agentDir, "imports", "auto-import.lock"));
		const lock = acquireAutoImportLock();
		expect(lock.kind).toBe("acquired");
		expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
		// a second import (even of this process) waits its turn
		expect(acquireAutoImportLock()).toMatchObject({ kind: "held", holder: { pid: process.pid } });
		if (lock.kind === "acquired") lock.release();
		expect(existsSync(path)).toBe(false);
		expect(autoImportHolder()).toBeUndefined();
	});

	it("held by another live process, it is not taken; once that process is killed (-9), it is", async () => {
		const other = await holder(temp.agentDir);
		children.push(other);
		expect(autoImportHolder()).toMatchObject({ pid: other.pid });
		expect(acquireAutoImportLock()).toMatchObject({ kind: "held", holder: { pid: other.pid } });
		other.kill("SIGKILL");
		await exited(other);
		// the dead process's lock is still there, and blocks nothing
		expect(existsSync(autoImportLockPath())).toBe(true);
		expect(autoImportHolder()).toBeUndefined();
		const lock = acquireAutoImportLock();
		expect(lock.kind).toBe("acquired");
		expect(JSON.parse(readFileSync(autoImportLockPath(), "utf8")).pid).toBe(process.pid);
		if (lock.kind === "acquired") lock.release();
	});

	it("a lock whose pid now belongs to another process (pid reused) is stale", () => {
		const path = autoImportLockPath();
		mkdirSync(dirname(path), { recursive: true });
		// this process's pid, but another process start: what a reboot leaves behind
		writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: "", procStart: "1" }));
		expect(processStartOf(process.pid)).not.toBe("1");
		expect(autoImportHolder()).toBeUndefined();
		const lock = acquireAutoImportLock();
		expect(lock.kind).toBe("acquired");
		expect(JSON.parse(readFileSync(path, "utf8")).procStart).toBe(processStartOf(process.pid));
	});

	it("an unreadable lock holds for a grace period, then is stale; another host's lock always holds", () => {
		const path = autoImportLockPath();
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, "");
		expect(acquireAutoImportLock()).toMatchObject({ kind: "held", holder: { pid: 0 } });
		const old = (Date.now() - 60_000) / 1000;
		utimesSync(path, old, old);
		expect(acquireAutoImportLock().kind).toBe("acquired");
		writeFileSync(path, JSON.stringify({ pid: 999_999_999, host: "another-host", startedAt: "" }));
		expect(acquireAutoImportLock()).toMatchObject({ kind: "held", holder: { host: "another-host" } });
	});

	it("release removes only the lock it took", () => {
		const path = autoImportLockPath();
		const lock = acquireAutoImportLock();
		const someoneElse = JSON.stringify({ pid: 1, host: "another-host", startedAt: "" });
		writeFileSync(path, someoneElse);
		if (lock.kind === "acquired") lock.release();
		expect(readFileSync(path, "utf8")).toBe(someoneElse);
	});
});
