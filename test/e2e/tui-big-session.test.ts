import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDefaultSessionDir, sessionFileName } from "../../source/session/session-paths.js";
import { BIG_SESSION_LAST_ANSWER, writeBigSession } from "../helpers/big-session.js";
import { KEYS } from "../helpers/keys.js";
import { usePtyProject } from "../helpers/pty-project.js";

describe("a big session from the terminal", () => {
	const temp = usePtyProject();

	it("shows how much of it was read while it opens, and Escape stops it without changing it", {
		timeout: 120_000,
	}, async () => {
		const file = join(temp.root, "big.jsonl");
		writeBigSession(file, 300, 1 << 20, { compactBeforeLast: 2, cwd: temp.project });
		const before = statSync(file);
		const t = temp.open({ args: ["--resume", file] });
		await t.waitFor(/Reading session… \d+ of \d+ MB · Esc cancels/, 60_000);
		t.write(KEYS.escape);
		expect(await t.exited()).toBe(1);
		expect(t.screen()).toContain(`xcsh: Stopped reading ${file}: nothing was opened or changed`);
		const after = statSync(file);
		expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
	});

	it("once read, it stays open on its last answer and takes keys (the progress line let go of stdin)", {
		timeout: 120_000,
	}, async () => {
		const file = join(temp.root, "big.jsonl");
		writeBigSession(file, 300, 1 << 20, { compactBeforeLast: 2, cwd: temp.project });
		const t = temp.open({ args: ["--resume", file] });
		await t.waitForWritten(/Reading session… \d+ of \d+ MB · Esc cancels/, 60_000);
		await t.waitFor((s) => s.includes(BIG_SESSION_LAST_ANSWER) && s.includes("Ask anything"), 60_000);
		await t.type("still here");
		await t.waitFor((s) => s.includes("› still here"));
		await t.stop();
	});

	it("keeps what was typed while it was read, in the prompt once it is open", { timeout: 120_000 }, async () => {
		const file = join(temp.root, "big.jsonl");
		writeBigSession(file, 300, 1 << 20, { compactBeforeLast: 2, cwd: temp.project });
		const t = temp.open({ args: ["--resume", file] });
		await t.waitForWritten(/Reading session… \d+ of \d+ MB · Esc cancels/, 60_000);
		t.write("typed early");
		await t.waitFor((s) => s.includes(BIG_SESSION_LAST_ANSWER) && s.includes("› typed early"), 60_000);
		await t.stop();
	});

	it("--continue shows how much of it was read too, and Escape stops it", { timeout: 120_000 }, async () => {
		const dir = getDefaultSessionDir(temp.project);
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const file = join(dir, sessionFileName("2026-11-01T00:00:00.000Z", "0195big000000001"));
		writeBigSession(file, 300, 1 << 20, { compactBeforeLast: 2, cwd: temp.project });
		const before = statSync(file);
		const t = temp.open({ args: ["--continue"] });
		await t.waitFor(/Reading session… \d+ of \d+ MB · Esc cancels/, 60_000);
		t.write(KEYS.escape);
		expect(await t.exited()).toBe(1);
		expect(t.screen()).toContain("xcsh: Stopped reading the most recent session: nothing was opened or changed");
		const after = statSync(file);
		expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
	});

	it("resumed from /resume, it shows how much was read, and Escape stops it with the chat as it was", {
		timeout: 120_000,
	}, async () => {
		const dir = getDefaultSessionDir(temp.project);
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const name = sessionFileName("2026-11-01T00:00:00.000Z", "0195big000000002");
		const file = join(dir, name);
		writeBigSession(file, 300, 1 << 20, { compactBeforeLast: 2, cwd: temp.project });
		const before = statSync(file);
		const t = temp.open();
		await t.waitFor((s) => s.includes("offline model · ") && s.includes("Ask anything"));
		await t.type("/resume");
		t.write("\r");
		await t.waitFor((s) => s.includes("Resume session") && s.includes("msg"), 30_000);
		t.write("\r");
		await t.waitFor(/Reading session… \d+ of \d+ MB · Esc cancels/, 60_000);
		t.write(KEYS.escape);
		const stopped = `Stopped reading ${name}: nothing was opened or changed`;
		// Back on the chat, which says so.
		const chat = await t.waitFor((s) => s.includes(stopped) && s.includes("Ask anything"), 30_000);
		expect(chat).not.toContain("Resume session");
		expect(chat).not.toContain(BIG_SESSION_LAST_ANSWER);
		const after = statSync(file);
		expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
		await t.stop();
	});

	it("opens with its last answer on screen, and /tree lists it", { timeout: 120_000 }, async () => {
		const file = join(temp.root, "big.jsonl");
		writeBigSession(file, 100, 1 << 20, { compactBeforeLast: 2, cwd: temp.project });
		const t = temp.open({ args: ["--resume", file], env: { XCSH_LAZY_ABOVE_BYTES: String(1 << 20) } });
		await t.waitFor((s) => s.includes(BIG_SESSION_LAST_ANSWER) && s.includes(" · "), 60_000);
		await t.type("/tree");
		t.write("\r");
		const tree = await t.waitFor((s) => s.includes("assistant: The last answer of a very big session."), 30_000);
		// Rows drawn from the skeleton, their text read from disk: the turn before the last one.
		expect(tree).toContain("user: question 98");
		await t.stop();
	});
});
