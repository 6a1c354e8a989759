import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
	DELETE_OPEN_SESSION_NOTICE,
	RENAME_OPEN_SESSION_NOTICE,
	RESUME_CANCELLED_NOTICE,
	SelectorController,
	type SelectorControllerOptions,
	type SelectorSnapshot,
} from "../../controllers/selector-controller.js";
import { SessionIndex } from "../../source/index/session-index.js";
import { getArtifactsDir } from "../../source/session/artifacts.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { getTerminalSessionsDir } from "../../source/session/session-paths.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const FIXED_NOW = new Date("2025-01-02T03:04:05.678Z");
const STAMP = "2025-01-02T03-04-05-678Z";

/** A real session file with one user and one assistant message. */
async function makeSession(cwd: string, text: string): Promise<string> {
	const manager = await SessionManager.create(cwd);
	manager.appendMessage(userMessage(text));
	manager.appendMessage(assistantMessage(`reply to ${text}`));
	await manager.flush();
	const file = manager.getSessionFile()!;
	await manager.close();
	return file;
}

function controllerFor(cwd: string, overrides: Partial<SelectorControllerOptions> = {}) {
	return new SelectorController({
		cwd,
		currentSessionFile: () => undefined,
		switchSession: async () => true,
		now: () => FIXED_NOW,
		...overrides,
	});
}

describe("SelectorController", () => {
	const tmp = useTempAgentDir();
	const trashDir = () => join(tmp.agentDir, "trash");
	let projectA: string;
	let projectB: string;
	let savedTerminalId: string | undefined;

	beforeEach(() => {
		projectA = join(tmp.root, "project-a");
		projectB = join(tmp.root, "project-b");
		savedTerminalId = process.env.XCSH_TERMINAL_ID;
		// A known terminal id, so the breadcrumb side effect of SessionManager.open is observable.
		process.env.XCSH_TERMINAL_ID = "selector-test";
	});

	afterEach(() => {
		if (savedTerminalId === undefined) delete process.env.XCSH_TERMINAL_ID;
		else process.env.XCSH_TERMINAL_ID = savedTerminalId;
		vi.restoreAllMocks();
	});

	it("loads this project's sessions, then every project's, with a new snapshot per change", async () => {
		const a1 = await makeSession(projectA, "first in A");
		const a2 = await makeSession(projectA, "second in A");
		const b1 = await makeSession(projectB, "only in B");
		const controller = controllerFor(projectA);
		const seen: SelectorSnapshot[] = [];
		const unsubscribe = controller.subscribe(() => seen.push(controller.getSnapshot()));

		await controller.load("project");
		expect(seen[0]).toMatchObject({ scope: "project", loading: true });
		const project = controller.getSnapshot();
		expect(project.loading).toBe(false);
		expect(project.error).toBeUndefined();
		expect(project.sessions.map((s) => s.path).sort()).toEqual([a1, a2].sort());
		expect(project.sessions.find((s) => s.path === a1)).toMatchObject({
			cwd: projectA,
			messageCount: 2,
			firstMessage: "first in A",
		});
		expect(Object.isFrozen(project)).toBe(true);
		expect(new Set(seen).size).toBe(seen.length);

		await controller.toggleScope();
		const all = controller.getSnapshot();
		expect(all.scope).toBe("all");
		expect(all.sessions.map((s) => s.path).sort()).toEqual([a1, a2, b1].sort());
		expect(all).not.toBe(project);

		await controller.toggleScope();
		expect(controller.getSnapshot().scope).toBe("project");
		expect(controller.getSnapshot().sessions).toHaveLength(2);
		unsubscribe();
		const count = seen.length;
		await controller.load("all");
		expect(seen).toHaveLength(count);
	});

	it("lists an explicit session directory", async () => {
		const dir = join(tmp.root, "custom-sessions");
		const manager = await SessionManager.create(projectA, { sessionDir: dir });
		manager.appendMessage(userMessage("in a custom dir"));
		manager.appendMessage(assistantMessage("ok"));
		await manager.close();
		const controller = controllerFor(projectA, { sessionDir: dir });
		await controller.load("project");
		expect(controller.getSnapshot().sessions.map((s) => s.firstMessage)).toEqual(["in a custom dir"]);
	});

	it("turns a listing failure into an error", async () => {
		vi.spyOn(SessionIndex.prototype, "refresh").mockRejectedValueOnce(new Error("disk on fire"));
		const controller = controllerFor(projectA);
		await controller.load("project");
		expect(controller.getSnapshot()).toMatchObject({ loading: false, sessions: [], error: "disk on fire" });
		await controller.load("project");
		expect(controller.getSnapshot().error).toBeUndefined();
	});

	it("paints what the index holds at once, then what the refresh found, and says what changed", async () => {
		const first = await makeSession(projectA, "first");
		const controller = controllerFor(projectA);
		await controller.load("project");
		expect(controller.getSnapshot().notice).toBeUndefined();
		const second = await makeSession(projectA, "second");

		const snapshots: SelectorSnapshot[] = [];
		const unsubscribe = controller.subscribe(() => snapshots.push(controller.getSnapshot()));
		await controller.load("project");
		unsubscribe();

		const cachedPaint = snapshots.find((s) => s.loading && s.sessions.length > 0);
		expect(cachedPaint?.sessions.map((s) => s.path)).toEqual([first]);
		expect(controller.getSnapshot()).toMatchObject({ loading: false, notice: "Refreshed: 1 new" });
		const paths = controller.getSnapshot().sessions.map((s) => s.path);
		expect(paths.sort()).toEqual([first, second].sort());
	});

	it("reports how far a long first indexing has got", async () => {
		for (let i = 0; i < 55; i++) await makeSession(projectA, `bulk ${i}`);
		const controller = controllerFor(projectA);
		const progress: string[] = [];
		const unsubscribe = controller.subscribe(() => {
			const { progress: text } = controller.getSnapshot();
			if (text !== undefined && progress.at(-1) !== text) progress.push(text);
		});
		await controller.load("project");
		unsubscribe();
		expect(progress.at(-1)).toBe("55 of 55");
		expect(controller.getSnapshot().progress).toBeUndefined();
		expect(controller.getSnapshot().sessions).toHaveLength(55);
	});

	it("reads the session files when the index cannot be opened", async () => {
		const only = await makeSession(projectA, "no index");
		vi.spyOn(SessionIndex, "open").mockImplementation(() => {
			throw new Error("no sqlite here");
		});
		const controller = controllerFor(projectA);
		await controller.load("project");
		expect(controller.getSnapshot()).toMatchObject({ loading: false });
		expect(controller.getSnapshot().sessions.map((s) => s.path)).toEqual([only]);
		expect(controller.getSnapshot().error).toBeUndefined();
	});

	it("moves a deleted session file and its artifacts directory into the trash", async () => {
		const doomed = await makeSession(projectA, "delete me");
		const kept = await makeSession(projectA, "keep me");
		const artifacts = getArtifactsDir(doomed);
		mkdirSync(artifacts, { recursive: true });
		writeFileSync(join(artifacts, "bash-1.log"), "output");
		const controller = controllerFor(projectA, { currentSessionFile: () => kept });
		await controller.load("project");

		await controller.deleteSession(doomed);

		const trashedFile = join(trashDir(), `${STAMP}_${basename(doomed)}`);
		const trashedArtifacts = join(trashDir(), `${STAMP}_${basename(artifacts)}`);
		expect(existsSync(doomed)).toBe(false);
		expect(existsSync(artifacts)).toBe(false);
		expect(readFileSync(trashedFile, "utf8")).toContain("delete me");
		expect(readFileSync(join(trashedArtifacts, "bash-1.log"), "utf8")).toBe("output");
		expect(readdirSync(trashDir()).sort()).toEqual([basename(trashedArtifacts), basename(trashedFile)].sort());
		expect(controller.getSnapshot().sessions.map((s) => s.path)).toEqual([kept]);
		expect(controller.getSnapshot().error).toBeUndefined();
	});

	it("copies and removes when the trash is on another device", async () => {
		const doomed = await makeSession(projectA, "across devices");
		mkdirSync(getArtifactsDir(doomed), { recursive: true });
		writeFileSync(join(getArtifactsDir(doomed), "note.txt"), "n");
		const exdev = async () => {
			throw Object.assign(new Error("EXDEV: cross-device link not permitted"), { code: "EXDEV" });
		};
		const controller = new SelectorController(
			{ cwd: projectA, currentSessionFile: () => undefined, switchSession: async () => true, now: () => FIXED_NOW },
			exdev,
		);
		await controller.deleteSession(doomed);
		expect(existsSync(doomed)).toBe(false);
		expect(readFileSync(join(trashDir(), `${STAMP}_${basename(doomed)}`), "utf8")).toContain("across devices");
		expect(readFileSync(join(trashDir(), `${STAMP}_${basename(getArtifactsDir(doomed))}`, "note.txt"), "utf8")).toBe(
			"n",
		);
	});

	it("refuses to delete the open session", async () => {
		const open = await makeSession(projectA, "I am open");
		const controller = controllerFor(projectA, { currentSessionFile: () => open });
		await controller.load("project");
		await controller.deleteSession(open);
		expect(controller.getSnapshot().notice).toBe("Switch to another session before deleting the open one");
		expect(DELETE_OPEN_SESSION_NOTICE).toBe("Switch to another session before deleting the open one");
		expect(existsSync(open)).toBe(true);
		expect(existsSync(trashDir())).toBe(false);
	});

	it("reports a missing file as an error after a delete", async () => {
		const controller = controllerFor(projectA);
		await controller.deleteSession(join(tmp.root, "gone.jsonl"));
		expect(controller.getSnapshot().error).toBe(`Session file not found: ${join(tmp.root, "gone.jsonl")}`);
	});

	it("renames a session on disk and leaves this terminal's breadcrumb alone", async () => {
		const target = await makeSession(projectA, "rename me");
		mkdirSync(getTerminalSessionsDir(), { recursive: true });
		const crumb = join(getTerminalSessionsDir(), "selector-test");
		writeFileSync(crumb, `${projectA}\n/some/other/session.jsonl\n`);
		const controller = controllerFor(projectA);
		await controller.load("project");

		await controller.renameSession(target, "  A better name  ");

		const header = JSON.parse(readFileSync(target, "utf8").split("\n")[0]!) as { title?: string };
		expect(header.title).toBe("A better name");
		expect(controller.getSnapshot().sessions[0]?.title).toBe("A better name");
		expect(readFileSync(crumb, "utf8")).toBe(`${projectA}\n/some/other/session.jsonl\n`);
		expect(readFileSync(target, "utf8")).toContain("rename me");
	});

	it("renames the open session only through its live manager", async () => {
		const open = await makeSession(projectA, "open one");
		const live = vi.fn(async (_name: string) => undefined);
		const withLive = controllerFor(projectA, { currentSessionFile: () => open, renameCurrentSession: live });
		await withLive.renameSession(open, "Live name");
		expect(live).toHaveBeenCalledWith("Live name");

		const withoutLive = controllerFor(projectA, { currentSessionFile: () => open });
		await withoutLive.renameSession(open, "Nope");
		expect(withoutLive.getSnapshot().notice).toBe("The open session cannot be renamed from here");
		expect(RENAME_OPEN_SESSION_NOTICE).toBe("The open session cannot be renamed from here");
		expect(readFileSync(open, "utf8")).not.toContain("Nope");
	});

	it("reports a rename of a missing file as an error", async () => {
		const controller = controllerFor(projectA);
		await controller.renameSession(join(tmp.root, "missing.jsonl"), "x");
		expect(controller.getSnapshot().error).toBe(`Session file not found: ${join(tmp.root, "missing.jsonl")}`);
		expect(existsSync(join(tmp.root, "missing.jsonl"))).toBe(false);
	});

	it("checks the result of switchSession when resuming", async () => {
		const target = await makeSession(projectA, "resume me");
		const switched: string[] = [];
		const yes = controllerFor(projectA, {
			switchSession: async (path) => {
				switched.push(path);
				return true;
			},
		});
		await expect(yes.resumeSession(target)).resolves.toBe("resumed");
		expect(switched).toEqual([target]);

		const vetoed = controllerFor(projectA, { switchSession: async () => false });
		await expect(vetoed.resumeSession(target)).resolves.toBe("cancelled");
		expect(vetoed.getSnapshot().notice).toBe("Resume cancelled by an extension");
		expect(RESUME_CANCELLED_NOTICE).toBe("Resume cancelled by an extension");

		const broken = controllerFor(projectA, {
			switchSession: async () => {
				throw new Error("Not a session file: x");
			},
		});
		await expect(broken.resumeSession(target)).resolves.toBe("failed");
		expect(broken.getSnapshot().error).toBe("Not a session file: x");
	});

	it("says how far reading a big session got while it opens, and clears it after", async () => {
		const target = await makeSession(projectA, "a big one");
		const notices: (string | undefined)[] = [];
		const controller = controllerFor(projectA, {
			switchSession: async (_path, options) => {
				options?.progress?.onProgress?.(40e6, 100e6);
				notices.push(controller.getSnapshot().notice);
				options?.progress?.onProgress?.(100e6, 100e6);
				return true;
			},
		});
		await expect(controller.resumeSession(target)).resolves.toBe("resumed");
		expect(notices).toEqual(["Reading session… 40 of 100 MB · Esc cancels"]);
		expect(controller.getSnapshot().notice).toBeUndefined();
	});

	it("stops reading a big session on request (Escape), and says nothing was opened", async () => {
		const target = await makeSession(projectA, "a big one");
		let reading: (() => void) | undefined;
		const controller = controllerFor(projectA, {
			// Like the loader: it reads until its signal is aborted, then throws the reason.
			switchSession: (_path, options) =>
				new Promise<boolean>((_resolve, reject) => {
					const signal = options?.progress?.signal;
					signal?.addEventListener("abort", () => reject(signal.reason));
					reading?.();
				}),
		});
		expect(controller.stopReading()).toBe(false);
		const started = new Promise<void>((resolve) => {
			reading = resolve;
		});
		const outcome = controller.resumeSession(target);
		await started;
		expect(controller.stopReading()).toBe(true);
		await expect(outcome).resolves.toBe("stopped");
		expect(controller.getSnapshot().notice).toBe(`Stopped reading ${basename(target)}: nothing was opened or changed`);
		expect(controller.getSnapshot().error).toBeUndefined();
		expect(controller.stopReading()).toBe(false);
	});
});
