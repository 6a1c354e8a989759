import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CommandController } from "../../controllers/command-controller.js";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { getSessionsRoot } from "../../source/agent-dir.js";
import { usageLine } from "../../source/commands/arg-spec.js";
import type { ExportCommandDeps } from "../../source/commands/export-services.js";
import { buildCommands, findCommand } from "../../source/commands/registry.js";
import type { CommandResult } from "../../source/commands/types.js";
import { exportSessionToHtml } from "../../source/export/html/index.js";
import { AgentSession } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** /export with the real exporter (wired as controllers/runtime.ts does): the same refusals as `xcsh --export`. */
describe("/export refuses outputs that could destroy a session or a file", () => {
	const temp = useTempAgentDir();
	const sessions: AgentSession[] = [];
	let previousCwd = "";

	afterEach(async () => {
		for (const session of sessions.splice(0)) await session.dispose();
		if (previousCwd) process.chdir(previousCwd);
		previousCwd = "";
	});

	async function makeSession(): Promise<{ session: AgentSession; file: string; bytes: () => Buffer }> {
		const sessionManager = await SessionManager.create(temp.root);
		sessionManager.appendMessage(userMessage("export me"));
		sessionManager.appendMessage(assistantMessage("exported"));
		await sessionManager.flush();
		const session = await AgentSession.create({
			sessionManager,
			models: { find: () => undefined, getApiKey: () => undefined },
			model: OFFLINE_MODEL,
		});
		sessions.push(session);
		const file = sessionManager.getSessionFile()!;
		return { session, file, bytes: () => readFileSync(file) };
	}

	const deps: ExportCommandDeps = {
		exportHtml: (current, outputPath, choice) =>
			exportSessionToHtml(current.sessionManager, undefined, {
				...(outputPath ? { outputPath } : {}),
				...choice,
				cwd: temp.root,
			}),
		share: async () => ({ kind: "cancelled" }),
		openInBrowser: async () => true,
		shareDestination: async () => "a secret gist on github.com/tester",
		copyToClipboard: async () => "clipboard",
	};

	async function run(session: AgentSession, args: string): Promise<CommandResult> {
		const controller = new CommandController(
			{ session, models: { list: () => [], find: () => undefined, missingKey: () => undefined } },
			buildCommands(deps),
		);
		return controller.execute("export", args);
	}

	const error = (text: string) => ({ kind: "notice", level: "error", text });
	/** The HTML notice goes on with the scope line. */
	const exported = (path: string) => ({ text: expect.stringMatching(new RegExp(`^Exported to: ${path}(\n|$)`)) });

	it("/export lists --force (and every format, html too) among its arguments", () => {
		expect(usageLine("export", findCommand("export", buildCommands(deps))!.spec)).toBe(
			"/export [path] [--tree | --branch | --entry <id>] [--format html|md|json|pi|atif|openai-sft] [--focused] [--collapse-tools] [--system] [--thinking] [--no-redact] [--force]",
		);
	});

	it("refuses the session's own file, another session and the sessions folder; the session stays byte for byte", async () => {
		const { session, file, bytes } = await makeSession();
		const before = bytes();
		const name = file.split("/").at(-1)!;
		expect(await run(session, file)).toEqual(
			error(
				`Refusing to write an export to ${name}: .jsonl is the session format; use .html, .md or .json, or --format pi|atif|openai-sft`,
			),
		);
		expect(await run(session, `${file} --format html --force`)).toMatchObject({ level: "error" });
		const other = join(temp.root, "other.html");
		writeFileSync(other, readFileSync(file));
		expect(await run(session, `${other} --force`)).toEqual(error(`Refusing to overwrite a session file: ${other}`));
		const folder = join(file, "..", "page.html");
		expect(await run(session, folder)).toEqual(
			error(`Refusing to write an export inside the sessions folder (${getSessionsRoot()}): ${join(folder)}`),
		);
		expect(readdirSync(join(file, "..")).filter((f) => !f.endsWith(".lock"))).toEqual([name]);
		expect(bytes().equals(before)).toBe(true);
		expect(readFileSync(other).equals(before)).toBe(true);
	});

	it("refuses a symlink to the session itself, even with --force", async () => {
		const { session, file, bytes } = await makeSession();
		const before = bytes();
		const link = join(temp.root, "page.html");
		symlinkSync(file, link);
		expect(await run(session, `${link} --force`)).toEqual(error(`Refusing to export onto the session itself: ${link}`));
		expect(await run(session, `${join(temp.root, "page.md")}`)).toMatchObject({ level: "info" });
		symlinkSync(file, join(temp.root, "page.json"));
		expect(await run(session, `${join(temp.root, "page.json")} --force`)).toEqual(
			error(`Refusing to export onto the session itself: ${join(temp.root, "page.json")}`),
		);
		expect(bytes().equals(before)).toBe(true);
	});

	it("refuses an extension that does not say the format, and accepts it with --format", async () => {
		const { session } = await makeSession();
		const txt = join(temp.root, "out.txt");
		expect(await run(session, txt)).toEqual(
			error(
				"Cannot tell the export format from out.txt: use a .html, .md or .json name, or --format html|md|json|pi|atif|openai-sft",
			),
		);
		expect(await run(session, `${join(temp.root, "out.json")} --format md`)).toEqual(
			error("out.json does not match --format md: use a .md or .markdown name"),
		);
		expect(readdirSync(temp.root).filter((f) => f.startsWith("out"))).toEqual([]);
		expect(await run(session, `${txt} --format md`)).toEqual({
			kind: "notice",
			level: "info",
			text: `Exported to: ${txt}`,
		});
		expect(readFileSync(txt, "utf8")).toContain("export me");
	});

	it("replaces an existing file only with --force, for HTML and for Markdown", async () => {
		const { session } = await makeSession();
		for (const name of ["page.html", "notes.md"]) {
			const path = join(temp.root, name);
			writeFileSync(path, "keep me");
			expect(await run(session, path)).toEqual(error(`${path} already exists; add --force to replace it`));
			expect(readFileSync(path, "utf8")).toBe("keep me");
			expect(await run(session, `${path} --force`)).toMatchObject({ level: "info", ...exported(path) });
			expect(readFileSync(path, "utf8")).toContain("export me");
		}
		expect(readdirSync(temp.root).filter((f) => f.endsWith(".tmp"))).toEqual([]);
	});

	it("without a path, /export writes to the agent dir's exports folder (never the work tree), stepping -2 and never replacing", async () => {
		const { session } = await makeSession();
		const id = session.sessionManager.getSessionId();
		const exports = join(temp.agentDir, "exports");
		const first = join(exports, `xcsh-session-${id}.html`);
		expect(await run(session, "")).toMatchObject(exported(first));
		// The folder is private like the rest of the agent dir; the page keeps the person's umask.
		expect(statSync(exports).mode & 0o777).toBe(0o700);
		expect(statSync(first).mode & 0o777).toBe(0o666 & ~process.umask());
		writeFileSync(first, "an earlier export, edited");
		const second = join(exports, `xcsh-session-${id}-2.html`);
		expect(await run(session, "")).toMatchObject(exported(second));
		expect(readFileSync(first, "utf8")).toBe("an earlier export, edited");
		expect(await run(session, "--force")).toMatchObject(exported(first));
		expect(readFileSync(first, "utf8")).toContain("export me");
		// Markdown and JSON go there too, whatever the process's cwd.
		previousCwd = process.cwd();
		mkdirSync(join(temp.root, "md"));
		process.chdir(join(temp.root, "md"));
		expect(await run(session, "--format md")).toMatchObject({
			text: `Exported to: ${join(exports, `xcsh-session-${id}.md`)}`,
		});
		expect(await run(session, "--format md")).toMatchObject({
			text: `Exported to: ${join(exports, `xcsh-session-${id}-2.md`)}`,
		});
		expect(readdirSync(join(temp.root, "md"))).toEqual([]);
		expect(readdirSync(temp.root).filter((f) => f.startsWith("xcsh-session-"))).toEqual([]);
	});
});
