import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { type ExportCommandDeps, exportCommands } from "../../source/commands/export-commands.js";
import type { CommandContext, CommandResult, SlashCommand } from "../../source/commands/types.js";
import type { ClipboardMethod } from "../../source/export/clipboard.js";
import { exportSessionToHtml } from "../../source/export/html/index.js";
import { type ShareOptions, type ShareResult, shareSession } from "../../source/export/share.js";
import { AgentSession } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("/dump, /export and /share", () => {
	const temp = useTempAgentDir();
	const sessions: AgentSession[] = [];

	afterEach(async () => {
		for (const session of sessions.splice(0)) await session.dispose();
	});

	async function makeSession(persisted: boolean): Promise<AgentSession> {
		const sessionManager = persisted ? await SessionManager.create(temp.root) : SessionManager.inMemory(temp.root);
		const session = await AgentSession.create({
			sessionManager,
			models: { find: () => undefined, getApiKey: () => undefined },
			model: OFFLINE_MODEL,
		});
		sessions.push(session);
		return session;
	}

	/** Stub deps that record their calls. */
	function stubs(options: { opens?: boolean; clipboard?: ClipboardMethod | Error; share?: ShareResult | Error } = {}) {
		const calls = {
			exported: [] as (string | undefined)[],
			opened: [] as string[],
			copied: [] as string[],
			shared: [] as ShareOptions[],
		};
		const deps: ExportCommandDeps = {
			async exportHtml(_session, outputPath) {
				calls.exported.push(outputPath);
				const path = outputPath ?? join(temp.root, "default-export.html");
				await writeFile(path, "<html></html>");
				return path;
			},
			async share(shareOptions) {
				calls.shared.push(shareOptions);
				shareOptions.onPhase?.("Creating gist");
				if (options.share instanceof Error) throw options.share;
				return options.share ?? { kind: "cancelled" };
			},
			async openInBrowser(target) {
				calls.opened.push(target);
				return options.opens ?? true;
			},
			async shareDestination() {
				return "a secret gist on github.com/tester";
			},
			async copyToClipboard(text) {
				calls.copied.push(text);
				if (options.clipboard instanceof Error) throw options.clipboard;
				return options.clipboard ?? "clipboard";
			},
		};
		return { deps, calls };
	}

	async function run(
		deps: ExportCommandDeps,
		session: AgentSession,
		line: string,
		extra: Partial<CommandContext> = {},
	): Promise<CommandResult> {
		const [name = "", ...rest] = line.slice(1).split(" ");
		const command = exportCommands(deps).find((c: SlashCommand) => c.name === name);
		if (!command) throw new Error(`no /${name}`);
		const context: CommandContext = {
			session,
			models: { list: () => [], find: () => undefined, missingKey: () => undefined },
			...extra,
		};
		return command.run(context, rest.join(" "));
	}

	const notice = (level: "info" | "warning" | "error", text: string) => ({ kind: "notice", level, text });

	describe("/dump", () => {
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
	});

	describe("/export", () => {
		it("exports to a quoted path with spaces intact and opens it", async () => {
			const session = await makeSession(true);
			const entriesBefore = session.sessionManager.getEntries().length;
			const { deps, calls } = stubs();
			const path = join(temp.root, "my file.html");
			expect(await run(deps, session, `/export "${path}"`)).toEqual(notice("info", `Exported to: ${path}`));
			expect(calls.exported).toEqual([path]);
			expect(calls.opened).toEqual([path]);
			expect(session.sessionManager.getEntries()).toHaveLength(entriesBefore);

			const escaped = join(temp.root, "other file.html");
			await run(deps, session, `/export ${escaped.replace(" ", "\\ ")}`);
			expect(calls.exported.at(-1)).toBe(escaped);
		});

		it("without a path exports to the exports folder of the agent dir, and expands ~", async () => {
			const { deps, calls } = stubs();
			const session = await makeSession(true);
			const path = join(temp.agentDir, "exports", `xcsh-session-${session.sessionManager.getSessionId()}.html`);
			expect(await run(deps, session, "/export")).toEqual(notice("info", `Exported to: ${path}`));
			expect(calls.exported).toEqual([path]);
			const home = stubs();
			home.deps.exportHtml = async (_session, outputPath) => {
				home.calls.exported.push(outputPath);
				return outputPath!;
			};
			await run(home.deps, session, "/export ~/out.html");
			expect(home.calls.exported).toEqual([join(homedir(), "out.html")]);
		});

		it("says how to open the file when no browser opens", async () => {
			const { deps } = stubs({ opens: false });
			const path = join(temp.root, "out.html");
			expect(await run(deps, await makeSession(true), `/export ${path}`)).toEqual(
				notice("info", `Exported to: ${path}\nCould not open a browser; open ${pathToFileURL(path).href} yourself`),
			);
		});

		it("refuses the clipboard arguments and points to /dump", async () => {
			const session = await makeSession(true);
			for (const args of ["--copy", "clipboard", "copy", "out.html --copy"]) {
				const { deps, calls } = stubs();
				expect(await run(deps, session, `/export ${args}`)).toEqual(
					notice("warning", "Use /dump to copy the session to the clipboard"),
				);
				expect(calls.exported).toEqual([]);
			}
		});

		it("reports an unterminated quote and an unquoted path with spaces", async () => {
			const session = await makeSession(true);
			const { deps, calls } = stubs();
			expect(await run(deps, session, '/export "my file.html')).toEqual(
				notice("error", 'Unterminated quote in: "my file.html'),
			);
			expect(await run(deps, session, "/export my file.html")).toEqual(
				notice("warning", '/export takes one path; quote a path with spaces, e.g. /export "my session.html"'),
			);
			expect(calls.exported).toEqual([]);
		});

		it("exports an in-memory session (--no-session) to HTML like a saved one, with the real exporter", async () => {
			const session = await makeSession(false);
			session.sessionManager.appendMessage(userMessage("only in memory"));
			const { deps, calls } = stubs();
			deps.exportHtml = (current, outputPath, choice) =>
				exportSessionToHtml(current.sessionManager, undefined, { ...(outputPath ? { outputPath } : {}), ...choice });
			const path = join(temp.root, "memory.html");
			expect(await run(deps, session, `/export ${path}`)).toEqual(
				notice("info", `Exported to: ${path}\nScope: the whole tree (1 entry)`),
			);
			expect(readFileSync(path, "utf8")).toContain("only in memory");
			expect(calls.opened).toEqual([path]);
		});
	});

	it("/export --format md and --format json write the active branch as text", async () => {
		const { deps } = stubs();
		const session = await makeSession(true);
		await session.prompt("hello text export");
		const md = join(temp.root, "out.md");
		expect(await run(deps, session, `/export ${md} --format md --focused`)).toEqual(
			notice("info", `Exported to: ${md}`),
		);
		expect(readFileSync(md, "utf8")).toContain("## 1. User\n\nhello text export");
		const json = join(temp.root, "out.json");
		expect(await run(deps, session, `/export ${json}`)).toEqual(notice("info", `Exported to: ${json}`));
		expect(JSON.parse(readFileSync(json, "utf8")).messages[0].role).toBe("user");
		expect(await run(deps, session, "/export --format pdf")).toEqual(
			notice("error", '--format takes md, json or html (got "pdf")'),
		);
	});

	describe("/share", () => {
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
});
