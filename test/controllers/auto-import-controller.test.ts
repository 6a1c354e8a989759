import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AutoImportController, type AutoImportControllerOptions } from "../../controllers/auto-import-controller.js";
import { type AutoRun, type AutoRunOutcome, startAutoImport } from "../../source/import/auto-import-process.js";
import { type AutoSetting, readAutoSetting } from "../../source/import/auto-setting.js";
import { type LogSink, setLogSink } from "../../source/logger.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { placeFixture } from "../import/import-helpers.js";

/** Resolves once `check` holds, checked after every change of the controller and every round. */
function until(controller: AutoImportController, check: () => boolean): Promise<void> {
	return new Promise((resolve) => {
		const poll = () => {
			if (check()) {
				unsubscribe();
				resolve();
			} else setImmediate(poll);
		};
		const unsubscribe = controller.subscribe(poll);
		poll();
	});
}

const nothing: AutoRunOutcome = { kind: "done", arrivals: { added: {}, updated: {}, skipped: 0 }, skipped: [] };

describe("auto import in a running xcsh", () => {
	const temp = useTempAgentDir();
	const controllers: AutoImportController[] = [];
	const logged: string[] = [];
	let previousSink: LogSink;
	beforeEach(() => {
		previousSink = setLogSink((level, message) => logged.push(`${level} ${message}`));
	});
	afterEach(() => {
		for (const controller of controllers.splice(0)) controller.dispose();
		setLogSink(previousSink);
		logged.length = 0;
	});
	const make = (options: Partial<AutoImportControllerOptions>) => {
		const controller = new AutoImportController({
			cwd: join(temp.root, "project"),
			readSetting: () => readAutoSetting(),
			startRun: (cwd) => startAutoImport(cwd),
			onArrived: () => undefined,
			onSettingProblem: () => undefined,
			...options,
		});
		controllers.push(controller);
		return controller;
	};
	const setting = (text: string) => {
		mkdirSync(temp.agentDir, { recursive: true });
		writeFileSync(join(temp.agentDir, "settings.json"), text);
	};

	it("with import.auto on, imports in a child process and notes what came in, for a while", async () => {
		const home = join(temp.root, "home");
		placeFixture("claude-code-01-short-thinking-tools.jsonl", join(home, ".claude", "projects", "-p", "s.jsonl"));
		setting('{"import": {"auto": true}}');
		mkdirSync(join(temp.root, "project"));
		const saved = process.env.HOME;
		process.env.HOME = home;
		try {
			let arrived = 0;
			const controller = make({ onArrived: () => arrived++, noteMs: 200 });
			expect(controller.getSnapshot()).toEqual({ note: undefined });
			controller.start(0);
			await until(controller, () => controller.getSnapshot().note !== undefined);
			expect(controller.getSnapshot().note).toBe("imported 1 session from Claude Code");
			expect(arrived).toBe(1);
			expect(logged).toContain("info auto import is on (settings.json import.auto)");
			expect(logged).toContain("info auto import: imported 1 session from Claude Code");
			await until(controller, () => controller.getSnapshot().note === undefined);
		} finally {
			process.env.HOME = saved;
		}
	});

	it("with it off, reads the setting every round and starts nothing", async () => {
		let reads = 0;
		let starts = 0;
		const controller = make({
			readSetting: async () => {
				reads++;
				return readAutoSetting();
			},
			startRun: () => {
				starts++;
				return { outcome: Promise.resolve(nothing), stop: () => undefined };
			},
			intervalMs: 1,
		});
		controller.start(0);
		await until(controller, () => reads >= 3);
		expect(starts).toBe(0);
		expect(logged).toEqual(["info auto import is off (settings.json import.auto)"]);
	});

	it("a bad setting is said once, and nothing is started", async () => {
		setting('{"import": {"auto": "yes"}}');
		const problems: string[] = [];
		let reads = 0;
		const controller = make({
			readSetting: async () => {
				reads++;
				return readAutoSetting();
			},
			onSettingProblem: (text) => problems.push(text),
			startRun: () => expect.fail("started"),
			intervalMs: 1,
		});
		controller.start(0);
		await until(controller, () => reads >= 3);
		expect(problems).toEqual(["settings.json: import.auto must be true or false; auto import stays off"]);
	});

	it("runs one round at a time: the next starts only after the last one ended", async () => {
		const events: string[] = [];
		const ends: (() => void)[] = [];
		const on: AutoSetting = { kind: "on" };
		const controller = make({
			readSetting: async () => on,
			startRun: (): AutoRun => {
				const n = events.filter((e) => e.startsWith("start")).length + 1;
				events.push(`start ${n}`);
				return {
					outcome: new Promise((resolve) =>
						ends.push(() => {
							events.push(`end ${n}`);
							resolve(nothing);
						}),
					),
					stop: () => events.push(`stop ${n}`),
				};
			},
			intervalMs: 1,
		});
		controller.start(0);
		await until(controller, () => ends.length === 1);
		ends[0]!();
		await until(controller, () => ends.length === 2);
		expect(events).toEqual(["start 1", "end 1", "start 2"]);
		// quitting stops the import under way
		controller.dispose();
		expect(events).toEqual(["start 1", "end 1", "start 2", "stop 2"]);
	});

	it("another import under way is no news; a failure is logged once, however often it comes back", async () => {
		const outcomes: AutoRunOutcome[] = [
			{ kind: "busy", pid: 42 },
			{ kind: "failed", reason: "exited with code 1" },
			{ kind: "failed", reason: "exited with code 1" },
			{
				kind: "done",
				arrivals: { added: {}, updated: {}, skipped: 1 },
				skipped: [{ source: "/h/.codex/sessions/x.jsonl", reason: "empty file" }],
			},
			{
				kind: "done",
				arrivals: { added: {}, updated: {}, skipped: 1 },
				skipped: [{ source: "/h/.codex/sessions/x.jsonl", reason: "empty file" }],
			},
		];
		let arrived = 0;
		const controller = make({
			readSetting: async () => ({ kind: "on" }),
			startRun: () => ({ outcome: Promise.resolve(outcomes.shift() ?? nothing), stop: () => undefined }),
			onArrived: () => arrived++,
			intervalMs: 1,
		});
		controller.start(0);
		await until(controller, () => outcomes.length === 0);
		await controller.settled();
		expect(controller.getSnapshot().note).toBeUndefined();
		expect(arrived).toBe(0);
		expect(logged).toEqual([
			"info auto import is on (settings.json import.auto)",
			"warn auto import failed: exited with code 1",
			"warn auto import skipped /h/.codex/sessions/x.jsonl: empty file",
		]);
	});
});
