import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordShare } from "../../source/export/share-registry.js";
import { HistoryStorage } from "../../source/session/history-storage.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const ESC = "\u001b";
const BEL = "\u0007";
/** Every attack the issue names: retitle + clear, clipboard write, hyperlink, 8-bit CSI, a bell. */
const HOSTILE = [
	`${ESC}]0;PWNED${BEL}${ESC}[2J`,
	`${ESC}]52;c;cHduZWQ=${BEL}`,
	`${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`,
	"\u009b31m",
	BEL,
].join(" zebra ");

/** Any control a terminal acts on, other than tab and newline: C0, DEL, C1. */
const CONTROL = new RegExp(
	`[${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(11)}-${String.fromCharCode(31)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}]`,
);

function expectNoControls(text: string): void {
	const found = CONTROL.exec(text);
	expect(found, found ? `control U+${found[0].charCodeAt(0).toString(16)} at ${found.index}` : "").toBeNull();
}

describe("CLI printers never write session content raw", () => {
	const temp = useTempAgentDir();
	const run = (args: string[], cwd = temp.root) => runCli(args, { agentDir: temp.agentDir, cwd });

	async function hostileSession(cwd: string): Promise<SessionManager> {
		const session = await SessionManager.create(cwd);
		session.appendMessage(userMessage(`first prompt ${HOSTILE}`));
		session.appendMessage(assistantMessage("reading it"));
		session.appendMessage(toolResultMessage(`tool output ${HOSTILE}`));
		await session.setSessionName(`title ${HOSTILE}`);
		await session.close();
		return session;
	}

	it("sessions and sessions --all show titles and projects with visible escapes", async () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		await hostileSession(project);
		await hostileSession(`/elsewhere/${ESC}]0;CWD${BEL}proj`);
		for (const args of [["sessions"], ["sessions", "--all"]]) {
			const out = run(args, project);
			expect(out.status).toBe(0);
			expectNoControls(out.stdout + out.stderr);
			expect(out.stdout).toContain("title ␛]0;PWNED␇␛[2J zebra ␛]52;c;cHduZWQ=␇");
		}
		expect(run(["sessions", "--all"], project).stdout).toContain("/elsewhere/␛]0;CWD␇proj");
	});

	it("sessions info shows the title and project with visible escapes", async () => {
		const session = await hostileSession(`/p/${ESC}[2Jdir`);
		const out = run(["sessions", "info", session.getSessionFile()!]);
		expect(out.status).toBe(0);
		expectNoControls(out.stdout + out.stderr);
		expect(out.stdout).toContain("title ␛]0;PWNED␇␛[2J zebra");
		expect(out.stdout).toContain("\\x9b31m zebra ␇");
		expect(out.stdout).toContain("/p/␛[2Jdir");
	});

	it("search shows titles and tool-output snippets with visible escapes", async () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		await hostileSession(project);
		const out = run(["search", "zebra", "--limit", "10"], project);
		expect(out.status).toBe(0);
		expectNoControls(out.stdout + out.stderr);
		expect(out.stdout).toContain("␛]0;PWNED␇");
		const missing = run(["search", `nothing${ESC}[2J`], project);
		expectNoControls(missing.stdout);
		expect(missing.stdout).toBe('No matches for "nothing␛[2J" in this project (try --all).\n');
	});

	it("history shows prompts with visible escapes", async () => {
		const history = HistoryStorage.open();
		history.add(`a prompt ${HOSTILE}`, "/p");
		await history.close();
		const out = run(["history"]);
		expect(out.status).toBe(0);
		expectNoControls(out.stdout + out.stderr);
		expect(out.stdout).toContain("a prompt ␛]0;PWNED␇␛[2J zebra");
		const missing = run(["history", `none${BEL}`]);
		expect(missing.stdout).toBe('No prompts match "none␇".\n');
	});

	it("doctor shows parser messages and paths with visible escapes", async () => {
		const project = join(temp.root, `proj${ESC}]0;DIR${BEL}`);
		mkdirSync(project);
		const session = await hostileSession(project);
		const file = session.getSessionFile()!;
		appendFileSync(file, `{"broken": ${ESC}]0;PWNED${BEL}${ESC}[2J\u009b\n`);
		const out = run(["doctor", file]);
		expect(out.status).toBe(1);
		expectNoControls(out.stdout + out.stderr);
		expect(out.stdout).toContain("Unexpected token '␛'");
		expect(out.stdout).toContain("proj␛]0;DIR␇");
	});

	it("shares shows a recorded URL with visible escapes", async () => {
		await recordShare({
			sessionId: `s${ESC}]0;SID${BEL}`,
			sharedAt: "2026-01-02T03:04:05.000Z",
			url: `https://share.example/${ESC}]8;;https://evil.example/${ESC}\\x`,
			scope: "session",
		});
		const out = run(["shares"]);
		expect(out.status).toBe(0);
		expectNoControls(out.stdout + out.stderr);
		expect(out.stdout).toContain("s␛]0;SID␇");
		expect(out.stdout).toContain("https://share.example/␛]8;;https://evil.example/␛\\x");
	});

	it("--json output escapes every control, C1 and DEL included, and keeps the values", async () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		const session = await hostileSession(project);
		const history = HistoryStorage.open();
		history.add(`a prompt ${HOSTILE}\u007f`, "/p");
		await history.close();
		const file = session.getSessionFile()!;
		appendFileSync(file, `{"broken": ${ESC}]0;PWNED${BEL}\u009b\n`);
		const outputs = [
			run(["sessions", "--json"], project),
			run(["sessions", "--all", "--json"], project),
			run(["sessions", "info", file, "--json"], project),
			run(["search", "zebra", "--json"], project),
			run(["history", "--json"], project),
			run(["doctor", file, "--json"], project),
		];
		for (const out of outputs) {
			expectNoControls(out.stdout + out.stderr);
			expect(() => JSON.parse(out.stdout)).not.toThrow();
		}
		const [listed] = JSON.parse(outputs[0]!.stdout) as { title: string }[];
		expect(listed!.title).toBe(`title ${HOSTILE}`);
		const [prompt] = JSON.parse(outputs[4]!.stdout) as { prompt: string }[];
		expect(prompt!.prompt).toBe(`a prompt ${HOSTILE}\u007f`);
		expect(outputs[0]!.stdout).toContain("\\u009b31m");
	});
});

describe("CLI tables cut long cells", () => {
	const temp = useTempAgentDir();
	const run = (args: string[], cwd = temp.root) => runCli(args, { agentDir: temp.agentDir, cwd });

	it("a 5,000-character title, project and first prompt keep sessions --all small", async () => {
		const long = "x".repeat(5000);
		for (let i = 0; i < 3; i++) {
			// The default folder name is made from the project path, too long for the file system here.
			const dir = join(temp.agentDir, "sessions", `p${i}`);
			const session = await SessionManager.create(`/projects/${i}-${long}`, { sessionDir: dir });
			session.appendMessage(userMessage(`${i} ${"prompt ".repeat(800)}`));
			session.appendMessage(assistantMessage("ok"));
			if (i === 0) await session.setSessionName(`${"title ".repeat(900)}`);
			await session.close();
		}
		const out = run(["sessions", "--all"]);
		expect(out.status).toBe(0);
		const lines = out.stdout.trimEnd().split("\n");
		expect(lines).toHaveLength(3);
		// id, time, count, project (cut to 120 with …) and title: a few hundred columns at most.
		for (const line of lines) expect(line.length).toBeLessThan(400);
		expect(out.stdout).toContain(`/projects/0-${"x".repeat(50)}`);
		expect(out.stdout).toContain("…");
	});

	it("sessions info cuts a 5,000-character title", async () => {
		const session = await SessionManager.create(temp.root);
		session.appendMessage(userMessage("hello"));
		session.appendMessage(assistantMessage("hi"));
		await session.setSessionName("t".repeat(5000));
		await session.close();
		const out = run(["sessions", "info", session.getSessionFile()!]);
		expect(out.stderr).toBe("");
		expect(out.status).toBe(0);
		const title = out.stdout.split("\n").find((line) => line.startsWith("Title"))!;
		expect(title.length).toBeLessThan(600);
		expect(title.endsWith("…")).toBe(true);
	});
});
