import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSessionManager, NO_SESSION_NOTICE, type SessionFlags } from "../../source/cli/session-setup.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { getTerminalSessionsDir } from "../../source/session/session-paths.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { runCliAsync } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const none: SessionFlags = { noSession: false, continue: false, resume: undefined, sessionDir: undefined };

describe("how the CLI picks the session (--resume, --continue, --no-session)", () => {
	const temp = useTempAgentDir();
	let here: string;
	let elsewhere: string;
	const saved = process.env.XCSH_TERMINAL_ID;

	beforeEach(() => {
		here = join(temp.root, "here");
		elsewhere = join(temp.root, "elsewhere");
		mkdirSync(here);
		mkdirSync(elsewhere);
		delete process.env.XCSH_TERMINAL_ID;
	});
	afterEach(() => {
		if (saved === undefined) delete process.env.XCSH_TERMINAL_ID;
		else process.env.XCSH_TERMINAL_ID = saved;
	});

	async function session(cwd: string, text: string): Promise<SessionManager> {
		const manager = await SessionManager.create(cwd);
		manager.appendMessage(userMessage(text));
		manager.appendMessage(assistantMessage(`re: ${text}`));
		await manager.close();
		return manager;
	}

	it("--resume <id prefix> opens a session of this project; a path opens directly", async () => {
		const target = await session(here, "local one");
		const byId = await createSessionManager({ ...none, resume: target.getSessionId().slice(0, 12) }, here);
		expect(byId.getSessionId()).toBe(target.getSessionId());
		await byId.close();
		const byPath = await createSessionManager({ ...none, resume: target.getSessionFile()! }, here);
		expect(byPath.getSessionFile()).toBe(target.getSessionFile());
		await byPath.close();
	});

	it("an ambiguous or unknown prefix is an error that lists the matches", async () => {
		const a = await session(here, "a");
		const b = await session(here, "b");
		// ids sort by time: two sessions made moments apart share a long prefix
		let n = 0;
		while (a.getSessionId()[n] === b.getSessionId()[n]) n++;
		const common = a.getSessionId().slice(0, n);
		expect(common.length).toBeGreaterThanOrEqual(6);
		const error = (await createSessionManager({ ...none, resume: common }, here).then(
			() => new Error("no error"),
			(e: unknown) => e,
		)) as Error;
		expect(error.message).toMatch(new RegExp(`^Session id ${common} is ambiguous: `));
		expect(error.message).toContain(a.getSessionId());
		expect(error.message).toContain(b.getSessionId());
		await expect(createSessionManager({ ...none, resume: "ffffffffffff" }, here)).rejects.toThrow(
			"No session found for ffffffffffff",
		);
	});

	it("another project's session asks before forking: yes forks here, no / no answer refuses", async () => {
		const foreign = await session(elsewhere, "from elsewhere");
		const questions: string[] = [];
		const yes = await createSessionManager({ ...none, resume: foreign.getSessionId() }, here, async (q) => {
			questions.push(q);
			return true;
		});
		expect(questions).toEqual([`Session found in different project: ${elsewhere}. Fork into current directory?`]);
		expect(yes.getCwd()).toBe(here);
		expect(yes.getHeader().parentSession).toBe(foreign.getSessionFile());
		expect(yes.getEntries()).toHaveLength(2);
		await yes.close();
		for (const answer of [false, undefined]) {
			await expect(
				createSessionManager({ ...none, resume: foreign.getSessionId() }, here, async () => answer),
			).rejects.toThrow(`belongs to ${elsewhere}; not forked into ${here}`);
		}
	});

	it("--resume <file> of another project's session asks the same fork question as --resume <id>", async () => {
		const foreign = await session(elsewhere, "from elsewhere");
		const file = foreign.getSessionFile()!;
		const questions: string[] = [];
		const yes = await createSessionManager({ ...none, resume: file }, here, async (q) => {
			questions.push(q);
			return true;
		});
		expect(questions).toEqual([`Session found in different project: ${elsewhere}. Fork into current directory?`]);
		expect(yes.getCwd()).toBe(here);
		expect(yes.getSessionFile()).not.toBe(file);
		expect(yes.getHeader().parentSession).toBe(file);
		await yes.close();
		for (const answer of [false, undefined]) {
			await expect(createSessionManager({ ...none, resume: file }, here, async () => answer)).rejects.toThrow(
				new Error(`Session ${foreign.getSessionId()} belongs to ${elsewhere}; not forked into ${here}`),
			);
		}
		// This project's own file opens without a question.
		const local = await session(here, "mine");
		const asked: string[] = [];
		const opened = await createSessionManager({ ...none, resume: local.getSessionFile()! }, here, async (q) => {
			asked.push(q);
			return true;
		});
		expect(asked).toEqual([]);
		expect(opened.getSessionFile()).toBe(local.getSessionFile());
		await opened.close();
	});

	it("--continue prefers this terminal's breadcrumb, else the newest session, else a new one", async () => {
		process.env.XCSH_TERMINAL_ID = "test-term";
		const fresh = await createSessionManager({ ...none, continue: true }, here);
		expect(fresh.getEntries()).toEqual([]);
		const older = await session(here, "older");
		delete process.env.XCSH_TERMINAL_ID;
		const newer = await session(here, "newer");
		process.env.XCSH_TERMINAL_ID = "test-term";
		const crumb = await createSessionManager({ ...none, continue: true }, here);
		expect(crumb.getSessionId()).toBe(older.getSessionId());
		// the breadcrumb this terminal left is the one --continue followed
		expect(readFileSync(join(getTerminalSessionsDir(), "test-term"), "utf8")).toBe(
			`${here}\n${older.getSessionFile()}\n`,
		);
		delete process.env.XCSH_TERMINAL_ID;
		const newest = await createSessionManager({ ...none, continue: true }, here);
		expect(newest.getSessionId()).toBe(newer.getSessionId());
	});

	it("--no-session ignores --resume and --continue, and says so", async () => {
		const notices: string[] = [];
		const memory = await createSessionManager({ ...none, noSession: true, continue: true }, here, undefined, (t) =>
			notices.push(t),
		);
		expect(memory.isPersisted()).toBe(false);
		expect(notices).toEqual([NO_SESSION_NOTICE]);
	});

	it("xcsh -p --resume <id> of another project without a terminal refuses and exits non-zero", async () => {
		const foreign = await session(elsewhere, "from elsewhere");
		const result = await runCliAsync(["-p", "--resume", foreign.getSessionId(), "hello"], {
			agentDir: temp.agentDir,
			cwd: here,
		});
		expect(result.status).toBe(1);
		expect(result.stderr).toContain(
			`xcsh: Session ${foreign.getSessionId()} belongs to ${elsewhere}; not forked into ${here}`,
		);
		const local = await runCliAsync(["-p", "--no-session", "--continue", "hi"], { agentDir: temp.agentDir, cwd: here });
		expect(local.stderr).toContain(`xcsh: ${NO_SESSION_NOTICE}`);
	});
});
