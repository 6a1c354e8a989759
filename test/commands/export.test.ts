import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { exportSessionToHtml } from "../../source/export/html/index.js";
import { notice, useExportCommands } from "../helpers/export-command-harness.js";
import { userMessage } from "../helpers/messages.js";

describe("/export", () => {
	const { temp, makeSession, stubs, run } = useExportCommands();
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
			notice("error", '/export: --format takes html, md, json, pi, atif or openai-sft (got "pdf")'),
		);
	});

	describe("flags are read through the spec (defects: a flag was taken for a file name)", () => {
		const USAGE =
			"/export [path] [--tree | --branch | --entry <id>] [--format html|md|json|pi|atif|openai-sft] [--focused] [--collapse-tools] [--system] [--thinking] [--no-redact] [--force]";
		let previousCwd = "";
		afterEach(() => {
			if (previousCwd) process.chdir(previousCwd);
			previousCwd = "";
		});

		/** Runs /export with the real exporter, in the temp dir, so a stray file would land where it is checked. */
		async function exportReal(args: string) {
			const session = await makeSession(true);
			session.sessionManager.appendMessage(userMessage("export me"));
			const { deps, calls } = stubs();
			const choices: unknown[] = [];
			deps.exportHtml = (current, outputPath, choice) => {
				choices.push(choice);
				return exportSessionToHtml(current.sessionManager, undefined, {
					...(outputPath ? { outputPath } : {}),
					...choice,
					cwd: temp.root,
				});
			};
			if (!previousCwd) previousCwd = process.cwd();
			process.chdir(temp.root);
			return { result: await run(deps, session, `/export ${args}`), choices, calls };
		}

		it("--foo is refused naming the flag and the usage; no file is written", async () => {
			const { result, calls } = await exportReal("--foo");
			expect(result).toEqual(notice("error", `/export: unknown flag --foo. Usage: ${USAGE}`));
			expect(existsSync(join(temp.root, "--foo"))).toBe(false);
			expect(calls.opened).toEqual([]);
		});

		it("a mistyped flag is refused, never taken for a file name", async () => {
			for (const [args, flag] of [
				["--collapse-tool --format html", "--collapse-tool"],
				["--foo.html", "--foo.html"],
			] as const) {
				const { result } = await exportReal(args);
				expect(result).toEqual(notice("error", `/export: unknown flag ${flag}. Usage: ${USAGE}`));
				expect(existsSync(join(temp.root, flag))).toBe(false);
			}
		});

		it("--collapse-tools alone collapses the tools in the default file, never a file named --collapse-tools", async () => {
			const { result, choices } = await exportReal("--collapse-tools");
			expect(result).toMatchObject({ kind: "notice", level: "info" });
			expect(choices).toMatchObject([{ collapseTools: true }]);
			expect(existsSync(join(temp.root, "--collapse-tools"))).toBe(false);
		});

		it("--format=md is the same as --format md; -- ends the flags", async () => {
			const md = join(temp.root, "out.md");
			expect((await exportReal(`${md} --format=md`)).result).toEqual(notice("info", `Exported to: ${md}`));
			const dashed = join(temp.root, "--dashed.html");
			expect((await exportReal(`--force -- ${dashed}`)).result).toMatchObject({
				text: expect.stringMatching(/^Exported to: .*--dashed\.html\n/),
			});
			expect(existsSync(dashed)).toBe(true);
		});

		it("a flag's missing value and a bad choice are refused by name", async () => {
			expect((await exportReal("--entry")).result).toEqual(
				notice("error", `/export: --entry takes <id>. Usage: ${USAGE}`),
			);
			expect((await exportReal("--format")).result).toEqual(
				notice("error", `/export: --format takes html, md, json, pi, atif or openai-sft. Usage: ${USAGE}`),
			);
			expect((await exportReal("--force=yes")).result).toEqual(
				notice("error", `/export: --force takes no value. Usage: ${USAGE}`),
			);
		});
	});
});
