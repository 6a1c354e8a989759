import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AppScreen } from "../../controllers/app-state.js";
import { NO_DIFFERENCES, RewindController } from "../../controllers/rewind-controller.js";
import { RESTORE_READ_ONLY, RESTORE_WHILE_STREAMING } from "../../source/checkpoints/session-rewind.js";
import { TurnCheckpoints } from "../../source/checkpoints/turn-checkpoints.js";
import { RESTORE_CANCELLED, rewindResult } from "../../source/commands/rewind.js";
import type { CommandResult } from "../../source/commands/types.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useCommandHarness } from "../helpers/command-harness.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

describe("/rewind and restores from the UI", () => {
	const { state, temp, rebuild } = useCommandHarness();
	let project: string;
	const read = (name: string) => {
		const path = join(project, name);
		return existsSync(path) ? readFileSync(path, "utf8") : undefined;
	};

	/** One turn, recorded as the app records it: the checkpoint hooks around messages and file writes. */
	async function turn(prompt: string, write: () => void): Promise<{ user: string; answer: string }> {
		const manager = state.session.sessionManager;
		const hooks = new TurnCheckpoints(manager, () => {});
		await hooks.beforeTurn();
		const user = manager.appendMessage(userMessage(prompt));
		await hooks.beforeTool();
		write();
		const answer = manager.appendMessage(assistantMessage(`did ${prompt}`));
		await hooks.afterTurn();
		return { user, answer };
	}

	async function twoTurns() {
		const first = await turn("one", () => writeFileSync(join(project, "a.txt"), "one\n"));
		const second = await turn("two", () => {
			writeFileSync(join(project, "a.txt"), "two\n");
			writeFileSync(join(project, "b.txt"), "new\n");
		});
		return { first, second };
	}

	beforeEach(async () => {
		project = join(temp.root, "project");
		mkdirSync(project);
		await rebuild(undefined, await SessionManager.create(project));
	});

	it("/rewind opens the prompt list; /rewind undo with no restore says so; /help rewind shows the sub-command", async () => {
		expect(await state.controller.execute("rewind", "")).toEqual({ kind: "open", screen: "rewind" });
		expect(await state.controller.execute("rewind", "undo")).toEqual({
			kind: "notice",
			level: "error",
			text: "Nothing to undo: this session has no restore",
		});
		const help = (await state.controller.execute("help", "rewind")) as { text: string };
		expect(help.text).toContain("Usage: /rewind [undo]");
		expect(help.text).toContain(
			"Go back to an earlier prompt of this path, with its files; /rewind undo takes the last restore back",
		);
		expect(help.text).toContain("undo  Put the files (and the conversation) back as they were before the last restore");
	});

	it("code only puts the files back and leaves the conversation; /rewind undo takes it back", async () => {
		const { second } = await twoTurns();
		const leaf = state.session.sessionManager.getLeafId();
		const restored = await rewindResult(state.session, { kind: "entry", entryId: second.user, mode: "code" });
		expect(restored).toEqual({
			kind: "redraw",
			text: "Restored the files: 1 file written, 1 file moved to the trash · /rewind undo puts them back",
		});
		expect([read("a.txt"), read("b.txt")]).toEqual(["one\n", undefined]);
		// The leaf is the restore's marker, a child of where the conversation was.
		expect(state.session.sessionManager.getEntry(state.session.sessionManager.getLeafId()!)?.parentId).toBe(leaf);
		expect(await state.controller.execute("rewind", "undo")).toEqual({
			kind: "redraw",
			text: "Undid the last restore: 2 files written, 0 files moved to the trash",
		});
		expect([read("a.txt"), read("b.txt")]).toEqual(["two\n", "new\n"]);
	});

	it("code and conversation moves the leaf before the prompt and gives its text back to the editor", async () => {
		const { first, second } = await twoTurns();
		const result = await rewindResult(state.session, { kind: "entry", entryId: second.user, mode: "both" });
		expect(result).toEqual({
			kind: "redraw",
			text: "Restored the code and the conversation: 1 file written, 1 file moved to the trash · /rewind undo puts them back",
			editorText: "two",
		});
		const path = state.session.sessionManager.getBranchSkeleton().map((shape) => shape.id);
		expect(path).toContain(first.answer);
		expect(path).not.toContain(second.user);
		expect(state.session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		// Undo moves the conversation back too, and the agent's context with it.
		await state.controller.execute("rewind", "undo");
		expect(state.session.sessionManager.getBranchSkeleton().map((shape) => shape.id)).toContain(second.answer);
		expect(state.session.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
	});

	it("a file changed outside xcsh is listed in a confirm step; declining changes nothing, confirming restores", async () => {
		const { first } = await twoTurns();
		writeFileSync(join(project, "a.txt"), "by hand\n");
		const asked = (await rewindResult(state.session, {
			kind: "entry",
			entryId: first.answer,
			mode: "code",
		})) as Extract<CommandResult, { kind: "confirm" }>;
		expect(asked.kind).toBe("confirm");
		expect(asked.title).toBe("1 file changed outside xcsh since its last checkpoint will be overwritten: a.txt");
		expect(asked.details).toEqual(["a.txt"]);
		expect(asked.cancelNotice).toBe(RESTORE_CANCELLED);
		expect(read("a.txt")).toBe("by hand\n");
		const activity: (string | undefined)[] = [];
		const done = await asked.run({ setActivity: (label) => activity.push(label) });
		expect(activity).toEqual(["Restoring the files"]);
		expect(done).toMatchObject({ kind: "redraw" });
		expect([read("a.txt"), read("b.txt")]).toEqual(["one\n", undefined]);
	});

	it("is refused while the agent works, and in a read-only session", async () => {
		await twoTurns();
		let release = () => {};
		state.faux.setResponses([() => new Promise((resolve) => (release = () => resolve(fauxAssistantMessage("done"))))]);
		const running = state.session.prompt("slow");
		await vi.waitFor(() => expect(state.session.isStreaming).toBe(true));
		expect(await state.controller.execute("rewind", "undo")).toEqual({
			kind: "notice",
			level: "error",
			text: RESTORE_WHILE_STREAMING,
		});
		release();
		await running;

		const file = state.session.sessionManager.getSessionFile()!;
		await state.session.sessionManager.close();
		await rebuild(undefined, await SessionManager.openReadOnly(file));
		expect(await state.controller.execute("rewind", "undo")).toEqual({
			kind: "notice",
			level: "error",
			text: RESTORE_READ_ONLY,
		});
	});

	it("the diff screen says when the files are the working tree's, and why there is no diff", async () => {
		const screens: AppScreen[] = [];
		const rewind = new RewindController({
			session: state.session,
			show: (screen) => screens.push(screen),
			showChat: () => {},
			showTree: () => {},
			run: () => {},
			navigate: () => {},
		});
		const before = state.session.sessionManager.appendMessage(userMessage("nothing recorded yet"));
		await rewind.showDiff(before);
		expect(screens.at(-1)).toMatchObject({
			kind: "diff",
			lines: [`No checkpoint on the path to ${before}: its files were never recorded`],
		});
		const { second } = await twoTurns();
		await rewind.showDiff(second.answer);
		expect(screens.at(-1)).toMatchObject({ kind: "diff", entryId: second.answer, lines: [NO_DIFFERENCES] });
		expect(NO_DIFFERENCES).toBe("No differences: the files at this entry are the working tree's.");
	});
});
