import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BRANCH_NOTICE, MOVED_NOTICE, openedAtMatchNotice } from "../../controllers/search-controller.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { holdSession } from "../helpers/hold-session.js";
import { KEYS } from "../helpers/keys.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { PtyTerminal } from "../helpers/pty-terminal.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** The end of the search screen's footer, its last line. */
const FOOTER_END = "filter · Esc back";
const MONTH_AGO = () => new Date(Date.now() - 31 * 86_400_000);

/** Writes a session the way xcsh would, with every entry stamped `at` (SessionManager stamps `new Date()`). */
async function writeSessionAt(cwd: string, at: Date, build: (sm: SessionManager) => void): Promise<string> {
	vi.useFakeTimers({ toFake: ["Date"], now: at });
	try {
		const sm = await SessionManager.create(cwd);
		build(sm);
		await sm.close();
		return sm.getSessionFile()!;
	} finally {
		vi.useRealTimers();
	}
}

function append(sm: SessionManager, messages: readonly AgentMessage[]): string[] {
	return messages.map((message) => sm.appendMessage(message));
}

describe("/search in the full-screen UI", () => {
	const temp = useTempAgentDir();
	let project: string;
	let other: string;
	let term: PtyTerminal | undefined;

	beforeEach(async () => {
		project = join(temp.root, "project");
		other = join(temp.root, "other");
		mkdirSync(project);
		mkdirSync(other);
		await writeSessionAt(project, new Date(), (sm) =>
			append(sm, [userMessage("local chatter"), assistantMessage("nothing planted here")]),
		);
	});
	afterEach(async () => {
		await term?.stop();
		term = undefined;
	});

	async function searchAllProjects(t: PtyTerminal, phrase: string): Promise<string> {
		await t.waitFor("Type a prompt");
		await t.type(`/search ${phrase}`);
		t.write(KEYS.enter);
		// this project first: the phrase is only in the other one, once the index has caught up
		await t.waitFor(
			(s) =>
				s.includes("Search — this project (Tab: all projects)") &&
				s.includes("No matches") &&
				!s.includes("updating the index"),
		);
		t.write(KEYS.tab);
		// the footer is drawn last: once it shows, so do the rows above it
		return t.waitFor(
			(s) => s.includes("Search — all projects (Tab: this project)") && s.includes("1 match") && s.includes(FOOTER_END),
		);
	}

	it("finds a phrase in an old session of another project and opens that session at the matching entry", async () => {
		let id = "";
		await writeSessionAt(other, MONTH_AGO(), (sm) => {
			id = sm.getSessionId();
			return append(sm, [
				userMessage("how do we rotate the keys"),
				assistantMessage("Use the vault; the periwinkle lighthouse runbook has the steps."),
				userMessage("and after that?"),
				assistantMessage("Then restart the ingress."),
			]);
		});
		const t = new PtyTerminal({ cwd: project, agentDir: temp.agentDir });
		term = t;
		const results = await searchAllProjects(t, "periwinkle lighthouse");
		expect(results).toContain("other ·");
		expect(results).toContain("assistant");
		expect(results).toContain("the periwinkle lighthouse runbook has the steps");
		t.write(KEYS.enter);
		const chat = await t.waitFor((s) => s.includes(MOVED_NOTICE) && s.includes("Ask anything"));
		expect(chat).toContain("how do we rotate the keys");
		expect(chat).toContain("periwinkle lighthouse runbook");
		expect(chat).not.toContain("restart the ingress");
		expect(chat).not.toContain("local chatter");
		expect(chat).toContain(openedAtMatchNotice(undefined, id));
	});

	it("a match on an abandoned branch opens the tree view on that entry and leaves the leaf alone", async () => {
		await writeSessionAt(other, MONTH_AGO(), (sm) => {
			const [, ok] = append(sm, [userMessage("start the migration"), assistantMessage("ok, starting")]);
			append(sm, [userMessage("try the first plan"), assistantMessage("The periwinkle lighthouse plan failed.")]);
			sm.branch(ok!);
			append(sm, [userMessage("try plan b"), assistantMessage("Plan b works.")]);
		});
		const t = new PtyTerminal({ cwd: project, agentDir: temp.agentDir });
		term = t;
		await searchAllProjects(t, "periwinkle lighthouse");
		t.write(KEYS.enter);
		const tree = await t.waitFor((s) => s.includes("Session tree — default") && s.includes("l label · Esc close"));
		const lines = tree.split("\n");
		expect(lines.find((line) => line.startsWith("❯ "))).toContain("assistant: The periwinkle lighthouse plan failed.");
		// the leaf is still the end of plan b
		expect(lines.find((line) => line.includes("Plan b works."))).toContain("●");
		t.write(KEYS.escape);
		const chat = await t.waitFor((s) => s.includes(BRANCH_NOTICE.slice(0, 60)) && s.includes("Ask anything"));
		expect(chat).toContain("Plan b works.");
		expect(chat).not.toContain("periwinkle lighthouse plan failed");
	});

	async function plantRunbook(): Promise<string> {
		return writeSessionAt(other, MONTH_AGO(), (sm) =>
			append(sm, [
				userMessage("how do we rotate the keys"),
				assistantMessage("Use the vault; the periwinkle lighthouse runbook has the steps."),
			]),
		);
	}

	it("a hit in a session open in another xcsh offers the locked-session choice, then goes to the entry", async () => {
		const held = await plantRunbook();
		const holder = await holdSession(held, temp.agentDir);
		try {
			const t = new PtyTerminal({ cwd: project, agentDir: temp.agentDir });
			term = t;
			await searchAllProjects(t, "periwinkle lighthouse");
			t.write(KEYS.enter);
			await t.waitFor(`Session is open in another xcsh (pid ${holder.pid})`);
			await t.waitFor("Cancel (c)");
			t.write("c");
			const cancelled = await t.waitFor((s) => s.includes("Resume cancelled") && s.includes("Ask anything"));
			// still this project's new session
			expect(cancelled).toContain(project);
			expect(cancelled).not.toContain("periwinkle lighthouse runbook");
			await searchAllProjects(t, "periwinkle lighthouse");
			t.write(KEYS.enter);
			await t.waitFor("Cancel (c)");
			t.write("r");
			const opened = await t.waitFor((s) => s.includes(MOVED_NOTICE) && s.includes("(read-only)"));
			expect(opened).toContain("Opened read-only: /fork to continue in a copy");
			expect(opened).toContain("periwinkle lighthouse runbook");
			expect(opened).toContain("(read-only)");
		} finally {
			holder.kill("SIGKILL");
		}
	});

	it("a switch an extension cancels is reported as cancelled and nothing moves", async () => {
		await plantRunbook();
		mkdirSync(join(temp.agentDir, "extensions"), { recursive: true });
		writeFileSync(
			join(temp.agentDir, "extensions", "veto.mjs"),
			'export default (api) => api.on("session_before_switch", (e) => (e.reason === "resume" ? { cancel: true } : undefined));',
		);
		const t = new PtyTerminal({ cwd: project, agentDir: temp.agentDir });
		term = t;
		await searchAllProjects(t, "periwinkle lighthouse");
		t.write(KEYS.enter);
		const chat = await t.waitFor((s) => s.includes("Resume cancelled by an extension") && s.includes("Ask anything"));
		expect(chat).toContain(project);
		expect(chat).not.toContain("periwinkle lighthouse runbook");
		expect(chat).not.toContain(MOVED_NOTICE);
	});
});
