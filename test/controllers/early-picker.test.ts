import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { EarlyPickerController, type EarlyPickerState } from "../../controllers/early-picker.js";
import { DELETE_OPEN_SESSION_NOTICE } from "../../controllers/selector-controller.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** An app stand-in that records picks and finishes each one when the test says so. */
function fakeApp() {
	const picks: string[] = [];
	const finish: (() => void)[] = [];
	return {
		picks,
		finish: () => finish.shift()?.(),
		pickSession: (path: string) =>
			new Promise<void>((resolve) => {
				picks.push(path);
				finish.push(resolve);
			}),
	};
}

function states(controller: EarlyPickerController): EarlyPickerState[] {
	const seen: EarlyPickerState[] = [controller.getSnapshot()];
	controller.subscribe(() => seen.push(controller.getSnapshot()));
	return seen;
}

function until(controller: EarlyPickerController, kind: EarlyPickerState["kind"]): Promise<void> {
	return new Promise((resolve) => {
		if (controller.getSnapshot().kind === kind) return resolve();
		const off = controller.subscribe(() => {
			if (controller.getSnapshot().kind === kind) {
				off();
				resolve();
			}
		});
	});
}

describe("EarlyPickerController (the xcsh --resume picker drawn before the app loads)", () => {
	const tmp = useTempAgentDir();

	it("holds a pick made before the app is built, then hands it to the app and is done once the app has it", async () => {
		const early = new EarlyPickerController({ cwd: join(tmp.root, "p") });
		const seen = states(early);
		const app = fakeApp();

		early.pick("/sessions/a.jsonl");
		expect(early.getSnapshot()).toEqual({ kind: "opening", path: "/sessions/a.jsonl" });
		// A second Enter while the first pick waits changes nothing.
		early.pick("/sessions/b.jsonl");
		early.cancel();
		expect(app.picks).toEqual([]);

		early.attach(app);
		expect(app.picks).toEqual(["/sessions/a.jsonl"]);
		// The picker stays on screen until the app has taken the pick over (resumed, locked, failed).
		expect(early.getSnapshot().kind).toBe("opening");
		app.finish();
		await until(early, "done");
		expect(seen.map((s) => s.kind)).toEqual(["picking", "opening", "done"]);
	});

	it("hands a pick made after the app is built over at once", async () => {
		const early = new EarlyPickerController({ cwd: join(tmp.root, "p") });
		const app = fakeApp();
		early.attach(app);
		early.pick("/sessions/c.jsonl");
		expect(app.picks).toEqual(["/sessions/c.jsonl"]);
		app.finish();
		await until(early, "done");
	});

	it("Escape is done without a pick; the app is never asked to open anything", () => {
		const early = new EarlyPickerController({ cwd: join(tmp.root, "p") });
		const app = fakeApp();
		early.cancel();
		expect(early.getSnapshot()).toEqual({ kind: "done" });
		early.pick("/sessions/late.jsonl");
		early.attach(app);
		expect(app.picks).toEqual([]);
		expect(early.getSnapshot()).toEqual({ kind: "done" });
	});

	it("lists this project's sessions before anything is attached, and never treats one as open", async () => {
		const cwd = join(tmp.root, "project");
		const manager = await SessionManager.create(cwd);
		manager.appendMessage(userMessage("listed early"));
		manager.appendMessage(assistantMessage("reply"));
		await manager.close();
		const early = new EarlyPickerController({ cwd });
		await early.selector.load("project");
		expect(early.selector.getSnapshot().sessions.map((s) => s.path)).toEqual([manager.getSessionFile()]);
		// Nothing is open yet, so the session can be deleted from here.
		await early.selector.deleteSession(manager.getSessionFile()!);
		expect(early.selector.getSnapshot().sessions).toEqual([]);
		expect(early.selector.getSnapshot().notice).not.toBe(DELETE_OPEN_SESSION_NOTICE);
		expect(existsSync(manager.getSessionFile()!)).toBe(false);
	});

	it("start() has the index's rows in the snapshot when it returns, so the picker's first frame shows them", async () => {
		const cwd = join(tmp.root, "project");
		const manager = await SessionManager.create(cwd);
		manager.appendMessage(userMessage("indexed before the picker"));
		manager.appendMessage(assistantMessage("reply"));
		await manager.close();
		// A first listing brings the index up to date, as an earlier xcsh would have.
		await new EarlyPickerController({ cwd }).selector.load("project");

		const early = new EarlyPickerController({ cwd });
		early.start();
		const snapshot = early.selector.getSnapshot();
		expect(snapshot.sessions.map((s) => s.path)).toEqual([manager.getSessionFile()]);
		// The index's refresh behind the rows waits until the view says they are on screen.
		expect(snapshot.loading).toBe(true);
		early.shown();
		await vi.waitFor(() => expect(early.selector.getSnapshot().loading).toBe(false));
	});
});
