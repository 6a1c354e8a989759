import { describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { usePtyProject } from "../helpers/pty-project.js";

describe("scratch", () => {
	const temp = usePtyProject();
	it("starting box", async () => {
		const t = temp.open();
		await t.waitFor("starting");
		t.write("early bird");
		await t.waitFor("Type a prompt");
		await new Promise((r) => setTimeout(r, 1000));
		console.log(t.screen());
		console.log(JSON.stringify(t.raw.slice(0, 400)));
	});
	it("early picker", async () => {
		const s = await SessionManager.create(temp.project);
		s.appendMessage(userMessage("lockfile q"));
		s.appendMessage(assistantMessage("a"));
		await s.close();
		const t = temp.open({ args: ["--resume"] });
		t.write("lock");
		await t.waitFor("lockfile q");
		await new Promise((r) => setTimeout(r, 1500));
		console.log(t.screen());
	});
});
