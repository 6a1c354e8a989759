import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { PtyTerminal } from "../helpers/pty-terminal.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("session operations from the full-screen UI", () => {
	const temp = useTempAgentDir();
	let project: string;
	let term: PtyTerminal | undefined;

	beforeEach(() => {
		project = join(temp.root, "project");
		mkdirSync(project);
	});
	afterEach(() => {
		term?.kill();
		term = undefined;
	});

	async function seed(question: string): Promise<SessionManager> {
		const session = await SessionManager.create(project);
		session.appendMessage(userMessage(question));
		session.appendMessage(assistantMessage(`answer to ${question}`));
		await session.close();
		return session;
	}

	async function command(t: PtyTerminal, text: string): Promise<void> {
		await t.type(text);
		t.write("\r");
	}

	it("/resume cancelled by an extension is reported as cancelled, not resumed", async () => {
		await seed("the other session");
		mkdirSync(join(temp.agentDir, "extensions"), { recursive: true });
		writeFileSync(
			join(temp.agentDir, "extensions", "veto.mjs"),
			'export default (api) => api.on("session_before_switch", (e) => (e.reason === "resume" ? { cancel: true } : undefined));',
		);
		const t = new PtyTerminal({ cwd: project, agentDir: temp.agentDir });
		term = t;
		await t.waitFor("Type a prompt");
		await command(t, "/resume");
		await t.waitFor("the other session");
		t.write("\r");
		const screen = await t.waitFor("Resume cancelled by an extension");
		expect(screen).not.toContain("Resumed session");
		expect(screen).not.toContain("answer to the other session");
	});

	it("xcsh --resume opens the picker; /fork continues in a new session with the history", async () => {
		const original = await seed("fork me");
		const t = new PtyTerminal({ args: ["--resume"], cwd: project, agentDir: temp.agentDir });
		term = t;
		await t.waitFor("Resume session");
		await t.waitFor("fork me");
		t.write("\r");
		await t.waitFor("Resumed session");
		await command(t, "/fork");
		const forked = await t.waitFor("Forked into session");
		expect(forked).toContain("answer to fork me");
		const sessions = await SessionManager.list(project);
		expect(sessions).toHaveLength(2);
		const copy = sessions.find((s) => s.id !== original.getSessionId())!;
		expect(copy.parentSession).toBe(original.getSessionId());
		expect(copy.messageCount).toBe(2);
	});

	it("with stdout not a terminal, xcsh says to use -p instead of crashing", async () => {
		const t = new PtyTerminal({ shell: "$XCSH | cat", cwd: project, agentDir: temp.agentDir });
		term = t;
		const screen = (await t.waitFor((s) => s.replace(/\n/g, "").includes("run without one."))).replace(/\n/g, "");
		expect(screen).toContain(
			'xcsh needs a terminal for its interactive UI. Use xcsh -p "prompt" (or pipe a prompt on stdin) to run without one.',
		);
		expect(screen).not.toContain("Raw mode");
	});
});
