import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { KEYS } from "../helpers/keys.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { usePtyProject } from "../helpers/pty-project.js";
import type { PtyTerminal } from "../helpers/pty-terminal.js";

const SIZE = { cols: 100, rows: 24 };
const MARKER = /↓ [\d,]+ more · End/;

/** Presses a key until the screen matches, at most `limit` times; the screen that matched. */
/** The transcript's first rows: what a scroll moves (a spinner or a status change below does not). */
function topRows(screen: string): string {
	return screen.split("\n").slice(0, 8).join("\n");
}

async function pressUntil(t: PtyTerminal, key: string, done: (screen: string) => boolean, limit: number) {
	for (let i = 0; i < limit; i++) {
		const before = t.screen();
		if (done(before)) return before;
		t.write(key);
		// Each press moves the view: wait for the transcript to move before the next one. Any change
		// would do if nothing else moved, but a running tool's spinner does: a press would still be in flight.
		await t.waitFor((s) => topRows(s) !== topRows(before) || done(s));
	}
	return t.waitFor(done);
}

describe("scrolling the transcript in the full-screen UI", () => {
	const temp = usePtyProject();

	async function longSession(turns: number): Promise<void> {
		const session = await SessionManager.create(temp.project);
		for (let i = 0; i < turns; i++) {
			session.appendMessage(userMessage(`question ${i}`));
			session.appendMessage(assistantMessage(`answer ${i}\n\n${"A line of the answer.\n".repeat(3)}`));
		}
		await session.close();
	}

	it("PgUp reaches the first turn of a session taller than the screen; End comes back", async () => {
		await longSession(60);
		const t = temp.open({ args: ["--continue"], ...SIZE });
		await t.waitFor((s) => s.includes("answer 59") && s.includes("Ask anything"));
		const top = await pressUntil(t, KEYS.pageUp, (s) => s.includes("question 0"), 80);
		expect(top).toMatch(MARKER);
		// the first row of the transcript (the welcome box) is at the top of the screen
		expect(top.split("\n")[0]).toMatch(/^╭─+╮$/);
		expect(top).not.toContain("answer 59");
		t.write(KEYS.end);
		const bottom = await t.waitFor((s) => s.includes("answer 59") && !MARKER.test(s));
		expect(bottom).toContain("Ask anything");
	});

	it("in a small window, PgUp stops with the first row of the transcript at the top of the screen", async () => {
		// A turn first: while it runs the editor's longer placeholder wraps, and the transcript's height changes.
		const t = temp.open({ cols: 50, rows: 14 });
		await t.waitFor("Type a prompt");
		await t.type("list files");
		t.write(KEYS.enter);
		await t.waitFor((s) => s.includes("The bash tool returned") && s.includes("Ask anything"));
		const top = await pressUntil(t, KEYS.pageUp, (s) => s.includes("session") && MARKER.test(s), 20);
		// more PgUps than the transcript has pages: the view rests on its first page
		for (let i = 0; i < 4; i++) t.write(KEYS.pageUp);
		const rest = await t.waitFor((s) => /^╭─+╮$/.test(s.split("\n")[0] ?? "") && MARKER.test(s));
		expect(rest).toContain("xcsh · offline model");
		expect(top).toMatch(MARKER);
	});

	it("the mouse wheel scrolls back to the first turn and down again; it is never typed", async () => {
		await longSession(30);
		const t = temp.open({ args: ["--continue"], ...SIZE });
		await t.waitFor((s) => s.includes("answer 29") && s.includes("Ask anything"));
		const top = await pressUntil(t, KEYS.wheelUp, (s) => s.includes("question 0"), 200);
		expect(top).toMatch(MARKER);
		expect(top).toContain("Ask anything");
		const bottom = await pressUntil(t, KEYS.wheelDown, (s) => s.includes("answer 29") && !MARKER.test(s), 200);
		// the reports were not typed into the editor
		expect(bottom).toContain("Ask anything");
		expect(bottom).not.toContain("[<6");
	});

	it("Shift+↑ scrolls a row; output that arrives meanwhile does not move the view; sending returns to the end", async () => {
		await longSession(30);
		const t = temp.open({ args: ["--continue"], ...SIZE });
		await t.waitFor((s) => s.includes("answer 29") && s.includes("Ask anything"));
		t.write(KEYS.shiftUp);
		const scrolled = await t.waitFor((s) => /↓ 1 more · End/.test(s));
		expect(scrolled).toContain("answer 29");
		t.write(KEYS.end);
		await t.waitFor((s) => !MARKER.test(s));

		await t.type("run sleep 2; echo finished");
		t.write(KEYS.enter);
		await t.waitFor("Running bash");
		const held = await pressUntil(t, KEYS.pageUp, (s) => MARKER.test(s) && !s.includes("sleep 2"), 5);
		// the answer arrives below: the rows on screen stay, the marker counts more below
		const after = await t.waitFor((s) => s.includes("Ask anything") && !s.includes("Running bash") && MARKER.test(s));
		expect(topRows(after)).toBe(topRows(held));
		expect(after).not.toContain("finished");

		await t.type("a new question");
		t.write(KEYS.enter);
		const end = await t.waitFor(
			(s) => s.includes('You said: "a new question"') && s.includes("Ask anything") && !MARKER.test(s),
		);
		expect(end).toContain("a new question");
	});

	it("Ctrl+O shows a tool result in full (its 40th line), and the cut is named while collapsed", async () => {
		const lines = Array.from({ length: 40 }, (_, i) => `line ${String(i + 1).padStart(2, "0")} of the file`);
		writeFileSync(join(temp.project, "long.txt"), `${lines.join("\n")}\n`);
		const t = temp.open({ cols: 100, rows: 60 });
		await t.waitFor("Type a prompt");
		await t.type("read long.txt");
		t.write(KEYS.enter);
		const collapsed = await t.waitFor((s) => s.includes("The read tool returned") && s.includes("Ask anything"));
		expect(collapsed).toContain("line 04 of the file");
		expect(collapsed).not.toContain("line 40 of the file");
		expect(collapsed).toMatch(/… \+\d+ lines \(Ctrl\+O to show all\)/);
		t.write(KEYS.ctrlO);
		const expanded = await t.waitFor("line 40 of the file");
		expect(expanded).not.toContain("Ctrl+O to show all");
		t.write(KEYS.ctrlO);
		await t.waitFor((s) => !s.includes("line 40 of the file") && s.includes("Ctrl+O to show all"));
	});

	it("a tail-truncated bash result shows the truncation note with the full log's path", async () => {
		const t = temp.open({ cols: 100, rows: 30 });
		await t.waitFor("Type a prompt");
		await t.type("run seq 1 3000");
		t.write(KEYS.enter);
		const screen = await t.waitFor((s) => /Full output:\s+\/\S+\.log/.test(s) && s.includes("Ask anything"));
		expect(screen).toContain("[Output truncated: showing the last");
	});
});
