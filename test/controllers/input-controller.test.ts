import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { type HistoryRecorder, type HistorySource, InputController } from "../../controllers/input-controller.js";
import { completePath } from "../../source/path-completion.js";
import type { HistoryStorage } from "../../source/session/history-storage.js";

function setup(entries: readonly string[] = []) {
	const added: { prompt: string; cwd: string | undefined }[] = [];
	const queries: { query: string; limit: number }[] = [];
	const recorder: HistoryRecorder = { add: (prompt, cwd) => added.push({ prompt, cwd }) };
	const source: HistorySource = {
		getRecent: (limit) => entries.slice(0, limit).map((prompt) => ({ prompt })),
		search: (query, limit) => {
			queries.push({ query, limit });
			return entries.filter((prompt) => prompt.includes(query)).map((prompt) => ({ prompt }));
		},
	};
	const controller = new InputController({ recorder, source, cwd: "/project" });
	return { controller, added, queries };
}

const IDLE = { isStreaming: false };
const STREAMING = { isStreaming: true };

describe("InputController.route", () => {
	it("refuses a message to a read-only session without recording it, and still runs commands", () => {
		const { controller, added } = setup();
		const refusal = "This session is open read-only (another xcsh has it): /fork to continue in a copy";
		expect(controller.route("keep me", { isStreaming: false, refusal })).toEqual({
			kind: "refused",
			text: "keep me",
			reason: refusal,
		});
		expect(controller.route("/fork", { isStreaming: false, refusal })).toEqual({
			kind: "command",
			name: "fork",
			args: "",
		});
		expect(added).toEqual([]);
	});

	it("routes a slash line to a command with name and args", () => {
		const { controller } = setup();
		expect(controller.route("/model gpt-5", IDLE)).toEqual({ kind: "command", name: "model", args: "gpt-5" });
		expect(controller.route("/help", IDLE)).toEqual({ kind: "command", name: "help", args: "" });
		expect(controller.route("  /compact   keep  the  tests \n", IDLE)).toEqual({
			kind: "command",
			name: "compact",
			args: "keep  the  tests",
		});
		expect(controller.route("/note line one\n  line two", IDLE)).toEqual({
			kind: "command",
			name: "note",
			args: "line one\n  line two",
		});
		expect(controller.route("/", IDLE)).toEqual({ kind: "command", name: "", args: "" });
	});

	it("routes commands as commands while streaming too", () => {
		const { controller } = setup();
		expect(controller.route("/abort", STREAMING)).toEqual({ kind: "command", name: "abort", args: "" });
	});

	it("routes ordinary text to a prompt when idle and to steer while streaming", () => {
		const { controller } = setup();
		expect(controller.route("fix the bug", IDLE)).toEqual({ kind: "prompt", text: "fix the bug" });
		expect(controller.route("look at utils.ts instead", STREAMING)).toEqual({
			kind: "steer",
			text: "look at utils.ts instead",
		});
	});

	it("routes >> to a follow-up while streaming and to a plain prompt when idle", () => {
		const { controller } = setup();
		expect(controller.route(">> then run the tests", STREAMING)).toEqual({
			kind: "follow-up",
			text: "then run the tests",
		});
		expect(controller.route(">>commit it", IDLE)).toEqual({ kind: "prompt", text: "commit it" });
		expect(controller.route(">>   ", STREAMING)).toEqual({ kind: "ignore" });
	});

	it("ignores blank lines", () => {
		const { controller } = setup();
		expect(controller.route("", IDLE)).toEqual({ kind: "ignore" });
		expect(controller.route("  \n\t ", STREAMING)).toEqual({ kind: "ignore" });
	});

	it("records prompts, steers and follow-ups with the cwd, never commands or blanks", () => {
		const { controller, added } = setup();
		controller.route("/model x", IDLE);
		controller.route("   ", IDLE);
		controller.route("first", IDLE);
		controller.route("steer me", STREAMING);
		controller.route(">> later", STREAMING);
		expect(added).toEqual([
			{ prompt: "first", cwd: "/project" },
			{ prompt: "steer me", cwd: "/project" },
			{ prompt: "later", cwd: "/project" },
		]);
	});
});

describe("InputController history passthroughs", () => {
	it("getRecent returns prompt strings, newest first, limited", () => {
		const { controller } = setup(["newest", "middle", "oldest"]);
		expect(controller.getRecent()).toEqual(["newest", "middle", "oldest"]);
		expect(controller.getRecent(2)).toEqual(["newest", "middle"]);
	});

	it("search passes the query through, removes duplicates and skips blank queries", () => {
		const { controller, queries } = setup(["fix tests", "fix lint", "fix tests"]);
		expect(controller.search("fix", 10)).toEqual(["fix tests", "fix lint"]);
		expect(queries).toEqual([{ query: "fix", limit: 10 }]);
		expect(controller.search("  ")).toEqual([]);
		expect(queries).toHaveLength(1);
	});

	it("recalled prompts come back with their control characters made visible (they reach the editor)", () => {
		const hostile = "title\u001b]0;PWNED\u0007\u001b[2J\nsecond line";
		const { controller } = setup([hostile]);
		const shown = "title\u241b]0;PWNED\u2407\u241b[2J\nsecond line";
		expect(controller.getRecent()).toEqual([shown]);
		expect(controller.search("title")).toEqual([shown]);
	});

	it("accepts a HistoryStorage as recorder and source", () => {
		expectTypeOf<HistoryStorage>().toExtend<HistoryRecorder & HistorySource>();
	});
});

describe("completePath", () => {
	let dir = "";
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), "xcsh-complete-"));
		mkdirSync(join(dir, "src"));
		mkdirSync(join(dir, "scripts"));
		writeFileSync(join(dir, "src", "editor.ts"), "");
		writeFileSync(join(dir, "src", "editor-buffer.ts"), "");
		writeFileSync(join(dir, "README.md"), "");
		writeFileSync(join(dir, ".env"), "");
		symlinkSync(join(dir, "src"), join(dir, "linked"));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it("completes a single match fully, with a slash for directories", () => {
		expect(completePath(dir, "REA")).toEqual({ insert: "DME.md", candidates: [] });
		// The editor gets it through the controller, relative to the directory the app passes (the session's).
		expect(setup().controller.completePath(dir, "REA")).toEqual({ insert: "DME.md", candidates: [] });
		expect(completePath(dir, "sr")).toEqual({ insert: "c/", candidates: [] });
		expect(completePath(dir, "lin")).toEqual({ insert: "ked/", candidates: [] });
	});

	it("completes the common prefix of several matches and lists them", () => {
		expect(completePath(dir, "s")).toEqual({ insert: "", candidates: ["scripts/", "src/"] });
		expect(completePath(dir, "src/e")).toEqual({ insert: "ditor", candidates: ["editor-buffer.ts", "editor.ts"] });
	});

	it("offers dotfiles only when the name starts with a dot", () => {
		expect(completePath(dir, "").candidates).not.toContain(".env");
		expect(completePath(dir, ".e")).toEqual({ insert: "nv", candidates: [] });
	});

	it("completes absolute paths and returns nothing for missing directories", () => {
		expect(completePath("/nowhere", `${dir}/READ`)).toEqual({ insert: "ME.md", candidates: [] });
		expect(completePath(dir, "missing/x")).toEqual({ insert: "", candidates: [] });
		expect(completePath(dir, "zzz")).toEqual({ insert: "", candidates: [] });
	});
});
