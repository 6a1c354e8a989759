import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { CHECKPOINT_CUSTOM_TYPE, type CheckpointData } from "../../source/checkpoints/checkpoint-data.js";
import { checkpointStoreDir } from "../../source/checkpoints/store-location.js";
import { HOME_DIR_NOTICE, RECORDING_ACTIVITY, TurnCheckpoints } from "../../source/checkpoints/turn-checkpoints.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** A persisted session in `cwd` whose file is in the temp agent dir. */
async function sessionIn(cwd: string): Promise<SessionManager> {
	return SessionManager.create(cwd);
}

function checkpoints(session: SessionManager): CheckpointData[] {
	return session
		.getEntries()
		.filter((e) => e.type === "custom" && (e as { customType: string }).customType === CHECKPOINT_CUSTOM_TYPE)
		.map((e) => (e as { data: CheckpointData }).data);
}

describe("TurnCheckpoints", () => {
	const temp = useTempAgentDir();

	/** A session in a new project whose first turn recorded its baseline (the store is warm). */
	async function afterBaseline(name: string) {
		const project = join(temp.root, name);
		mkdirSync(project);
		const session = await sessionIn(project);
		const hooks = new TurnCheckpoints(session, () => {});
		await hooks.prepare();
		await hooks.beforeTurn();
		await hooks.afterTurn();
		return { project, session, hooks };
	}

	it("records a baseline, then a checkpoint only for turns that changed files", async () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		const session = await sessionIn(project);
		const notices: string[] = [];
		const hooks = new TurnCheckpoints(session, (text) => notices.push(text));
		await hooks.beforeTurn();
		session.appendMessage({ role: "user", content: [{ type: "text", text: "write" }], timestamp: 1 });
		await hooks.beforeTool();
		writeFileSync(join(project, "a.txt"), "one\n");
		await hooks.afterTurn();
		await hooks.beforeTurn();
		await hooks.afterTurn();
		expect(checkpoints(session).map((c) => c.kind)).toEqual(["baseline", "turn"]);
		expect(notices).toEqual([]);
		await session.close();
	});

	it("is off with one line in the home directory, and when the store cannot be made", async () => {
		const atHome = await SessionManager.create(homedir(), { sessionDir: join(temp.root, "s1") });
		const homeNotices: string[] = [];
		const home = new TurnCheckpoints(atHome, (text) => homeNotices.push(text));
		await home.beforeTurn();
		await home.afterTurn();
		await home.beforeTurn();
		expect(homeNotices).toEqual([HOME_DIR_NOTICE]);
		expect(checkpoints(atHome)).toEqual([]);
		await atHome.close();

		const project = join(temp.root, "blocked");
		mkdirSync(project);
		// A file where the store's folder should be.
		mkdirSync(join(checkpointStoreDir(project), ".."), { recursive: true });
		writeFileSync(checkpointStoreDir(project), "not a folder");
		const session = await sessionIn(project);
		const notices: string[] = [];
		const hooks = new TurnCheckpoints(session, (text) => notices.push(text));
		await hooks.beforeTurn();
		await hooks.afterTurn();
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(/^checkpoints are off: /);
		await session.close();
	});

	it("prepare() takes the project's first snapshot in the background; a turn that comes first waits with an activity", async () => {
		const project = join(temp.root, "warm");
		mkdirSync(project);
		for (let i = 0; i < 50; i++) writeFileSync(join(project, `f${i}.txt`), `${i}\n`);
		const session = await sessionIn(project);
		const activity: (string | undefined)[] = [];
		const hooks = new TurnCheckpoints(
			session,
			() => {},
			(label) => activity.push(label),
		);
		const warming = hooks.prepare();
		// The first prompt arrives while the first snapshot is still being taken.
		const before = hooks.beforeTurn();
		expect(activity).toEqual([RECORDING_ACTIVITY]);
		await before;
		expect(activity).toEqual([RECORDING_ACTIVITY, undefined]);
		await warming;
		expect(existsSync(join(checkpointStoreDir(project), "HEAD"))).toBe(true);
		session.appendMessage({ role: "user", content: [{ type: "text", text: "write" }], timestamp: 1 });
		await hooks.beforeTool();
		writeFileSync(join(project, "a.txt"), "one\n");
		await hooks.afterTurn();
		expect(checkpoints(session).map((c) => c.kind)).toEqual(["baseline", "turn"]);
		expect(checkpoints(session)[1]).toMatchObject({ files: [{ path: "a.txt", status: "added" }] });
		await session.close();
	});

	it("after prepare() has finished, a turn records without waiting (no activity shown)", async () => {
		const project = join(temp.root, "ready");
		mkdirSync(project);
		writeFileSync(join(project, "x.txt"), "x\n");
		const session = await sessionIn(project);
		const activity: (string | undefined)[] = [];
		const hooks = new TurnCheckpoints(
			session,
			() => {},
			(label) => activity.push(label),
		);
		await hooks.prepare();
		// The store and the first commit exist before any turn.
		expect(existsSync(join(checkpointStoreDir(project), "HEAD"))).toBe(true);
		expect(checkpoints(session)).toEqual([]);
		await hooks.beforeTurn();
		await hooks.afterTurn();
		expect(activity).toEqual([]);
		expect(checkpoints(session).map((c) => c.kind)).toEqual(["baseline"]);
		await session.close();
	});

	it("after the baseline, a turn's snapshot before it runs while the model is asked: tools wait for it", async () => {
		const { project, session, hooks } = await afterBaseline("overlap");
		const ref = join(checkpointStoreDir(project), "refs", "xcsh", "sessions", session.getSessionId());
		const baseline = readFileSync(ref, "utf8");
		// Changed outside xcsh between turns: the next turn's "before" snapshot records it.
		writeFileSync(join(project, "outside.txt"), "outside\n");
		await hooks.beforeTurn();
		expect(readFileSync(ref, "utf8")).toBe(baseline);
		await hooks.beforeTool();
		const before = readFileSync(ref, "utf8");
		expect(before).not.toBe(baseline);
		writeFileSync(join(project, "tool.txt"), "tool\n");
		await hooks.afterTurn();
		const turn = checkpoints(session).at(-1);
		expect(turn).toMatchObject({ kind: "turn", before: before.trim(), files: [{ path: "tool.txt", status: "added" }] });
		await session.close();
	});

	it("a turn that ran no tool records no checkpoint, whatever changed meanwhile", async () => {
		const project = join(temp.root, "chat-only");
		mkdirSync(project);
		const session = await sessionIn(project);
		const hooks = new TurnCheckpoints(session, () => {});
		await hooks.beforeTurn();
		writeFileSync(join(project, "typed-by-hand.txt"), "mine\n");
		await hooks.afterTurn();
		expect(checkpoints(session).map((c) => c.kind)).toEqual(["baseline"]);
		await session.close();
	});

	it("the snapshot after a turn's tools starts when they end (afterTool), so the model's answer overlaps it", async () => {
		const { project, session, hooks } = await afterBaseline("after-tools");
		const ref = join(checkpointStoreDir(project), "refs", "xcsh", "sessions", session.getSessionId());
		await hooks.beforeTurn();
		await hooks.beforeTool();
		const before = readFileSync(ref, "utf8");
		writeFileSync(join(project, "a.txt"), "a\n");
		hooks.afterTool();
		// The snapshot is taken with no afterTurn yet: the model is still answering.
		await vi.waitFor(() => expect(readFileSync(ref, "utf8")).not.toBe(before), { timeout: 10_000, interval: 20 });
		const afterTools = readFileSync(ref, "utf8").trim();
		await hooks.afterTurn();
		expect(checkpoints(session).at(-1)).toMatchObject({
			kind: "turn",
			commit: afterTools,
			files: [{ path: "a.txt", status: "added" }],
		});
		await session.close();
	});

	it("a tool that starts after the last afterTool (or never reports its end) is in the turn's checkpoint", async () => {
		const { project, session, hooks } = await afterBaseline("late-tool");
		await hooks.beforeTurn();
		await hooks.beforeTool();
		writeFileSync(join(project, "a.txt"), "a\n");
		hooks.afterTool();
		await hooks.beforeTool();
		writeFileSync(join(project, "b.txt"), "b\n");
		// Aborted: no afterTool for the second tool.
		await hooks.afterTurn();
		expect(checkpoints(session).at(-1)).toMatchObject({
			kind: "turn",
			files: [
				{ path: "a.txt", status: "added" },
				{ path: "b.txt", status: "added" },
			],
		});
		await session.close();
	});
});
