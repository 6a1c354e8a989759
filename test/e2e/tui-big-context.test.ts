import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { BIG_SESSION_LAST_ANSWER, writeBigSession } from "../helpers/big-session.js";
import { KEYS } from "../helpers/keys.js";
import { usePtyProject } from "../helpers/pty-project.js";

/** Read as a big session is (bodies on disk), at a size a test writes in a moment. */
const LAZY = { XCSH_LAZY_ABOVE_BYTES: String(1 << 20) };

describe("a session whose path is bigger than the model's window, in the full screen", () => {
	const temp = usePtyProject();

	it("opens on its last answer; a prompt compacts it first, with a progress line, then is answered", {
		timeout: 120_000,
	}, async () => {
		const file = join(temp.root, "big.jsonl");
		// ~1,500 turns of ~4,000 tokens, no compaction: 6M tokens against the offline model's 128k.
		writeBigSession(file, 1500, 16_000, { cwd: temp.project });
		const t = temp.open({ args: ["--resume", file], env: LAZY });
		await t.waitFor((s) => s.includes(BIG_SESSION_LAST_ANSWER) && s.includes("Ask anything"), 60_000);
		await t.type("what next?");
		t.write(KEYS.enter);
		await t.waitForWritten(/Compacting the context · \d+ of \d+ MB read · Esc stops/, 60_000);
		const answered = await t.waitFor(
			(s) => s.includes('You said: "what next?"') && /Compacted [\d,]+ tokens into a summary/.test(s),
			60_000,
		);
		expect(answered).not.toContain("Compaction failed");
		await t.stop();
		const reopened = await SessionManager.open(file, { breadcrumb: false });
		const branch = reopened.getBranch();
		const at = branch.findLastIndex((entry) => entry.type === "compaction");
		expect(at).toBeGreaterThan(0);
		expect(branch.findLastIndex((entry) => JSON.stringify(entry).includes("what next?"))).toBeGreaterThan(at);
		await reopened.close();
	});

	it("Escape stops the compaction, and says the prompt was not sent", { timeout: 120_000 }, async () => {
		const file = join(temp.root, "big.jsonl");
		// 200 MB: its compaction reads for seconds, Escape lands well within them.
		writeBigSession(file, 2500, 80_000, { cwd: temp.project });
		const t = temp.open({ args: ["--resume", file] });
		await t.waitFor((s) => s.includes(BIG_SESSION_LAST_ANSWER) && s.includes("Ask anything"), 60_000);
		await t.type("what next?");
		t.write(KEYS.enter);
		await t.waitForWritten(/Compacting the context · \d+ of \d+ MB read · Esc stops/, 60_000);
		t.write(KEYS.escape);
		const stopped = await t.waitFor((s) => s.includes("Compaction stopped, so the prompt was not sent"), 60_000);
		expect(stopped).not.toContain('You said: "what next?"');
		await t.stop();
		const reopened = await SessionManager.open(file, { breadcrumb: false });
		expect(reopened.getBranch().some((entry) => entry.type === "compaction")).toBe(false);
		await reopened.close();
	});
});
