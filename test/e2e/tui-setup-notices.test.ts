import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { holdSession } from "../helpers/hold-session.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { usePtyProject } from "../helpers/pty-project.js";

/** The screen with its wrapping undone (notices wrap at the terminal's width). */
const oneLine = (screen: string) => screen.replace(/\s+/g, " ");
/** Without any whitespace: a long path wraps mid-word. */
const flat = (text: string) => text.replace(/\s+/g, "");

describe("what opening a session found is said in the full-screen UI", () => {
	const temp = usePtyProject();
	let holder: ChildProcessWithoutNullStreams | undefined;
	afterEach(() => {
		holder?.kill("SIGKILL");
		holder = undefined;
	});

	async function saved(text: string): Promise<string> {
		const session = await SessionManager.create(temp.project);
		session.appendMessage(userMessage(text));
		session.appendMessage(assistantMessage(`answer to ${text}`));
		await session.close();
		return session.getSessionFile()!;
	}

	it("--continue says which session it passed over because another xcsh has it", async () => {
		await saved("the older session");
		const newest = await saved("the newest session");
		holder = await holdSession(newest, temp.agentDir);
		const t = temp.open({ args: ["--continue"] });
		const screen = await t.waitFor((text) => oneLine(text).includes("continuing the newest session that is not"));
		expect(oneLine(screen)).toContain(
			`${basename(newest)} is open in another xcsh (pid ${holder.pid}): continuing the newest session that is not`,
		);
		expect(screen).toContain("answer to the older session");
	});

	it("a session opened read-only for a damaged header says why and what to do", async () => {
		const file = await saved("a damaged session");
		const [header, ...rest] = readFileSync(file, "utf8").split("\n");
		writeFileSync(file, [JSON.stringify({ ...JSON.parse(header!), version: "3" }), ...rest].join("\n"));
		const t = temp.open({ args: ["--resume", file] });
		const screen = await t.waitFor((text) => oneLine(text).includes("/fork to continue in a copy"));
		expect(flat(screen)).toContain(
			flat(
				`This session's header is damaged, so it is open read-only: run xcsh doctor --fix ${file}, or /fork to continue in a copy`,
			),
		);
	});
});
