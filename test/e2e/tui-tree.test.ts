import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { KEYS } from "../helpers/keys.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { usePtyProject } from "../helpers/pty-project.js";

const SIZE = { cols: 100, rows: 24 };

/** The screen's lines, and the one with the selection cursor. */
function selectedLine(screen: string): string | undefined {
	return screen.split("\n").find((line) => line.startsWith("❯ "));
}

/** Each wait names the whole frame it expects (selected row, scroll marker, footer): a frame can be read half drawn. */
function framed(selected: string, marker: RegExp): (screen: string) => boolean {
	return (s) => selectedLine(s)?.includes(selected) === true && marker.test(s) && s.includes("l label · Esc close");
}

describe("/tree in the full-screen UI", () => {
	const temp = usePtyProject();

	async function saved(build: (sm: SessionManager) => void): Promise<void> {
		const session = await SessionManager.create(temp.project);
		build(session);
		await session.close();
	}

	it("on a 300-entry session at 100×24 shows its title and the selected row after Home and End", async () => {
		await saved((sm) => {
			for (let i = 0; i < 150; i++) {
				sm.appendMessage(userMessage(`question ${i}`));
				sm.appendMessage(assistantMessage(`answer ${i}`));
			}
		});
		const t = temp.open({ args: ["--continue"], ...SIZE });
		await t.waitFor("answer 149");
		await t.type("/tree");
		t.write(KEYS.enter);
		let screen = await t.waitFor(framed("● assistant: answer 149", /▲ \d+ more/));
		expect(screen.split("\n")[0]).toBe("Session tree — default (Tab: filter)");

		t.write(KEYS.home);
		screen = await t.waitFor(framed("user: question 0", /▼ \d+ more/));
		expect(screen.split("\n")[0]).toBe("Session tree — default (Tab: filter)");

		t.write(KEYS.end);
		screen = await t.waitFor(framed("● assistant: answer 149", /▲ \d+ more/));
		expect(screen.split("\n")[0]).toBe("Session tree — default (Tab: filter)");
	});

	it("keeps the active path in column 0 with twenty side branches hanging off it", async () => {
		await saved((sm) => {
			sm.appendMessage(userMessage("start"));
			for (let i = 0; i < 20; i++) {
				const answer = sm.appendMessage(assistantMessage(`answer ${i}`));
				sm.appendMessage(userMessage(`side ${i}`));
				sm.branch(answer);
				sm.appendMessage(userMessage(`main ${i}`));
			}
			sm.appendMessage(assistantMessage("the last answer"));
		});
		const t = temp.open({ args: ["--continue"], ...SIZE });
		await t.waitFor("the last answer");
		await t.type("/tree");
		t.write(KEYS.enter);
		const atEnd = await t.waitFor(framed("● assistant: the last answer", /▲ \d+ more/));
		t.write(KEYS.home);
		const atHome = await t.waitFor(framed("user: start", /▼ \d+ more/));
		for (const screen of [atEnd, atHome]) {
			const lines = screen.split("\n");
			const main = lines.filter((line) => /user: main \d+$/.test(line));
			const side = lines.filter((line) => /user: side \d+$/.test(line));
			expect(main.length).toBeGreaterThan(3);
			expect(side.length).toBeGreaterThan(3);
			// "❯ " or two spaces, the "• " path marker, then the text: column 4 whatever the branch count.
			for (const line of main) expect(line.indexOf("user: main"), line).toBe(4);
			for (const line of side) expect(line.indexOf("├─ user: side"), line).toBe(2);
		}
		expect(atEnd).toContain("main 19");
		expect(atHome).toContain("main 0");
	});
});
