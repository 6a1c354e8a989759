import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KEYS } from "../helpers/keys.js";
import { usePtyProject } from "../helpers/pty-project.js";
import type { PtyTerminal } from "../helpers/pty-terminal.js";
import { runCliAsync } from "../helpers/run-cli.js";

const SIZE = { cols: 110, rows: 30 };
const TURN_1 = "run echo one > a.txt";
const TURN_2 = "run echo two > a.txt && echo new > b.txt";
const TURN_3 = "run echo three > c.txt";
const BROWSE_FOOTER = "Tab filter · type to search · d diff · l label · Esc close";
const RESTORE_KEYS = "↑↓ choose · Enter confirm · Esc back";
const SUMMARY_TITLE = "Leaving the current branch. Summarize it?";
const REWIND_TITLE = "Rewind to a prompt of this path (newest first)";

function selectedLine(screen: string): string {
	return screen.split("\n").find((line) => line.startsWith("❯ ")) ?? "";
}

/** Opens /tree and moves the selection (from the top) to the first row that `wanted` accepts. */
async function treeTo(t: PtyTerminal, wanted: (line: string) => boolean): Promise<string> {
	await t.type("/tree");
	t.write(KEYS.enter);
	let screen = await t.waitFor((s) => s.includes(BROWSE_FOOTER) && selectedLine(s) !== "");
	t.write(KEYS.home);
	screen = await t.waitFor((s) => s.includes(BROWSE_FOOTER) && selectedLine(s).includes("user: run echo one"));
	for (let i = 0; i < 30 && !wanted(selectedLine(screen)); i++) {
		const before = selectedLine(screen);
		t.write(KEYS.down);
		screen = await t.waitFor((s) => s.includes(BROWSE_FOOTER) && selectedLine(s) !== before);
	}
	expect(wanted(selectedLine(screen)), screen).toBe(true);
	return screen;
}

/** Chooses the focused-by-default first choice ("Restore code and conversation") of the restore question. */
async function restoreBoth(t: PtyTerminal, files: number): Promise<string> {
	t.write(KEYS.enter);
	const question = `The files at this entry differ from the working tree (${files} files). Restore them?`;
	const screen = await t.waitFor((s) => s.includes(question) && s.includes(RESTORE_KEYS));
	expect(screen).toContain("❯ Restore code and conversation");
	expect(screen).toContain("  Conversation only");
	expect(screen).toContain("  Code only");
	t.write(KEYS.enter);
	return screen;
}

describe("file checkpoints in the full-screen UI", () => {
	const temp = usePtyProject();
	const read = (name: string) => {
		const path = join(temp.project, name);
		return existsSync(path) ? readFileSync(path, "utf8") : undefined;
	};
	const files = () => ({ a: read("a.txt"), b: read("b.txt"), c: read("c.txt") });
	type Files = ReturnType<typeof files>;
	const same = (a: Files, b: Files) => a.a === b.a && a.b === b.b && a.c === b.c;
	/**
	 * Waits for the notice of a restore and the files it leaves (the same notice of an earlier
	 * restore can still be on screen until the transcript is redrawn).
	 */
	async function settled(t: PtyTerminal, notice: string, expected: Files): Promise<void> {
		await t.waitFor((s) => s.includes(notice) && same(files(), expected));
		expect(files()).toEqual(expected);
	}

	it("/tree swaps the files between two branches each way, /rewind undo brings them back, an outside edit asks first, d shows the diff", async () => {
		for (const args of [
			["-p", TURN_1],
			["-c", "-p", TURN_2],
		]) {
			expect((await runCliAsync(args, { agentDir: temp.agentDir, cwd: temp.project })).status).toBe(0);
		}
		const t = temp.open({ args: ["--continue"], ...SIZE });
		await t.waitFor("echo new > b.txt");

		// Back to turn 2's prompt: the files before it (turn 1's), the prompt in the editor.
		const tree = await treeTo(t, (line) => line.includes(`user: ${TURN_2}`));
		expect(tree).toContain("±1 file");
		expect(tree).toContain("±2 files");
		await restoreBoth(t, 2);
		await t.waitFor("Restored the code and the conversation: 1 file written, 1 file moved to the trash");
		await t.waitFor(`› ${TURN_2}`);
		expect(files()).toEqual({ a: "one\n", b: undefined, c: undefined });

		// A new branch from turn 1 writes c.txt.
		t.write(KEYS.ctrlC);
		await t.waitFor((s) => !s.includes(`› ${TURN_2}`));
		await t.type(TURN_3);
		t.write(KEYS.enter);
		await t.waitFor((s) => s.split("\n").filter((l) => l.includes("returned 1 line")).length >= 2);
		await t.waitFor((s) => s.includes("Ask anything"));
		expect(files()).toEqual({ a: "one\n", b: undefined, c: "three\n" });

		// To the end of turn 2's branch: its files come back, c.txt goes to the trash.
		await treeTo(t, (line) => line.includes("±2 files"));
		await restoreBoth(t, 3);
		let screen = await t.waitFor(SUMMARY_TITLE);
		expect(screen).toContain("❯ No summary");
		t.write(KEYS.enter);
		await settled(t, "Restored the code and the conversation: 2 files written, 1 file moved to the trash", {
			a: "two\n",
			b: "new\n",
			c: undefined,
		});

		// And back to the end of the c.txt branch (a side branch now, its rows drawn under "│").
		await treeTo(t, (line) => line.includes("±1 file") && line.includes("│"));
		await restoreBoth(t, 3);
		await t.waitFor(SUMMARY_TITLE);
		t.write(KEYS.enter);
		await settled(t, "Restored the code and the conversation: 2 files written, 1 file moved to the trash", {
			a: "one\n",
			b: undefined,
			c: "three\n",
		});

		// /rewind undo puts the files of turn 2's branch back.
		await t.type("/rewind undo");
		t.write(KEYS.enter);
		await settled(t, "Undid the last restore: 2 files written, 1 file moved to the trash", {
			a: "two\n",
			b: "new\n",
			c: undefined,
		});

		// d: the diff from the c.txt branch's files to the working tree.
		await treeTo(t, (line) => line.includes("±1 file") && line.includes("│"));
		t.write("d");
		screen = await t.waitFor(
			(s) => s.includes("Files at this entry → the working tree (- at the entry, + now)") && s.includes("-one"),
		);
		expect(screen).toContain("+two");
		expect(screen).toContain("+++ b/b.txt");
		expect(screen).toContain("--- a/c.txt");
		// Coloured as git colours a diff (FORCE_COLOR is on in these terminals).
		expect(t.colouredAt("+two")).toBe(true);
		expect(t.colouredAt("-one")).toBe(true);
		expect(screen).toContain("↑↓ scroll · PgUp/PgDn page · Home/End · Esc back to the tree");
		t.write(KEYS.escape);
		screen = await t.waitFor((s) => s.includes(BROWSE_FOOTER) && selectedLine(s).includes("±1 file"));

		// An edit made outside xcsh is listed, and nothing is overwritten until it is confirmed.
		writeFileSync(join(temp.project, "a.txt"), "edited by hand\n");
		await restoreBoth(t, 3);
		await t.waitFor(SUMMARY_TITLE);
		t.write(KEYS.enter);
		screen = await t.waitFor("1 file changed outside xcsh since its last checkpoint will be overwritten: a.txt");
		expect(screen).toContain("Enter/y overwrite them · v view the files · Esc/n cancel");
		expect(read("a.txt")).toBe("edited by hand\n");
		t.write("n");
		await t.waitFor("Restore cancelled: no file was changed");
		expect(files()).toEqual({ a: "edited by hand\n", b: "new\n", c: undefined });
		await treeTo(t, (line) => line.includes("±1 file") && line.includes("│"));
		await restoreBoth(t, 3);
		await t.waitFor(SUMMARY_TITLE);
		t.write(KEYS.enter);
		await t.waitFor("will be overwritten: a.txt");
		t.write("y");
		await settled(t, "Restored the code and the conversation: 2 files written, 1 file moved to the trash", {
			a: "one\n",
			b: undefined,
			c: "three\n",
		});
		await t.type("/rewind undo");
		t.write(KEYS.enter);
		await settled(t, "Undid the last restore: 2 files written, 1 file moved to the trash", {
			a: "edited by hand\n",
			b: "new\n",
			c: undefined,
		});
		const trash = readdirSync(join(temp.agentDir, "trash")).filter((name) => name.includes("_files-project"));
		expect(trash.length).toBeGreaterThanOrEqual(4);

		// /rewind: the path's prompts, newest first; "Code only" puts back the files from before turn 2.
		await t.type("/rewind");
		t.write(KEYS.enter);
		screen = await t.waitFor(
			(s) => s.includes(REWIND_TITLE) && s.includes("↑↓ move · Enter choose · Esc back") && selectedLine(s) !== "",
		);
		expect(selectedLine(screen)).toContain(TURN_2);
		expect(screen.indexOf(TURN_2)).toBeLessThan(screen.indexOf(TURN_1));
		t.write(KEYS.enter);
		await t.waitFor(
			(s) => s.includes("Go back to before this prompt:") && s.includes("❯ Restore code and conversation"),
		);
		t.write(KEYS.down);
		await t.waitFor("❯ Conversation only");
		t.write(KEYS.down);
		await t.waitFor("❯ Code only");
		t.write(KEYS.enter);
		await settled(t, "Restored the files: 1 file written, 1 file moved to the trash · /rewind undo puts them back", {
			a: "one\n",
			b: undefined,
			c: undefined,
		});
	});

	it("the diff in /tree has no colour under NO_COLOR", async () => {
		for (const args of [
			["-p", TURN_1],
			["-c", "-p", TURN_2],
		]) {
			expect((await runCliAsync(args, { agentDir: temp.agentDir, cwd: temp.project })).status).toBe(0);
		}
		writeFileSync(join(temp.project, "a.txt"), "changed\n");
		const t = temp.open({ args: ["--continue"], ...SIZE, env: { NO_COLOR: "1" } });
		await t.waitFor("echo new > b.txt");
		await treeTo(t, (line) => line.includes("±2 files"));
		t.write("d");
		await t.waitFor((s) => s.includes("-two") && s.includes("+changed"));
		expect(t.colouredAt("+changed")).toBe(false);
		expect(t.colouredAt("-two")).toBe(false);
	});
});
