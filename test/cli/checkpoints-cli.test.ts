import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { fingerprint, userGit } from "../checkpoints/project-fixture.js";
import { runCliAsync } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const NO_KEYS: NodeJS.ProcessEnv = {
	ANTHROPIC_API_KEY: "",
	OPENAI_API_KEY: "",
	GEMINI_API_KEY: "",
	OPENROUTER_API_KEY: "",
};
const TURN_1 = "run echo one > a.txt";
const TURN_2 = "run echo two > a.txt && echo new > b.txt";

interface Row {
	entryId: string;
	prompt: string;
	files: { path: string; status: string; added: number; removed: number }[];
}

describe.each([
	{ kind: "a git repository", git: true },
	{ kind: "a plain folder", git: false },
])("checkpoints in $kind", ({ git }) => {
	const temp = useTempAgentDir();
	let project: string;
	let session: string;
	let rows: Row[];

	const xcsh = (args: string[], env: NodeJS.ProcessEnv = {}) =>
		runCliAsync(args, {
			agentDir: temp.agentDir,
			cwd: project,
			env: { ...NO_KEYS, XCSH_CHECKPOINT_MAX_FILE_SIZE: "1k", ...env },
		});
	const read = (name: string) => readFileSync(join(project, name), "utf8");
	const trashed = () => {
		const trash = join(temp.agentDir, "trash");
		return existsSync(trash) ? readdirSync(trash).filter((name) => name.includes("_files-project")) : [];
	};

	beforeEach(async () => {
		project = join(temp.root, "project");
		mkdirSync(project);
		writeFileSync(join(project, ".gitignore"), "*.log\n");
		writeFileSync(join(project, "debug.log"), "ignored\n");
		writeFileSync(join(project, "big.bin"), Buffer.alloc(4096, 7));
		if (git) {
			userGit(project, ["init", "-q"]);
			userGit(project, ["add", ".gitignore"]);
			userGit(project, ["commit", "-qm", "start"]);
		}
		const first = await xcsh(["-p", TURN_1]);
		expect(first.status).toBe(0);
		expect(first.stderr).toContain("xcsh: checkpoint skipped big.bin (4.0 KB, over the 1.0 KB limit)");
		expect((await xcsh(["-c", "-p", TURN_2])).status).toBe(0);
		session = (await SessionManager.list(project))[0]!.path;
		const listed = await xcsh(["checkpoints", session, "--json"]);
		expect(listed.status).toBe(0);
		rows = JSON.parse(listed.stdout) as Row[];
	});

	it("lists one checkpoint per turn that changed files, with +/- lines", async () => {
		expect(rows.map((row) => row.prompt)).toEqual([TURN_1, TURN_2]);
		expect(rows[0]!.files).toEqual([{ path: "a.txt", status: "added", added: 1, removed: 0, binary: false }]);
		expect(rows[1]!.files).toEqual([
			{ path: "a.txt", status: "modified", added: 1, removed: 1, binary: false },
			{ path: "b.txt", status: "added", added: 1, removed: 0, binary: false },
		]);
		// A turn that changes nothing records nothing.
		expect((await xcsh(["-c", "-p", "hello"])).status).toBe(0);
		const again = await xcsh(["checkpoints", session]);
		expect(again.stdout).toContain("ENTRY");
		expect(again.stdout).toContain("2 files: a.txt +1 -1, b.txt +1 -0");
		expect(again.stdout.trim().split("\n")).toHaveLength(3);
	});

	it("restore to turn 1 brings a.txt back and moves b.txt to the trash; --undo brings turn 2 back; the rest is untouched", async () => {
		const userGitBefore = git ? fingerprint(join(project, ".git")) : undefined;
		writeFileSync(join(project, "debug.log"), "changed later\n");
		const dry = await xcsh(["restore", session, rows[0]!.entryId, "--dry-run", "--json"]);
		expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, writes: ["a.txt"], trash: ["b.txt"] });
		expect(read("a.txt")).toBe("two\n");

		const restored = await xcsh(["restore", session, rows[0]!.entryId, "--json"]);
		expect(restored.status).toBe(0);
		const outcome = JSON.parse(restored.stdout) as { trashDir: string; mode: string };
		expect(outcome.mode).toBe("both");
		expect(read("a.txt")).toBe("one\n");
		expect(existsSync(join(project, "b.txt"))).toBe(false);
		expect(readFileSync(join(outcome.trashDir, "b.txt"), "utf8")).toBe("new\n");
		expect(trashed()).toHaveLength(1);
		expect(read("debug.log")).toBe("changed later\n");
		expect(readFileSync(join(project, "big.bin"))).toEqual(Buffer.alloc(4096, 7));

		// The conversation moved too, and the next --continue starts from turn 1.
		expect((await xcsh(["-c", "-p", "hello"])).status).toBe(0);
		const reopened = await SessionManager.open(session);
		const prompts = reopened
			.buildSessionContext()
			.messages.filter((m) => m.role === "user")
			.map((m) => (m.content as { text: string }[])[0]!.text);
		expect(prompts).toEqual([TURN_1, "hello"]);
		await reopened.close();

		const undone = await xcsh(["restore", session, "--undo"]);
		expect(undone.status).toBe(0);
		expect(undone.stdout).toContain("Undid the last restore: 2 files written, 0 files moved to the trash");
		expect(read("a.txt")).toBe("two\n");
		expect(read("b.txt")).toBe("new\n");
		if (userGitBefore) expect(fingerprint(join(project, ".git"))).toEqual(userGitBefore);
	});

	it("a file changed outside xcsh is listed and refused without --yes; --undo gets the edit back", async () => {
		writeFileSync(join(project, "a.txt"), "edited by hand\n");
		const refused = await xcsh(["restore", session, rows[0]!.entryId]);
		expect(refused.status).toBe(1);
		expect(refused.stderr).toBe(
			"  a.txt\nRefused: 1 file changed outside xcsh since its last checkpoint would be overwritten; run again with --yes (--undo brings them back)\n",
		);
		expect(read("a.txt")).toBe("edited by hand\n");
		expect((await xcsh(["restore", session, rows[0]!.entryId, "--yes"])).status).toBe(0);
		expect(read("a.txt")).toBe("one\n");
		expect((await xcsh(["restore", session, "--undo"])).status).toBe(0);
		expect(read("a.txt")).toBe("edited by hand\n");
	});

	it("--code-only leaves the conversation, --conversation-only leaves the files", async () => {
		const code = await xcsh(["restore", session, rows[0]!.entryId, "--code-only"]);
		expect(code.stdout).toContain(`Restored code to ${rows[0]!.entryId}: 1 file written, 1 file moved to the trash`);
		expect(read("a.txt")).toBe("one\n");
		await xcsh(["restore", session, "--undo"]);
		const talk = await xcsh(["restore", session, rows[0]!.entryId, "--conversation-only"]);
		expect(talk.stdout).toContain(`Restored conversation to ${rows[0]!.entryId}\n`);
		expect(read("a.txt")).toBe("two\n");
	});

	it("xcsh diff shows what changed between two entries, coloured unless NO_COLOR", async () => {
		const plain = await xcsh(["diff", session, rows[0]!.entryId, rows[1]!.entryId]);
		expect(plain.status).toBe(0);
		expect(plain.stdout).toContain("-one\n+two\n");
		expect(plain.stdout).toContain("+++ b/b.txt");
		expect(plain.stdout).not.toContain("\u001b");
		const coloured = await xcsh(["diff", session, rows[0]!.entryId], { NO_COLOR: "", FORCE_COLOR: "1" });
		expect(coloured.stdout).toContain("\u001b[32m+two\u001b[0m");
		const same = await xcsh(["diff", session, rows[1]!.entryId]);
		expect(same.stdout).toBe("No differences.\n");
	});

	it("--dry-run says what it would do; an entry older than the first checkpoint and a session open elsewhere are refused", async () => {
		const dry = await xcsh(["restore", session, rows[0]!.entryId, "--dry-run"]);
		expect(dry.stdout).toBe(
			`Would restore code and conversation to ${rows[0]!.entryId}\n  write  a.txt\n  trash  b.txt\n`,
		);
		const held = await SessionManager.open(session);
		const first = held.getSkeleton().at(0)!;
		const locked = await xcsh(["restore", session, rows[0]!.entryId]);
		await held.close();
		expect(locked.status).toBe(1);
		expect(locked.stderr).toBe(`${session} is open in another xcsh: restore it there, or close it first\n`);
		expect(first.type).not.toBe("custom");
		const before = await xcsh(["restore", session, first.id]);
		expect(before.status).toBe(2);
		expect(before.stderr).toBe(`No checkpoint on the path to ${first.id}: its files were never recorded\n`);
		expect(read("a.txt")).toBe("two\n");
	});

	it("a fork keeps its checkpoints and restores from them", async () => {
		const fork = await SessionManager.forkFrom(session, project);
		const forkFile = fork.getSessionFile()!;
		await fork.close();
		const listed = JSON.parse((await xcsh(["checkpoints", forkFile, "--json"])).stdout) as Row[];
		expect(listed.map((row) => row.entryId)).toEqual(rows.map((row) => row.entryId));
		expect((await xcsh(["restore", forkFile, rows[0]!.entryId])).status).toBe(0);
		expect(read("a.txt")).toBe("one\n");
	});

	it("a fork into another project (the folder moved) brings its checkpoints along: diff, restore, undo", async () => {
		const moved = join(temp.root, "moved");
		cpSync(project, moved, { recursive: true });
		const fork = await SessionManager.forkFrom(session, moved);
		const forkFile = fork.getSessionFile()!;
		await fork.close();
		const inMoved = (args: string[]) =>
			runCliAsync(args, {
				agentDir: temp.agentDir,
				cwd: moved,
				env: { ...NO_KEYS, XCSH_CHECKPOINT_MAX_FILE_SIZE: "1k" },
			});
		const diff = await inMoved(["diff", forkFile, rows[0]!.entryId]);
		expect(diff.stderr).toBe("");
		expect(diff.stdout).toContain("-one\n+two");
		const restored = await inMoved(["restore", forkFile, rows[0]!.entryId]);
		expect(restored.stderr).toBe("");
		expect(restored.status).toBe(0);
		expect(readFileSync(join(moved, "a.txt"), "utf8")).toBe("one\n");
		expect(existsSync(join(moved, "b.txt"))).toBe(false);
		// The original project is untouched.
		expect(read("a.txt")).toBe("two\n");
		expect((await inMoved(["restore", forkFile, "--undo"])).status).toBe(0);
		expect(readFileSync(join(moved, "b.txt"), "utf8")).toBe("new\n");
	});
});

describe("checkpoint commands, bad input and no git", () => {
	const temp = useTempAgentDir();
	let project: string;

	beforeEach(() => {
		project = join(temp.root, "project");
		mkdirSync(project);
	});
	const xcsh = (args: string[], env: NodeJS.ProcessEnv = {}) =>
		runCliAsync(args, { agentDir: temp.agentDir, cwd: project, env: { ...NO_KEYS, ...env } });

	it("each bad input gets one line and exit 2", async () => {
		expect((await xcsh(["-p", TURN_1])).status).toBe(0);
		const session = (await SessionManager.list(project))[0]!.path;
		const cases: [string[], string][] = [
			[["checkpoints"], "Usage: xcsh checkpoints <session.jsonl | session-id> [--json]\n"],
			[["checkpoints", "nope"], "No session found for nope\n"],
			[
				["restore", session],
				"Usage: xcsh restore <session.jsonl | session-id> <entry-id> [--code-only | --conversation-only] [--dry-run] [--yes] [--json], or xcsh restore <session> --undo\n",
			],
			[["restore", session, "zzzz"], "No entry zzzz in this session (xcsh checkpoints <session> lists them)\n"],
			[
				["restore", session, "x", "--code-only", "--conversation-only"],
				"--code-only and --conversation-only cannot go together\n",
			],
			[["restore", session, "--undo"], "Nothing to undo: this session has no restore\n"],
			[["diff", session], "Usage: xcsh diff <session.jsonl | session-id> <entry-id> [<entry-id>]\n"],
		];
		for (const [args, message] of cases) {
			const result = await xcsh(args);
			expect({ args, status: result.status, stderr: result.stderr }).toEqual({ args, status: 2, stderr: message });
		}
	});

	it("--help names the three commands and the restore flags", async () => {
		const help = (await xcsh(["--help"])).stdout;
		for (const line of [
			"$ xcsh checkpoints <session | id> [--json]  The turns that changed files (entry id, time, prompt, +/- lines)",
			"$ xcsh restore <session | id> <entry-id>    Put the files and the conversation back to that entry",
			"(--code-only, --conversation-only, --dry-run, --yes, --json)",
			"$ xcsh restore <session | id> --undo        Undo the last restore (a guard checkpoint kept the files)",
			"$ xcsh diff <session | id> <entry> [<entry>]  What changed in the files from an entry to another (or to now)",
			"--code-only          restore: only the files; the conversation stays where it is",
			"--conversation-only  restore: only the conversation; the files stay as they are",
			"--dry-run            restore, import: say what would change, change nothing",
			"--yes                restore: overwrite files changed outside xcsh since its last checkpoint",
			"--undo               restore: put back what the last restore changed",
		])
			expect(help).toContain(line);
	});

	it("without git on PATH, checkpoints are off with one line and the turn still runs", async () => {
		const noGit = { PATH: join(temp.root, "empty-bin") };
		const turn = await xcsh(["-p", TURN_1], noGit);
		expect(turn.status).toBe(0);
		expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("one\n");
		expect(turn.stderr.match(/checkpoints are off/g)).toHaveLength(1);
		expect(turn.stderr).toContain("xcsh: checkpoints are off: git was not found on PATH\n");
		const session = (await SessionManager.list(project))[0]!.path;
		expect((await xcsh(["checkpoints", session], noGit)).stdout).toBe(
			"No checkpoints: no turn of this session changed files.\n",
		);
		const diff = await xcsh(["diff", session, "abc"], noGit);
		expect(diff.status).toBe(2);
	});
});
