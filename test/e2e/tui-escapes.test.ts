import { join } from "node:path";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { usePtyProject } from "../helpers/pty-project.js";
import { PtyTerminal } from "../helpers/pty-terminal.js";
import { toolCallMessage } from "../index/session-fixtures.js";

const ESC = "\u001b";
const BEL = "\u0007";

describe("hostile session content in the full-screen UI", () => {
	const temp = usePtyProject();

	async function seed(): Promise<void> {
		const session = await SessionManager.create(temp.project);
		session.appendMessage(userMessage("show me the notes file"));
		session.appendMessage(toolCallMessage("read", { path: "notes.txt" }));
		session.appendMessage(toolResultMessage(`notes begin ${ESC}]0;PWNED${BEL}${ESC}[2J notes end`));
		session.appendMessage(assistantMessage("the notes are above"));
		await session.setSessionName(`renamed ${ESC}]0;PWNED-BY-NAME${BEL}`);
		await session.close();
	}

	it("a resumed tool result neither retitles the window nor clears the screen", async () => {
		await seed();
		const t = temp.open({ args: ["--continue"] });
		const screen = await t.waitFor("the notes are above");
		expect(t.titles.filter((title) => title.includes("PWNED"))).toEqual([]);
		// Drawn before the tool output: a clear would have erased it.
		expect(screen).toContain("show me the notes file");
		expect(screen).toContain("notes begin ␛]0;PWNED␇␛[2J notes end");
		expect(screen).toContain("renamed ␛]0;PWNED-BY-NAME␇");
	});

	it("the --resume picker shows a hostile title without retitling the window", async () => {
		await seed();
		const t = temp.open({ args: ["--resume"] });
		const screen = await t.waitFor("renamed ␛]0;PWNED-BY-NAME␇");
		expect(screen).toContain("Resume session — this project");
		expect(t.titles.filter((title) => title.includes("PWNED"))).toEqual([]);
	});

	it("on a terminal, xcsh sessions --all cuts its rows to the terminal width", async () => {
		await seed();
		const long = await SessionManager.create(join(temp.project, "deep/".repeat(40)));
		long.appendMessage(userMessage(`a long first prompt ${"word ".repeat(200)}`));
		long.appendMessage(assistantMessage("ok"));
		await long.close();
		const t = new PtyTerminal({ args: ["sessions", "--all"], cwd: temp.project, agentDir: temp.agentDir, cols: 80 });
		expect(await t.exited()).toBe(0);
		const lines = t.raw.split("\r\n").filter((line) => line.length > 0);
		expect(lines).toHaveLength(2);
		for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(80);
		expect(t.raw).toContain("renamed ␛]0;");
		expect(t.titles).toEqual([]);
	});
});
