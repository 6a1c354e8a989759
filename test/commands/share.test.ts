import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportSessionToHtml } from "../../source/export/html/index.js";
import { shareSession } from "../../source/export/share.js";
import { notice, useExportCommands } from "../helpers/export-command-harness.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

describe("/share", () => {
	const { temp, makeSession, stubs, run } = useExportCommands();
	it("asks first: the confirm step states the scope and the secrets found, and running it shares", async () => {
		const { deps, calls } = stubs({ share: { kind: "shared", url: "https://s.example/1" } });
		const session = await makeSession(true);
		const asked = await run(deps, session, "/share");
		expect(asked).toMatchObject({
			kind: "confirm",
			title: expect.stringMatching(
				/^Share the active branch \(\d+ entr(y|ies)\) to a secret gist on github\.com\/tester\? no secrets found$/,
			),
		});
		expect(calls.shared).toHaveLength(0);
		if (asked.kind !== "confirm") throw new Error("expected a confirm step");
		expect(asked.details).toEqual(["Nothing to redact was found."]);
		expect(await asked.run({})).toMatchObject({
			kind: "notice",
			level: "info",
			text: expect.stringContaining("Shared: https://s.example/1"),
		});
		expect(calls.shared).toHaveLength(1);
	});

	it("the confirm step's details name each entry with a secret by role and a redacted snippet", async () => {
		const session = await makeSession(true);
		const token = "ghp_FAKETpnAMD2zhau2IfUknAkMIQJqgDmFwp7F";
		session.sessionManager.appendMessage(userMessage("hello"));
		const cloned = session.sessionManager.appendMessage(
			userMessage(`please run git clone https://x-access-token:${token}@github.com/acme/repo.git for me`),
		);
		const answer = assistantMessage("done");
		answer.content.push({ type: "toolCall", id: "c1", name: "bash", arguments: { command: `echo ${token}` } });
		const called = session.sessionManager.appendMessage(answer);
		const long = session.sessionManager.appendMessage(
			userMessage(`${"word ".repeat(40)}token=${token} ${"tail ".repeat(40)}`),
		);
		const { deps } = stubs();
		const asked = await run(deps, session, "/share");
		if (asked.kind !== "confirm") throw new Error("expected a confirm step");
		expect(asked.title).toBe(
			"Share the active branch (4 entries) to a secret gist on github.com/tester? 3 secrets redacted (3 github-token) — they are redacted before upload",
		);
		expect(asked.details).toEqual([
			`user ${cloned.slice(0, 8)}: "please run git clone https://x-access-token:[REDACTED:github-token]@github.com/acme/repo.git for me" — github-token: ghp_…`,
			`assistant ${called.slice(0, 8)}: "done [Assistant tool call]: bash({"command":"echo [REDACTED:github-token]"})" — github-token: ghp_…`,
			`user ${long.slice(0, 8)}: "…word word word word word word token=[REDACTED:github-token] tail tail tail tail tail tail tail…" — github-token: ghp_…`,
		]);
		expect(asked.details.join("\n")).not.toContain(token);
	});

	it("shows the gist's preview and gist URLs, opens the preview and drives the activity line", async () => {
		const { deps, calls } = stubs({
			share: {
				kind: "shared",
				previewUrl: "https://gistpreview.github.io/?abc",
				gistUrl: "https://gist.github.com/me/abc",
			},
		});
		const activity: (string | undefined)[] = [];
		const controller = new AbortController();
		const result = await run(deps, await makeSession(true), "/share --yes", {
			signal: controller.signal,
			setActivity: (label) => activity.push(label),
		});
		expect(result).toEqual(
			notice("info", "Preview: https://gistpreview.github.io/?abc\nGist: https://gist.github.com/me/abc"),
		);
		expect(calls.opened).toEqual(["https://gistpreview.github.io/?abc"]);
		expect(activity).toEqual(["Creating gist", undefined]);
		expect(calls.shared[0]?.signal).toBe(controller.signal);
	});

	it("shows a custom URL and message, opening the URL, or says how to open it", async () => {
		const { deps, calls } = stubs({ share: { kind: "shared", url: "https://s.example/1", message: "Uploaded" } });
		const session = await makeSession(true);
		expect(await run(deps, session, "/share --yes")).toEqual(notice("info", "Shared: https://s.example/1\nUploaded"));
		expect(calls.opened).toEqual(["https://s.example/1"]);
		const closed = stubs({ opens: false, share: { kind: "shared", url: "https://s.example/2" } });
		expect(await run(closed.deps, session, "/share --yes")).toEqual(
			notice("info", "Shared: https://s.example/2\nCould not open a browser; open the link above yourself"),
		);
		const quiet = stubs({ share: { kind: "shared", message: "Session shared" } });
		expect(await run(quiet.deps, session, "/share --yes")).toEqual(notice("info", "Session shared"));
		expect(quiet.calls.opened).toEqual([]);
	});

	it("reports cancel and errors, always clearing the activity line", async () => {
		const session = await makeSession(true);
		const activity: (string | undefined)[] = [];
		const setActivity = (label: string | undefined) => activity.push(label);
		const cancelled = stubs({ share: { kind: "cancelled" } });
		expect(await run(cancelled.deps, session, "/share --yes", { setActivity })).toEqual(
			notice("warning", "Share cancelled"),
		);
		const failed = stubs({
			share: new Error('GitHub CLI is not logged in. Run "gh auth login", then /share again.'),
		});
		expect(await run(failed.deps, session, "/share --yes", { setActivity })).toEqual(
			notice("error", 'GitHub CLI is not logged in. Run "gh auth login", then /share again.'),
		);
		expect(activity).toEqual(["Creating gist", undefined, "Creating gist", undefined]);
		expect(failed.calls.opened).toEqual([]);
	});

	it("runs the real share flow with a share module, passing the session to the exporter", async () => {
		mkdirSync(temp.agentDir, { recursive: true });
		writeFileSync(
			join(temp.agentDir, "share.mjs"),
			`import { existsSync } from "node:fs";
export default async (htmlPath) => ({ url: "https://s.example/x", message: existsSync(htmlPath) ? "file was there" : "missing" });`,
		);
		const { deps, calls } = stubs();
		deps.share = shareSession;
		const activity: (string | undefined)[] = [];
		const result = await run(deps, await makeSession(true), "/share --yes", { setActivity: (l) => activity.push(l) });
		expect(result).toEqual(notice("info", "Shared: https://s.example/x\nfile was there"));
		expect(activity).toEqual(["Sharing", undefined]);
		expect(calls.exported).toHaveLength(1);
		expect(existsSync(calls.exported[0]!)).toBe(false);
	});

	it("shares an in-memory session: the confirm step, then the upload of the HTML made from memory", async () => {
		const session = await makeSession(false);
		session.sessionManager.appendMessage(userMessage("shared from memory"));
		const { deps, calls } = stubs();
		deps.share = async (options) => {
			calls.shared.push(options);
			await options.exportHtml(join(temp.root, "upload.html"));
			return { kind: "shared", url: "https://s.example/m" };
		};
		const asked = await run(deps, session, "/share");
		if (asked.kind !== "confirm") throw new Error(`expected a confirm step, got ${JSON.stringify(asked)}`);
		expect(asked.title).toBe(
			"Share the active branch (1 entry) to a secret gist on github.com/tester? no secrets found",
		);
		let html = "";
		deps.exportHtml = async (current, outputPath, choice) => {
			const path = await exportSessionToHtml(current.sessionManager, undefined, { outputPath, ...choice });
			html = readFileSync(path, "utf8");
			return path;
		};
		expect(await asked.run({})).toEqual(
			notice("info", "Shared the active branch (1 entry)\nShared: https://s.example/m"),
		);
		expect(html).toContain("shared from memory");
		expect(calls.shared).toHaveLength(1);
	});
});
