import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { holdSession } from "../helpers/hold-session.js";
import { KEYS } from "../helpers/keys.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { usePtyProject } from "../helpers/pty-project.js";
import type { PtyTerminal } from "../helpers/pty-terminal.js";

describe("session operations from the full-screen UI", () => {
	const temp = usePtyProject();

	async function seed(question: string): Promise<SessionManager> {
		const session = await SessionManager.create(temp.project);
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
		const t = temp.open();
		await t.waitFor("Type a prompt");
		await command(t, "/resume");
		await t.waitFor("the other session");
		t.write("\r");
		const screen = await t.waitFor("Resume cancelled by an extension");
		expect(screen).not.toContain("Resumed session");
		expect(screen).not.toContain("answer to the other session");
	});

	it("Ctrl+C on the /resume picker quits, as on every screen but the chat", async () => {
		await seed("a session to list");
		const t = temp.open();
		await t.waitFor("Type a prompt");
		await command(t, "/resume");
		await t.waitFor("a session to list");
		t.write(KEYS.ctrlC);
		expect(await t.exited()).toBe(0);
	});

	it("xcsh --resume opens the picker; /fork continues in a new session with the history", async () => {
		const original = await seed("fork me");
		const t = temp.open({ args: ["--resume"] });
		await t.waitFor("Resume session");
		await t.waitFor("fork me");
		t.write("\r");
		await t.waitFor("Resumed session");
		await command(t, "/fork");
		const forked = await t.waitFor("Forked into session");
		expect(forked).toContain("answer to fork me");
		const sessions = await SessionManager.list(temp.project);
		expect(sessions).toHaveLength(2);
		const copy = sessions.find((s) => s.id !== original.getSessionId())!;
		expect(copy.parentSession).toBe(original.getSessionId());
		expect(copy.messageCount).toBe(2);
		// the picker tells the copy from the original
		await command(t, "/resume");
		const picker = await t.waitFor((s) => s.includes("fork me (fork)") && s.includes("Esc close"));
		expect(picker.split("\n").filter((line) => line.includes("fork me"))).toHaveLength(2);
	});

	it("a session opened with history shows its ctx % before any prompt", async () => {
		const manager = await SessionManager.create(temp.project);
		manager.appendMessage(userMessage("how full is it"));
		const answer = assistantMessage("half full");
		// the provider reported 64,000 tokens of context: half the offline model's 128,000
		manager.appendMessage({ ...answer, usage: { ...answer.usage, input: 64_000 - answer.usage.output } });
		await manager.close();
		const t = temp.open({ args: ["--resume", manager.getSessionId()] });
		// The whole frame, status line included: a frame can be read half drawn.
		const screen = await t.waitFor((s) => s.includes("half full") && s.includes("· ctx "));
		expect(screen).toContain("· ctx 50%");
	});

	it("/resume of a session open in another xcsh offers fork, read-only or cancel", async () => {
		const held = await seed("held elsewhere");
		const holder = await holdSession(held.getSessionFile()!, temp.agentDir);
		try {
			const t = temp.open();
			await t.waitFor("Type a prompt");
			await command(t, "/resume");
			await t.waitFor("held elsewhere");
			t.write("\r");
			await t.waitFor(`Session is open in another xcsh (pid ${holder.pid})`);
			await t.waitFor("Fork it into a new session");
			t.write("r");
			// One condition for the whole frame: a frame can be read half drawn.
			const readOnly = await t.waitFor(
				(s) => s.includes("Opened read-only: /fork to continue in a copy") && s.includes("(read-only)"),
			);
			expect(readOnly).toContain("answer to held elsewhere");
			t.kill();
			const second = temp.open();
			await second.waitFor("Type a prompt");
			await command(second, "/resume");
			await second.waitFor("Resume session");
			await second.waitFor("held elsewhere");
			second.write("\r");
			await second.waitFor("❯ Fork it into a new session");
			second.write("\r");
			const forked = await second.waitFor(
				(s) => s.includes("Forked the session into a new one here") && /offline model · [0-9a-f]{8}/.test(s),
			);
			expect(forked).toContain("answer to held elsewhere");
			expect(forked).not.toContain("(read-only)");
		} finally {
			holder.kill("SIGKILL");
		}
	});

	it("xcsh --resume draws the picker before the app has loaded; Escape lands in a new session, a held pick offers the locked choice", async () => {
		await seed("early pick");
		const t = temp.open({ args: ["--resume"] });
		// The rows come from the index while the LLM layer still loads: no welcome screen yet.
		// Both, so a frame caught half drawn is waited out rather than read.
		const first = await t.waitFor((s) => s.includes("early pick") && s.includes("Resume session — this project"));
		expect(first).not.toContain("Type a prompt");
		t.write("\x1b");
		const chat = await t.waitFor("Type a prompt");
		expect(chat).not.toContain("answer to early pick");
		t.kill();

		const held = await seed("held for the early picker");
		const holder = await holdSession(held.getSessionFile()!, temp.agentDir);
		try {
			const second = temp.open({ args: ["--resume"] });
			await second.waitFor("held for the early picker");
			// The selection follows its session when the refreshed list arrives: filter to the held one.
			await second.type("held", "Filter: held");
			await second.waitFor((screen) => !/early pick(?!er)/.test(screen));
			second.write("\r");
			await second.waitFor(`Session is open in another xcsh (pid ${holder.pid})`);
			await second.waitFor("Fork it into a new session");
			second.write("r");
			const readOnly = await second.waitFor("Opened read-only: /fork to continue in a copy");
			expect(readOnly).toContain("answer to held for the early picker");
		} finally {
			holder.kill("SIGKILL");
		}
	});

	it("with stdout not a terminal, xcsh says to use -p instead of crashing", async () => {
		const t = temp.open({ shell: "$XCSH | cat" });
		const screen = (await t.waitFor((s) => s.replace(/\n/g, "").includes("run without one."))).replace(/\n/g, "");
		expect(screen).toContain(
			'xcsh needs a terminal for its interactive UI. Use xcsh -p "prompt" (or pipe a prompt on stdin) to run without one.',
		);
		expect(screen).not.toContain("Raw mode");
	});
});
