import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usePtyProject } from "../helpers/pty-project.js";
import type { PtyTerminal } from "../helpers/pty-terminal.js";
import { placeFixture } from "../import/import-helpers.js";

/** Claude Code's folder for the project its fixtures were recorded in. */
const CLAUDE_PROJECT = join(".claude", "projects", "-home-marco-projects-spotter");

describe("auto import in the full-screen UI", () => {
	const temp = usePtyProject();
	const home = () => join(temp.root, "home");
	const open = () =>
		temp.open({
			// a fake home: Claude Code's sessions in their usual place, nothing else
			env: { HOME: home(), XDG_DATA_HOME: join(home(), "data"), XCSH_AUTO_IMPORT_INTERVAL_MS: "300" },
		});
	const setAuto = (on: boolean) => {
		mkdirSync(temp.agentDir, { recursive: true, mode: 0o700 });
		writeFileSync(join(temp.agentDir, "settings.json"), JSON.stringify({ import: { auto: on } }), { mode: 0o600 });
	};
	const openAllProjects = async (t: PtyTerminal) => {
		await t.type("/resume");
		t.write("\r");
		await t.waitFor("Resume session — this project");
		t.write("\t");
		await t.waitFor("Resume session — all projects");
	};

	it("with auto on, Claude Code's sessions show up under Tab (all projects) with a note, also as they are written", async () => {
		setAuto(true);
		placeFixture("claude-code-01-short-thinking-tools.jsonl", join(home(), CLAUDE_PROJECT, "first.jsonl"));
		const t = open();
		await t.waitFor("Type a prompt");
		const noted = await t.waitFor("imported 1 session from Claude Code", 30_000);
		// on the status line, after the model and the session
		expect(noted.split("\n").find((line) => line.includes("imported 1 session"))).toMatch(
			/^offline model · [0-9a-f]{8} · .* · imported 1 session from Claude Code$/,
		);
		await openAllProjects(t);
		await t.waitFor("mix phx.server doesnt seem to start");
		// Claude Code writes another session while the picker is open: it is listed without a restart
		placeFixture("claude-code-02-tool-heavy.jsonl", join(home(), CLAUDE_PROJECT, "second.jsonl"));
		const both = await t.waitFor(
			(s) => s.includes("start phoenix in background") && s.includes("mix phx.server doesnt seem to start"),
			30_000,
		);
		expect(both).toContain("Resume session — all projects");
		t.write("\x1b");
		await t.waitFor("Type a prompt");
	});

	it("with auto off, nothing is imported", async () => {
		placeFixture("claude-code-01-short-thinking-tools.jsonl", join(home(), CLAUDE_PROJECT, "first.jsonl"));
		const t = open();
		await t.waitFor("Type a prompt");
		// the round that would have imported has looked at the setting
		const log = join(temp.agentDir, "xcsh.log");
		await t.waitFor(
			() => existsSync(log) && readFileSync(log, "utf8").includes("auto import is off (settings.json import.auto)"),
			30_000,
		);
		await openAllProjects(t);
		await t.waitFor("No sessions yet");
		expect(existsSync(join(temp.agentDir, "imports"))).toBe(false);
		expect(t.screen()).not.toContain("imported");
		// turned on elsewhere (xcsh import --scan --auto on), the next round imports
		setAuto(true);
		t.write("\x1b");
		await t.waitFor("imported 1 session from Claude Code", 30_000);
	});
});
