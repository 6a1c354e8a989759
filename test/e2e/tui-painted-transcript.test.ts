import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { usePtyProject } from "../helpers/pty-project.js";
import type { PtyTerminal } from "../helpers/pty-terminal.js";

/**
 * On a terminal the transcript's rows are painted beside Ink (Ink's frame erases every line it
 * owns on each write): after typing, scrolling, a resize or another screen, the screen must be the
 * one a fresh start in the same state shows, with nothing missing and nothing stale.
 */
const KEY = { enter: "\r", pageUp: "\x1b[5~", end: "\x1b[F", escape: "\x1b", ctrlU: "\x15" };
const MARKER = /↓ [\d,]+ more · End/;
const BODY = "A line of the answer.";

function editorTop(cols: number): string {
	return `╭${"─".repeat(cols - 2)}╮`;
}

/** The screen without its editor row (the only row typing changes). */
function withoutEditor(screen: string): string {
	return screen
		.split("\n")
		.filter((line) => !line.startsWith("│ ›"))
		.join("\n");
}

describe("the painted transcript in the full-screen UI", () => {
	const temp = usePtyProject();

	async function longSession(turns: number): Promise<void> {
		const session = await SessionManager.create(temp.project);
		for (let i = 0; i < turns; i++) {
			session.appendMessage(userMessage(`question ${i}`));
			session.appendMessage(assistantMessage(`answer ${i}\n\n${`${BODY}\n`.repeat(3)}`));
		}
		await session.close();
	}

	async function openAtEnd(cols: number, rows: number): Promise<PtyTerminal> {
		const t = temp.open({ args: ["--continue"], cols, rows });
		// A whole frame, status line included: it is what the frames below are compared with.
		await t.waitFor(
			(s) =>
				s.includes("answer 29") &&
				s.includes("Ask anything") &&
				s.includes(editorTop(cols)) &&
				s.includes("offline model · "),
		);
		return t;
	}

	it("typing and scrolling keep every transcript row; a resize shows what a fresh start at that size shows", async () => {
		await longSession(30);
		// The reference: a fresh start at 80×24 with "draft" typed (the session lock allows one at a time).
		const reference = await openAtEnd(80, 24);
		await reference.type("draft");
		const expected = await reference.waitFor("› draft");
		await reference.stop();

		const t = await openAtEnd(100, 24);
		const atEnd = t.screen();
		await t.type("draft");
		// Ink's frame erased the transcript's lines: the rows were painted again, unchanged.
		const typed = await t.waitFor((s) => withoutEditor(s) === withoutEditor(atEnd)).catch(() => t.screen());
		expect(withoutEditor(typed)).toBe(withoutEditor(atEnd));
		expect(typed).toContain("answer 29");

		t.write(KEY.pageUp);
		const scrolled = await t.waitFor((s) => MARKER.test(s) && !s.includes("answer 29"));
		expect(scrolled).toContain(BODY);
		await t.type("x", "› draftx");
		const typedScrolled = await t.waitFor((s) => withoutEditor(s) === withoutEditor(scrolled)).catch(() => t.screen());
		expect(withoutEditor(typedScrolled)).toBe(withoutEditor(scrolled));

		// End on an empty editor goes back to the end
		t.write(KEY.ctrlU);
		await t.waitFor("Ask anything");
		t.write(KEY.end);
		await t.waitFor((s) => s.includes("answer 29") && !MARKER.test(s));
		await t.type("draft");
		t.resize(80, 24);
		// xterm.js keeps the cells past the new width in its buffer (for a later widening) where no
		// terminal shows them: the screen a person sees is each line's first 80 columns.
		const visible = (s: string) =>
			s
				.split("\n")
				.map((line) => line.slice(0, 80).trimEnd())
				.join("\n");
		// waits for the frame to settle at the new size; on a timeout, the difference is what fails
		const resized = await t.waitFor((s) => visible(s) === expected).catch(() => t.screen());
		expect(visible(resized)).toBe(expected);
	});

	it("leaving for /tree leaves no transcript row behind, and coming back draws them again", async () => {
		await longSession(30);
		const t = await openAtEnd(100, 24);
		// The whole frame, status line included: a frame can be read half drawn.
		const before = await t.waitFor((s) => s.includes("offline model · "));
		await t.type("/tree");
		t.write(KEY.enter);
		const tree = await t.waitFor("Session tree");
		// the tree previews messages on indented rows; a row that is just the body is the transcript's
		expect(tree.split("\n")).not.toContain(BODY);
		expect(tree.split("\n")).not.toContain("answer 29");
		expect(tree).not.toMatch(MARKER);
		t.write(KEY.escape);
		const back = await t.waitFor(
			(s) => s.includes(BODY) && s.includes("Ask anything") && s.includes("offline model · "),
		);
		expect(back).toBe(before);
	});
});
