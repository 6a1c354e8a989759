import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAutoImport } from "../../source/import/auto-import-child.js";
import { acquireAutoImportLock, autoImportLockPath } from "../../source/import/auto-import-lock.js";
import { autoImportCommand, startAutoImport } from "../../source/import/auto-import-process.js";
import { arrivalsOf, describeArrivals } from "../../source/import/auto-import-summary.js";
import type { ImportResult } from "../../source/import/import-run.js";
import { autoImportHomes } from "../../source/import/scan.js";
import { isProcessAlive } from "../../source/session/session-lock.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { placeFixture } from "./import-helpers.js";

describe("what a background import says it brought in", () => {
	const some = (status: ImportResult["status"], tool: "claude-code" | "codex" | "pi") =>
		(status === "skipped"
			? { status, source: "/s", reason: "bad" }
			: {
					status,
					source: "/s",
					tool,
					sourceId: "x",
					sessionFile: "/f",
					entries: 1,
					cwd: "/p",
					cwdFrom: "source",
					unreadableLines: [],
				}) as ImportResult;

	it("counts sessions by what happened and by tool, and names them as their users do", () => {
		const arrivals = arrivalsOf([
			some("imported", "claude-code"),
			some("reimported", "claude-code"),
			some("imported", "claude-code"),
			some("imported", "codex"),
			some("appended", "pi"),
			some("appended", "pi"),
			some("unchanged", "codex"),
			some("skipped", "codex"),
		]);
		expect(arrivals).toEqual({ added: { "claude-code": 3, codex: 1 }, updated: { pi: 2 }, skipped: 1 });
		expect(describeArrivals(arrivals)).toBe(
			// The total first: a narrow status line cuts the end of the note, never its count.
			"imported 4 sessions: 3 from Claude Code, 1 from Codex; updated 2 sessions from pi",
		);
		expect(describeArrivals(arrivalsOf([some("imported", "claude-code")]))).toBe("imported 1 session from Claude Code");
		expect(describeArrivals(arrivalsOf([some("appended", "codex")]))).toBe("updated 1 session from Codex");
		expect(describeArrivals({ added: { gemini: 2, opencode: 1 }, updated: {}, skipped: 0 })).toBe(
			"imported 3 sessions: 2 from Gemini CLI, 1 from opencode",
		);
		expect(describeArrivals(arrivalsOf([some("unchanged", "codex"), some("skipped", "pi")]))).toBeUndefined();
	});
});

const ROOT = resolve(import.meta.dirname, "../..");

/** Enough real sessions that an import of them is still running when the test acts. */
const BIG_SOURCES = [
	"claude-code-06-v1.0.95-older.jsonl",
	"claude-code-07-2.1.39-parallel-calls-compaction.jsonl.gz",
	"claude-code-08-2.1.39-parent-of-04-05-compaction.jsonl.gz",
	"codex-02-desktop-0.104-compacted-images-redacted.jsonl",
	"codex-04-legacy-2025-09-record-type-state.jsonl",
	"pi-01-v1-large-session-compaction-fixture.jsonl",
];

describe("a background import in a child process", () => {
	const temp = useTempAgentDir();
	const saved = { HOME: process.env.HOME, XDG_DATA_HOME: process.env.XDG_DATA_HOME };
	let home = "";
	let project = "";
	beforeEach(() => {
		home = join(temp.root, "home");
		project = join(temp.root, "project");
		mkdirSync(project, { recursive: true });
		// the child finds the usual places from HOME, as a person's xcsh does
		process.env.HOME = home;
		process.env.XDG_DATA_HOME = join(home, "data");
	});
	afterEach(() => {
		for (const [key, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
	});

	it("imports what is new in the usual places, then nothing when nothing changed", async () => {
		placeFixture("claude-code-01-short-thinking-tools.jsonl", join(home, ".claude", "projects", "-p", "s.jsonl"));
		const first = await startAutoImport(project).outcome;
		expect(first).toEqual({
			kind: "done",
			arrivals: { added: { "claude-code": 1 }, updated: {}, skipped: 0 },
			skipped: [],
		});
		const sessions = join(temp.agentDir, "sessions");
		expect(readdirSync(sessions)).toHaveLength(1);
		expect(await startAutoImport(project).outcome).toEqual({
			kind: "done",
			arrivals: { added: {}, updated: {}, skipped: 0 },
			skipped: [],
		});
	});

	it("starts none while another import holds the lock, and the child itself waits its turn", async () => {
		placeFixture("claude-code-01-short-thinking-tools.jsonl", join(home, ".claude", "projects", "-p", "s.jsonl"));
		const lock = acquireAutoImportLock();
		expect(lock.kind).toBe("acquired");
		expect(await startAutoImport(project).outcome).toEqual({ kind: "busy", pid: process.pid });
		// the check before the spawn can be passed by a race: the child's own lock still holds
		expect(await runAutoImport(project)).toEqual({ kind: "busy", pid: process.pid });
		if (lock.kind === "acquired") lock.release();
		expect(readdirSync(temp.agentDir)).toEqual(["imports"]);
	});

	it("stopped mid-import (xcsh quits), the child goes and so does its lock", async () => {
		for (const [i, name] of BIG_SOURCES.entries())
			placeFixture(name, join(home, ".claude", "projects", "-p", `s${i}.jsonl`));
		const run = startAutoImport(project);
		const lock = autoImportLockPath();
		while (!existsSync(lock)) await new Promise((resolvePromise) => setTimeout(resolvePromise, 5));
		run.stop();
		expect(await run.outcome).toEqual({ kind: "failed", reason: "stopped" });
		expect(existsSync(lock)).toBe(false);
	});

	it("when the xcsh that started it is gone (kill -9), the child stops too and its lock goes", async () => {
		for (const [i, name] of BIG_SOURCES.entries())
			placeFixture(name, join(home, ".claude", "projects", "-p", `s${i}.jsonl`));
		// tsx by its path: the parent runs in the project, where no node_modules are
		const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
		const parent = spawn(process.execPath, ["--import", tsx, join(ROOT, "test/helpers/auto-parent-child.ts")], {
			cwd: project,
			env: { ...process.env, XCSH_AGENT_DIR: temp.agentDir },
			stdio: "ignore",
		});
		const lock = autoImportLockPath();
		while (!existsSync(lock)) await new Promise((resolvePromise) => setTimeout(resolvePromise, 5));
		const child = JSON.parse(readFileSync(lock, "utf8")).pid as number;
		expect(child).not.toBe(parent.pid);
		parent.kill("SIGKILL");
		while (isProcessAlive(child)) await new Promise((resolvePromise) => setTimeout(resolvePromise, 5));
		expect(existsSync(lock)).toBe(false);
		// it stopped, not finished: the rest is for the next round
		const records = readdirSync(join(temp.agentDir, "imports")).filter((name) => name.endsWith(".json"));
		expect(records.length).toBeLessThan(BIG_SOURCES.length);
	});

	it("says which source it skipped and why", async () => {
		placeFixture("claude-code-01-short-thinking-tools.jsonl", join(home, ".claude", "projects", "-p", "s.jsonl"));
		mkdirSync(join(home, ".codex", "sessions"), { recursive: true });
		const broken = join(home, ".codex", "sessions", "rollout-broken.jsonl");
		writeFileSync(broken, "");
		const outcome = await startAutoImport(project).outcome;
		expect(outcome).toEqual({
			kind: "done",
			arrivals: { added: { "claude-code": 1 }, updated: {}, skipped: 1 },
			skipped: [{ source: broken, reason: "empty file" }],
		});
	});

	it("a command that cannot start is a failure with its reason, never a throw", async () => {
		const outcome = await startAutoImport(project, [join(temp.root, "missing.js")]).outcome;
		expect(outcome.kind).toBe("failed");
		expect(outcome.kind === "failed" && outcome.reason).toMatch(/^Cannot find module /);
		expect(autoImportCommand(pathToFileURL(join(temp.root, "x.js")).href)).toBeUndefined();
		expect(autoImportCommand(pathToFileURL(resolve("dist/chunk.js")).href)).toEqual([resolve("dist/auto-import.js")]);
	});

	it("takes Gemini CLI chats of the project it runs in only (Gemini keeps only a hash of it)", () => {
		const hash = createHash("sha256").update(project).digest("hex");
		mkdirSync(join(home, ".gemini", "tmp", "0123abcd"), { recursive: true });
		mkdirSync(join(home, ".claude", "projects"), { recursive: true });
		expect(autoImportHomes(project, home)).toEqual([{ tool: "claude-code", path: join(home, ".claude", "projects") }]);
		mkdirSync(join(home, ".gemini", "tmp", hash));
		expect(autoImportHomes(project, home)).toEqual([
			{ tool: "claude-code", path: join(home, ".claude", "projects") },
			{ tool: "gemini", path: join(home, ".gemini", "tmp", hash) },
		]);
	});
});
