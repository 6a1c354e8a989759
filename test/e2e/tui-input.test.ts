import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { holdSession } from "../helpers/hold-session.js";
import { KEYS } from "../helpers/keys.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { usePtyProject } from "../helpers/pty-project.js";
import type { PtyTerminal } from "../helpers/pty-terminal.js";

const BACKSPACE = "\x7f";
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** The editor's text rows: what follows `› ` (first row) or the indent inside the editor's border. */
function editorLine(screen: string, prefix: string): string | undefined {
	return screen
		.split("\n")
		.find((line) => line.includes(`│ ${prefix}`))
		?.replace(/^.*?│ /, "")
		.replace(/\s*│\s*$/, "");
}

/** Keys written in one `write` reach the program in one read: the bursts of a fast typist, tmux or SSH. */
describe("every key in one read is applied, in order", () => {
	const temp = usePtyProject();
	let holder: ChildProcessWithoutNullStreams | undefined;
	afterEach(() => {
		holder?.kill("SIGKILL");
		holder = undefined;
	});

	async function ready(t: PtyTerminal): Promise<void> {
		await t.waitFor("Type a prompt");
	}

	async function seed(question: string): Promise<string> {
		const session = await SessionManager.create(temp.project);
		session.appendMessage(userMessage(question));
		session.appendMessage(assistantMessage(`answer to ${question}`));
		await session.close();
		return session.getSessionFile()!;
	}

	it("three Backspaces in one write delete three characters in the editor", async () => {
		const t = temp.open();
		await ready(t);
		await t.type("hello");
		t.write(BACKSPACE.repeat(3));
		const screen = await t.waitFor((s) => editorLine(s, "›") === "› he");
		expect(screen).not.toContain("hello");
	});

	it("three Backspaces in one write delete three characters of the picker's filter", async () => {
		await seed("lockfile question");
		const t = temp.open({ args: ["--resume"] });
		await t.waitFor("lockfile question");
		await t.type("lockzzz", "Filter: lockzzz");
		await t.waitFor('No sessions match "lockzzz"');
		t.write(BACKSPACE.repeat(3));
		const screen = await t.waitFor((s) => /Filter: lock\s*$/m.test(s) && s.includes("lockfile question"));
		expect(screen).not.toContain("No sessions match");
	});

	it("text and Enter in one write send the prompt (tmux send-keys, SSH)", async () => {
		const t = temp.open();
		await ready(t);
		t.write("list files\r");
		const screen = await t.waitFor((s) => s.includes("$ ls -la") && s.includes("› list files"));
		expect(screen).not.toContain("│ › list files");
		await t.waitFor((s) => s.includes("Ask anything") && editorLine(s, "›") === "› Ask anything · /help");
	});

	it("a burst mixing letters, arrows, Backspace and Enter acts like the same keys one by one", async () => {
		const t = temp.open();
		await ready(t);
		// "list filez", ← ← (cursor before "ez"), Backspace drops "l", "l" again, → → (end), Backspace drops "z", "s", Enter
		t.write(`list filez\x1b[D\x1b[D${BACKSPACE}l\x1b[C\x1b[C${BACKSPACE}s\r`);
		const screen = await t.waitFor((s) => s.includes("$ ls -la") && s.includes("› list files"));
		expect(screen).not.toContain("│ › list files");
	});

	it("a bracketed paste with line breaks stays in the editor, line breaks kept, until Enter", async () => {
		const t = temp.open();
		await ready(t);
		t.write(`${PASTE_START}first pasted line\rsecond pasted line${PASTE_END}`);
		const pasted = await t.waitFor(
			(s) => editorLine(s, "  second") === "  second pasted line" && editorLine(s, "›") === "› first pasted line",
		);
		expect(pasted).not.toContain("[200~");
		expect(pasted).not.toContain("You said");
		t.write("\r");
		// both lines went out as one prompt: the paste did not send its first line on its own
		const said = 'You said: "first pasted line second pasted line" (6 words)';
		const answered = await t.waitFor((s) => s.replace(/\s+/g, " ").includes(said));
		expect(answered).toContain("› first pasted line");
	});

	it("turns bracketed paste mode on for the session and off again on exit", async () => {
		const t = temp.open();
		await ready(t);
		expect(t.raw).toContain("\x1b[?2004h");
		t.write(KEYS.ctrlC);
		await t.waitFor("Press Ctrl+C again to quit");
		t.write(KEYS.ctrlC);
		expect(await t.exited()).toBe(0);
		await t.waitFor(() => !t.onAlternateScreen, 5000);
		expect(t.raw.lastIndexOf("\x1b[?2004l")).toBeGreaterThan(t.raw.lastIndexOf("\x1b[?2004h"));
	});

	it("keys typed while xcsh is still starting end up in the editor", async () => {
		const t = temp.open();
		// written at once, before the first frame
		t.write("early bird");
		const screen = await t.waitFor((s) => editorLine(s, "›") === "› early bird");
		expect(screen).toContain("Type a prompt");
	});

	it("keys typed before the --resume picker's first frame, and the moment it shows its rows, reach its filter once each", async () => {
		await seed("lockfile question");
		await seed("other question");
		const t = temp.open({ args: ["--resume"] });
		// written at once, before the first frame
		t.write("lock");
		// The rows are in the picker's first frame: keys sent as it appears are held until it takes keys.
		await t.waitFor("Resume session");
		t.write("file");
		const screen = await t.waitFor((s) => /Filter: lockfile\s*$/m.test(s) && s.includes("lockfile question"));
		expect(screen).not.toContain("other question");
		expect(screen).not.toContain("Filter: lockfilefile");
	});

	it("text and Enter typed the moment xcsh starts, before its first frame, send the prompt", async () => {
		const t = temp.open();
		// written at once, before the first frame: the Enter must send, not break the line
		t.write("list files\r");
		expect(t.screen()).not.toContain("Type a prompt");
		const screen = await t.waitFor((s) => s.includes("$ ls -la") && s.includes("› list files"));
		expect(screen).not.toContain("│ › list files");
		expect(editorLine(screen, "  ")).toBeUndefined();
	});

	it("a prompt typed and entered while xcsh is still loading is sent once it has loaded", async () => {
		// An extension that loads only once the gate file exists holds xcsh on its "starting…" box.
		const gate = join(temp.root, "gate");
		mkdirSync(join(temp.agentDir, "extensions"), { recursive: true });
		writeFileSync(
			join(temp.agentDir, "extensions", "slow.mjs"),
			[
				'import { existsSync } from "node:fs";',
				`await new Promise((done) => { const timer = setInterval(() => { if (existsSync(${JSON.stringify(gate)})) { clearInterval(timer); done(); } }, 20); });`,
				"export default () => {};",
			].join("\n"),
		);
		const t = temp.open();
		await t.waitFor("starting…");
		t.write("list files\r");
		expect(t.screen()).not.toContain("Type a prompt");
		writeFileSync(gate, "");
		const screen = await t.waitFor((s) => s.includes("$ ls -la") && s.includes("› list files"));
		expect(screen).not.toContain("│ › list files");
	});

	it("text /tree put in the editor does not come back after it was sent or cleared", async () => {
		const PLACEHOLDER = "› Ask anything · /help";
		const t = temp.open();
		await ready(t);
		await t.type("alpha question");
		t.write("\r");
		await t.waitFor('You said: "alpha question"');
		await t.waitFor("Ask anything");
		/** Opens /tree and goes back to alpha's prompt: Enter on a prompt puts its text in the editor. */
		const backToAlpha = async () => {
			await t.type("/tree");
			t.write("\r");
			await t.waitFor("Session tree");
			// up from the leaf (alpha's answer) to alpha's prompt
			t.write(KEYS.up);
			await t.waitFor(/❯.*user: alpha question/);
			t.write("\r");
			await t.waitFor((s) => editorLine(s, "›") === "› alpha question");
		};
		/** Opens /tree and leaves it with Escape: the editor comes back. */
		const treeAndBack = async () => {
			await t.type("/tree");
			t.write("\r");
			await t.waitFor("Session tree");
			t.write("\x1b");
			return t.waitFor("Ask anything");
		};
		await backToAlpha();
		t.write("\r");
		await t.waitFor((s) => s.includes('You said: "alpha question"') && editorLine(s, "›") === PLACEHOLDER);
		expect(editorLine(await treeAndBack(), "›")).toBe(PLACEHOLDER);
		await backToAlpha();
		t.write("\x15"); // Ctrl+U clears the line
		await t.waitFor((s) => editorLine(s, "›") === PLACEHOLDER);
		expect(editorLine(await treeAndBack(), "›")).toBe(PLACEHOLDER);
	});

	it("a prompt typed into a read-only session stays in the editor with the refusal shown", async () => {
		const file = await seed("a held session");
		holder = await holdSession(file, temp.agentDir);
		const t = temp.open();
		await ready(t);
		await t.type("/resume");
		t.write("\r");
		await t.waitFor("a held session");
		t.write("\r");
		await t.waitFor("Fork it into a new session");
		t.write("r");
		await t.waitFor("Opened read-only: /fork to continue in a copy");
		await t.type("please keep me");
		t.write("\r");
		// a frame can be read half drawn: wait for the refusal and the kept text together
		const screen = await t.waitFor(
			(s) =>
				s.replace(/\s+/g, " ").includes("This session is open read-only (another xcsh has it)") &&
				editorLine(s, "›") === "› please keep me",
		);
		expect(screen).not.toContain("Ask anything");
	});

	it("a prompt typed into a session with a damaged header stays in the editor", async () => {
		const file = await seed("a damaged session");
		const [header, ...rest] = readFileSync(file, "utf8").split("\n");
		writeFileSync(file, [JSON.stringify({ ...JSON.parse(header!), version: "3" }), ...rest].join("\n"));
		const t = temp.open({ args: ["--resume", file] });
		await t.waitFor("answer to a damaged session");
		await t.waitFor("Type a prompt");
		await t.type("keep this too");
		t.write("\r");
		// the setup notice already says it once: wait for the refusal to say it a second time, the text kept
		const screen = await t.waitFor(
			(s) =>
				(s.replace(/\s+/g, "").match(/\/forktocontinueinacopy/g) ?? []).length >= 2 &&
				editorLine(s, "›") === "› keep this too",
		);
		expect(screen).not.toContain("Ask anything");
	});
});
