import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { KEYS } from "../helpers/keys.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { PtyTerminal } from "../helpers/pty-terminal.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("the full-screen UI in a real terminal", () => {
	const temp = useTempAgentDir();
	let project: string;
	let term: PtyTerminal | undefined;

	beforeEach(() => {
		project = join(temp.root, "project");
		mkdirSync(project);
		writeFileSync(join(project, "notes.txt"), "first note\nsecond note\n");
	});
	afterEach(async () => {
		await term?.stop();
		term = undefined;
	});

	function start(args: string[] = [], size = { cols: 100, rows: 30 }): PtyTerminal {
		term = new PtyTerminal({ args, cwd: project, agentDir: temp.agentDir, ...size });
		return term;
	}

	async function send(t: PtyTerminal, text: string, expectOnScreen: string | RegExp): Promise<string> {
		await t.type(text);
		t.write(KEYS.enter);
		return t.waitFor(expectOnScreen);
	}

	it("sends a prompt to the offline model, shows the answer and the first-run hint", async () => {
		const t = start();
		const welcome = await t.waitFor("Type a prompt");
		expect(t.onAlternateScreen).toBe(true);
		expect(welcome).toContain("offline model");
		expect(welcome).toContain("Offline model — set ANTHROPIC_API_KEY");
		await send(t, "read notes.txt", "second note");
		// the answer's markdown is rendered: the code span shows without its backticks
		// One condition for the whole frame: a frame can be read half drawn.
		const screen = await t.waitFor(
			(s) => s.includes("The read tool returned") && /offline model · [0-9a-f]{8}/.test(s),
		);
		expect(screen).toContain("● read notes.txt");
		expect(screen).toMatch(/offline model · [0-9a-f]{8}/);
	});

	it("Escape stops a long turn and says so", async () => {
		const t = start();
		await t.waitFor("Type a prompt");
		await send(t, "run sleep 30", "$ sleep 30");
		await t.waitFor("Running bash");
		t.write(KEYS.escape);
		const screen = await t.waitFor((s) => s.includes("Stopped.") && s.includes("Ask anything"));
		expect(screen).not.toContain("Running bash");
	});

	it("Ctrl+C clears the editor first; a second press within a second exits and gives the terminal back", async () => {
		const t = start();
		await t.waitFor("Type a prompt");
		await t.type("draft text");
		t.write(KEYS.ctrlC);
		await t.waitFor((s) => !s.includes("draft text"));
		t.write(KEYS.ctrlC);
		expect(await t.exited()).toBe(0);
		// the last bytes can trail the exit event: wait for the emulator to leave the alternate screen
		await t.waitFor(() => !t.onAlternateScreen, 5000);
		expect(t.raw).toContain("\x1b[?1049l\x1b[?25h");
	});

	it("Ctrl+C on an empty editor says how to quit", async () => {
		const t = start();
		await t.waitFor("Type a prompt");
		// a typed character proves the editor listens before the first Ctrl+C is sent
		await t.type("x");
		t.write("\x7f");
		await t.waitFor("Ask anything");
		t.write(KEYS.ctrlC);
		await t.waitFor("Press Ctrl+C again to quit");
		t.write(KEYS.ctrlC);
		expect(await t.exited()).toBe(0);
	});

	it("/resume lists sessions, filters, and opens the chosen one with its history", async () => {
		for (const [question, answer] of [
			["how do I fix the lockfile", "delete node_modules and reinstall"],
			["explain the parser", "it is recursive descent"],
		] as const) {
			const session = await SessionManager.create(project);
			session.appendMessage(userMessage(question));
			session.appendMessage(assistantMessage(answer));
			await session.close();
		}
		const t = start();
		await t.waitFor("Type a prompt");
		await send(t, "/resume", "Resume session");
		await t.waitFor("explain the parser");
		await t.type("lockfile", "lockfile");
		const filtered = await t.waitFor(
			(s) => !s.includes("explain the parser") && s.includes("how do I fix the lockfile"),
		);
		expect(filtered).toContain("2 msg");
		t.write(KEYS.enter);
		const resumed = await t.waitFor("Resumed session");
		expect(resumed).toContain("delete node_modules and reinstall");
	});

	it("/tree moves to an earlier answer and the conversation continues from there", async () => {
		const t = start();
		await t.waitFor("Type a prompt");
		await send(t, "alpha question", 'You said: "alpha question"');
		await t.waitFor("Ask anything");
		await send(t, "beta question", 'You said: "beta question"');
		await t.waitFor("Ask anything");
		await send(t, "/tree", "Session tree");
		await t.waitFor("beta question");
		// from the leaf (beta's answer) up two rows: beta's prompt, then alpha's answer
		t.write(KEYS.up);
		await t.waitFor(/›.*user: beta question|user: beta question/);
		t.write(KEYS.up);
		t.write(KEYS.enter);
		const after = await t.waitFor(
			(s) => s.includes("alpha question") && !s.includes("beta question") && s.includes("Ask anything"),
		);
		expect(after).toContain('You said: "alpha question"');
		await send(t, "gamma question", 'You said: "gamma question"');
		const [info] = await SessionManager.list(project);
		// the running xcsh holds the session's lock: look at it read-only
		const reopened = await SessionManager.openReadOnly(info!.path);
		const texts = JSON.stringify(reopened.buildSessionContext().messages);
		expect(texts).toContain("gamma question");
		expect(texts).not.toContain("beta question");
	});

	it("re-lays out on resize without duplicating the history", async () => {
		const t = start([], { cols: 100, rows: 30 });
		await t.waitFor("Type a prompt");
		await send(t, "hello resize", 'You said: "hello resize"');
		await t.waitFor("Ask anything");
		t.resize(70, 24);
		// The whole frame at the new width: the welcome box's right edge sits in column 70.
		const screen = await t.waitFor(
			(s) =>
				s.includes("Ask anything") && s.includes("hello resize") && /─╮\n/.test(s) && s.split("\n")[0]?.length === 70,
		);
		// the prompt is shown exactly once: redrawn, not lost and not duplicated
		expect(screen.match(/› hello resize/g)?.length).toBe(1);
	});

	it("with piped stdin and nothing to send, xcsh takes the -p path and says what to do (no raw-mode crash)", () => {
		const result = runCli([], { agentDir: temp.agentDir, cwd: project });
		// stdin is a pipe here, so xcsh takes the non-interactive path with nothing to send
		expect(result.stderr).toBe('Nothing to send: give a prompt (xcsh -p "…") or pipe one on stdin.\n');
		expect(result.status).toBe(2);
	});
});
