import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDuration } from "../../source/cli/purge-command.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const DAY = 86_400_000;
const MB = 1024 * 1024;

describe("xcsh sessions purge", () => {
	const tmp = useTempAgentDir();
	const run = (args: string[]) => runCli(args, { agentDir: tmp.agentDir, cwd: tmp.root });
	const trash = () => join(tmp.agentDir, "trash");

	/** A trash item (file or directory with a file) whose mtime is `ageMs` in the past. */
	function trashItem(name: string, ageMs: number, bytes: number, directory = false): string {
		mkdirSync(trash(), { recursive: true, mode: 0o700 });
		const path = join(trash(), name);
		const when = new Date(Date.now() - ageMs);
		if (directory) {
			mkdirSync(path);
			writeFileSync(join(path, "bash-1.log"), Buffer.alloc(bytes, 1));
			utimesSync(join(path, "bash-1.log"), when, when);
		} else {
			writeFileSync(path, Buffer.alloc(bytes, 1));
		}
		utimesSync(path, when, when);
		return path;
	}

	it("parses durations in minutes, hours and days only", () => {
		expect(parseDuration("30d")).toBe(30 * DAY);
		expect(parseDuration("12h")).toBe(12 * 3_600_000);
		expect(parseDuration("90m")).toBe(90 * 60_000);
		for (const bad of ["", "30", "d", "1.5d", "-1d", "30s", "3w", "30 d", "1e3d"])
			expect(parseDuration(bad), bad).toBeUndefined();
	});

	it("deletes only what is older than the duration, files and directories, and says what it removed", () => {
		const oldFile = trashItem("old-session.jsonl", 40 * DAY, 2 * MB);
		const oldDir = trashItem("old-artifacts", 31 * DAY, MB / 2, true);
		const fresh = trashItem("fresh-session.jsonl", 2 * DAY, 10);
		const result = run(["sessions", "purge", "--older-than", "30d"]);
		expect(result).toEqual({
			status: 0,
			stdout: "  old-artifacts (0.5 MB)\n  old-session.jsonl (2.0 MB)\nRemoved 2 items from the trash (2.5 MB)\n",
			stderr: "",
		});
		expect(existsSync(oldFile)).toBe(false);
		expect(existsSync(oldDir)).toBe(false);
		expect(existsSync(fresh)).toBe(true);
		expect(run(["sessions", "purge", "--older-than=30d"]).stdout).toBe("Nothing in the trash older than 30d\n");
		expect(run(["sessions", "purge", "--older-than", "1d"]).stdout).toBe(
			"  fresh-session.jsonl (0.0 MB)\nRemoved 1 item from the trash (0.0 MB)\n",
		);
		expect(readdirSync(trash())).toEqual([]);
	});

	it("keeps an old session that was trashed recently (a rename keeps the old mtime)", () => {
		const justTrashed = `${new Date(Date.now() - 60_000).toISOString().replace(/[:.]/g, "-")}_old.jsonl`;
		const longAgo = `${new Date(Date.now() - 45 * DAY).toISOString().replace(/[:.]/g, "-")}_older.jsonl`;
		trashItem(justTrashed, 90 * DAY, 1);
		trashItem(longAgo, 90 * DAY, 1);
		expect(run(["sessions", "purge", "--older-than", "30d"]).stdout).toBe(
			`  ${longAgo} (0.0 MB)\nRemoved 1 item from the trash (0.0 MB)\n`,
		);
		expect(readdirSync(trash())).toEqual([justTrashed]);
	});

	it("has nothing to do without a trash", () => {
		expect(run(["sessions", "purge", "--older-than", "12h"])).toEqual({
			status: 0,
			stdout: "Nothing in the trash older than 12h\n",
			stderr: "",
		});
		expect(existsSync(trash())).toBe(false);
	});

	it("refuses a bad or missing duration, exit 2, deleting nothing", () => {
		const item = trashItem("ancient.jsonl", 400 * DAY, 1);
		expect(run(["sessions", "purge", "--older-than", "soon"])).toEqual({
			status: 2,
			stdout: "",
			stderr: '--older-than takes a duration like 30d, 12h or 90m (got "soon")\n',
		});
		const usage = { status: 2, stdout: "", stderr: "Usage: xcsh sessions purge --older-than <duration>\n" };
		expect(run(["sessions", "purge"])).toEqual(usage);
		expect(run(["sessions", "purge", "--older-than"])).toEqual(usage);
		expect(run(["sessions", "purge", "everything", "--older-than", "1d"])).toEqual(usage);
		expect(existsSync(item)).toBe(true);
	});
});
