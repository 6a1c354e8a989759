import { describe, expect, it } from "vitest";
import { notice, useExportCommands } from "../helpers/export-command-harness.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

describe("/dump", () => {
	const { makeSession, stubs, run } = useExportCommands();
	it("says there is nothing to dump in an empty session", async () => {
		const { deps, calls } = stubs();
		expect(await run(deps, await makeSession(false), "/dump")).toEqual(notice("info", "No messages to dump yet"));
		expect(calls.copied).toEqual([]);
	});

	it("copies the session text, in memory too, naming OSC 52 when used", async () => {
		const session = await makeSession(false);
		session.sessionManager.appendMessage(userMessage("how do I dump?"));
		session.sessionManager.appendMessage(assistantMessage("like this"));
		const { deps, calls } = stubs();
		expect(await run(deps, session, "/dump")).toEqual(notice("info", "Session copied to the clipboard"));
		expect(calls.copied).toEqual([session.formatSessionAsText()]);
		expect(calls.copied[0]).toContain("how do I dump?");
		expect(calls.copied[0]).toContain("like this");

		const osc = stubs({ clipboard: "osc52" });
		expect(await run(osc.deps, session, "/dump")).toEqual(notice("info", "Session copied to the clipboard (OSC 52)"));
		const tmux = stubs({ clipboard: "osc52-dropped-by-tmux" });
		expect(await run(tmux.deps, session, "/dump")).toEqual(
			notice(
				"warning",
				"Not copied: tmux drops the clipboard sequence (OSC 52) unless set-clipboard is on; run tmux set -g set-clipboard on, then /dump again",
			),
		);
		const broken = stubs({ clipboard: new Error("no terminal") });
		expect(await run(broken.deps, session, "/dump")).toEqual(
			notice("error", "Could not copy to the clipboard: no terminal"),
		);
	});

	it("refuses a session over the clipboard limit in one line that names /export, and copies nothing", async () => {
		const session = await makeSession(false);
		const block = "x".repeat(3 * 1024 * 1024);
		for (let i = 0; i < 3; i++) {
			session.sessionManager.appendMessage(userMessage(`part ${i} ${block}`));
			session.sessionManager.appendMessage(assistantMessage("ok"));
		}
		const { deps, calls } = stubs();
		expect(await run(deps, session, "/dump")).toEqual(
			notice(
				"warning",
				"This session is too big for the clipboard (over 8 MB of text): use /export to write it to a file",
			),
		);
		expect(calls.copied).toEqual([]);
	});
});
