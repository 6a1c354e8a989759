import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { HistoryStorage } from "../../source/session/history-storage.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const FIXTURE = resolve(import.meta.dirname, "../fixtures/upstream-v1/before-compaction.jsonl");
const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../package.json"), "utf8")) as { version: string };

describe("xcsh CLI", () => {
	const temp = useTempAgentDir();
	const run = (args: string[], cwd = temp.root) => runCli(args, { agentDir: temp.agentDir, cwd });

	it("--version and --help", () => {
		expect(run(["--version"])).toMatchObject({ status: 0, stdout: `${pkg.version}\n` });
		const help = run(["--help"]);
		expect(help.status).toBe(0);
		expect(help.stdout).toContain("xcsh sessions [list] [--all] [--json]");
		expect(help.stdout).toContain("XCSH_AGENT_DIR");
	});

	it("rejects unknown commands and flags with a one-line error", () => {
		const unknown = run(["frobnicate"]);
		expect(unknown.status).toBe(2);
		expect(unknown.stderr).toBe("Unknown command: frobnicate. Run xcsh --help for usage.\n");
		for (const args of [["--bogus"], ["sessions", "--bogus"], ["-p", "hi", "--bogus=3"]]) {
			expect(run(args)).toMatchObject({
				status: 2,
				stdout: "",
				stderr: "Unknown flag: --bogus. Run xcsh --help for usage.\n",
			});
		}
		expect(run(["--bogus", "-x", "--no-such-thing"])).toMatchObject({
			status: 2,
			stderr: "Unknown flags: --bogus, -x, --no-such-thing. Run xcsh --help for usage.\n",
		});
		// Known flags in every spelling still parse: kebab case, short forms, --no-<boolean>.
		expect(run(["sessions", "--all", "--json", "--no-session"]).status).toBe(0);
		expect(run(["sessions", "nope"]).stderr).toBe("Unknown sessions command: nope (expected list or info)\n");
	});

	it("sessions list shows this project's sessions, --all every project, --json the metadata", async () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		expect(run(["sessions"], project).stdout).toBe(`No sessions for ${project} yet (try --all).\n`);
		expect(run(["sessions", "--all"], project).stdout).toBe("No sessions yet.\n");
		const session = await SessionManager.create(project);
		session.appendMessage(userMessage("fix the lockfile bug"));
		session.appendMessage(assistantMessage("done"));
		await session.close();
		const other = await SessionManager.create("/elsewhere");
		other.appendMessage(userMessage("other project"));
		other.appendMessage(assistantMessage("ok"));
		await other.close();

		const list = run(["sessions"], project);
		expect(list.status).toBe(0);
		expect(list.stdout).toContain(session.getSessionId());
		expect(list.stdout).toContain("2 msg");
		expect(list.stdout).toContain("fix the lockfile bug");
		expect(list.stdout).not.toContain("other project");
		const all = run(["sessions", "list", "--all"], project);
		expect(all.stdout).toContain("/elsewhere");
		expect(all.stdout).toContain(project);
		const json = JSON.parse(run(["sessions", "--json"], project).stdout) as { id: string; messageCount: number }[];
		expect(json).toMatchObject([{ id: session.getSessionId(), messageCount: 2 }]);
	});

	it("sessions info reports a v1 fixture without modifying it", () => {
		const path = join(temp.root, "old.jsonl");
		copyFileSync(FIXTURE, path);
		const before = readFileSync(path);
		const info = run(["sessions", "info", path]);
		expect(info.status).toBe(0);
		expect(info.stdout).toContain("v1 (migrates to v3 when opened)");
		expect(info.stdout).toContain("990 message");
		expect(info.stdout).toMatch(/Skipped lines\s+none/);
		expect(readFileSync(path).equals(before)).toBe(true);
	});

	it("sessions info explains missing files, foreign files, unknown ids and missing arguments", () => {
		const missing = join(temp.root, "missing.jsonl");
		expect(run(["sessions", "info", missing])).toMatchObject({ status: 1, stderr: `File not found: ${missing}\n` });
		const foreign = join(temp.root, "notes.jsonl");
		copyFileSync(resolve(import.meta.dirname, "../../package.json"), foreign);
		expect(run(["sessions", "info", foreign])).toMatchObject({ status: 1, stderr: `Not a session file: ${foreign}\n` });
		expect(run(["sessions", "info", "0123abcd"])).toMatchObject({
			status: 1,
			stderr: "No session found for 0123abcd\n",
		});
		expect(run(["sessions", "info"])).toMatchObject({
			status: 2,
			stderr: "Usage: xcsh sessions info <session.jsonl | session-id-prefix>\n",
		});
	});

	it("sessions info finds a session by id prefix", async () => {
		const session = await SessionManager.create(temp.root);
		session.appendMessage(userMessage("prefix lookup"));
		session.appendMessage(assistantMessage("ok"));
		await session.close();
		const info = run(["sessions", "info", session.getSessionId().slice(0, 10)]);
		expect(info.status).toBe(0);
		expect(info.stdout).toContain(session.getSessionFile()!);
	});

	it("--export writes HTML from a session file without touching it; missing and foreign files are one-line errors", () => {
		const path = join(temp.root, "old.jsonl");
		copyFileSync(FIXTURE, path);
		const before = readFileSync(path);
		const out = join(temp.root, "page.html");
		expect(run(["--export", path, out])).toMatchObject({ status: 0, stdout: `Exported to: ${out}\n` });
		expect(readFileSync(out, "utf8")).toContain("<!DOCTYPE html>");
		expect(readFileSync(path).equals(before)).toBe(true);
		expect(run(["--export", "old.jsonl"])).toMatchObject({
			status: 0,
			stdout: `Exported to: ${join(temp.root, "old.html")}\n`,
		});

		const missing = join(temp.root, "missing.jsonl");
		expect(run(["--export", missing, join(temp.root, "never.html")])).toMatchObject({
			status: 1,
			stderr: `File not found: ${missing}\n`,
		});
		expect(existsSync(join(temp.root, "never.html"))).toBe(false);
		const foreign = join(temp.root, "notes.jsonl");
		writeFileSync(foreign, "hello\n");
		expect(run(["--export", foreign])).toMatchObject({ status: 1, stderr: `Not a session file: ${foreign}\n` });
	});

	it("search finds a phrase from another project with --all, and explains an empty query", async () => {
		const other = await SessionManager.create("/elsewhere/project");
		other.appendMessage(userMessage("we fixed the lockfile bug by pinning npm"));
		other.appendMessage(assistantMessage("pinned"));
		await other.close();
		expect(run(["search"])).toMatchObject({
			status: 2,
			stderr:
				"Usage: xcsh search <words…> [--all] [--json] [--limit N] [--role user|assistant|tool] [--since <when>] [--until <when>]\n",
		});
		expect(run(["search", "lockfile"]).stdout).toContain('No matches for "lockfile"');
		const found = run(["search", "lockfile", "pinn", "--all"]);
		expect(found.status).toBe(0);
		expect(found.stdout).toContain("[lockfile]");
		expect(found.stdout).toContain("project");
	});

	it("history lists recent prompts and searches them", async () => {
		expect(run(["history"]).stdout).toBe("No prompts in the history yet.\n");
		const history = HistoryStorage.open();
		history.add("fixed the lockfile bug", "/p");
		history.add("write the README", "/p");
		await history.close();
		const recent = run(["history"]);
		expect(recent.stdout.indexOf("write the README")).toBeLessThan(recent.stdout.indexOf("fixed the lockfile bug"));
		const found = run(["history", "lock", "fix"]);
		expect(found.stdout).toContain("fixed the lockfile bug");
		expect(found.stdout).not.toContain("README");
		expect(run(["history", "zebra"]).stdout).toBe('No prompts match "zebra".\n');
		expect(run(["history", "--limit", "0"])).toMatchObject({
			status: 2,
			stderr: "--limit must be a positive whole number (got 0)\n",
		});
	});
});
