import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { exportFromFile, exportSessionToHtml } from "../../source/export/html/index.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { cspOf, inlineScripts, sessionDataText, sha256Source } from "./html-parts.js";
import { branchedSession, XSS, XSS_STATE, XSS_TEXT, xssSession } from "./sessions.js";

const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = resolve(PROJECT_ROOT, "test/fixtures/upstream-v1");

describe("HTML export", () => {
	const temp = useTempAgentDir();
	const opened: SessionManager[] = [];
	afterEach(async () => {
		for (const session of opened.splice(0)) await session.close().catch(() => undefined);
	});
	const outDir = (): string => {
		const dir = join(temp.root, "out");
		mkdirSync(dir, { recursive: true });
		return dir;
	};

	it("embeds the whole session as escaped JSON and writes to <cwd>/xcsh-session-<id>.html", async () => {
		const session = await xssSession("/work/project");
		opened.push(session);
		const entriesBefore = session.getEntries();
		const fileBefore = readFileSync(session.getSessionFile()!, "utf8");
		const cwd = outDir();
		const path = await exportSessionToHtml(session, XSS_STATE, { cwd });

		expect(path).toBe(join(cwd, `xcsh-session-${session.getSessionId()}.html`));
		expect(readdirSync(cwd)).toEqual([`xcsh-session-${session.getSessionId()}.html`]);
		const html = readFileSync(path, "utf8");
		const json = sessionDataText(html);
		expect(json).not.toMatch(/[<>&\u2028\u2029]/);
		expect(json).toContain("\\u003c/script\\u003e");
		const data = JSON.parse(json) as Record<string, unknown>;
		expect(data.entries).toEqual(JSON.parse(JSON.stringify(entriesBefore)));
		expect(data.leafId).toBe(session.getLeafId());
		expect((data.header as { id: string }).id).toBe(session.getSessionId());
		expect(data.systemPrompt).toBe(XSS_TEXT);
		expect(data.tools).toEqual(XSS_STATE.tools);
		// Exactly the two script elements the exporter wrote: the payloads never opened one.
		expect(html.match(/<script[\s>]/g)).toHaveLength(2);
		expect(html.match(/<\/script>/g)).toHaveLength(2);
		expect(html).toContain(`<title>${XSS.script.replace(/</g, "&lt;").replace(/>/g, "&gt;")}</title>`);
		// No entry added, nothing written to the session.
		expect(session.getEntries()).toEqual(entriesBefore);
		await session.flush();
		expect(readFileSync(session.getSessionFile()!, "utf8")).toBe(fileBefore);
	});

	it("resolves an explicit output path against cwd and replaces an existing file atomically, only with force", async () => {
		const { session } = await branchedSession("/work/project");
		opened.push(session);
		const cwd = outDir();
		writeFileSync(join(cwd, "out.html"), "old");
		await expect(exportSessionToHtml(session, undefined, { outputPath: "out.html", cwd })).rejects.toThrow(
			new Error(`${join(cwd, "out.html")} already exists; add --force to replace it`),
		);
		expect(readFileSync(join(cwd, "out.html"), "utf8")).toBe("old");
		const path = await exportSessionToHtml(session, undefined, { outputPath: "out.html", cwd, force: true });
		expect(path).toBe(join(cwd, "out.html"));
		expect(readFileSync(path, "utf8")).toMatch(/^<!DOCTYPE html>/);
		expect(readdirSync(cwd)).toEqual(["out.html"]);
	});

	it("exports an in-memory session (--no-session) from memory", async () => {
		const session = SessionManager.inMemory("/work/project");
		session.appendMessage(userMessage("kept only in memory"));
		session.appendMessage(assistantMessage("hello"));
		const cwd = outDir();
		const path = await exportSessionToHtml(session, undefined, { cwd });
		expect(path).toBe(join(cwd, `xcsh-session-${session.getSessionId()}.html`));
		const data = JSON.parse(sessionDataText(readFileSync(path, "utf8"))) as { entries: unknown[]; leafId: string };
		expect(data.entries).toEqual(JSON.parse(JSON.stringify(session.getEntries())));
		expect(data.leafId).toBe(session.getLeafId());
		expect(readdirSync(cwd)).toEqual([`xcsh-session-${session.getSessionId()}.html`]);
	});

	it("exportFromFile: a missing input is File not found and creates no file", async () => {
		const cwd = outDir();
		const input = join(temp.root, "nope.jsonl");
		await expect(exportFromFile(input, undefined, cwd)).rejects.toThrow(new Error(`File not found: ${input}`));
		await expect(exportFromFile(input, join(cwd, "x.html"), cwd)).rejects.toThrow(`File not found: ${input}`);
		expect(readdirSync(cwd)).toEqual([]);
		expect(existsSync(join(temp.root, "nope.html"))).toBe(false);
	});

	it("exportFromFile: a file that is not a session is refused", async () => {
		const cwd = outDir();
		const input = join(temp.root, "notes.jsonl");
		writeFileSync(input, '{"hello":"world"}\n');
		await expect(exportFromFile(input, undefined, cwd)).rejects.toThrow(new Error(`Not a session file: ${input}`));
		const empty = join(temp.root, "empty.jsonl");
		writeFileSync(empty, "");
		await expect(exportFromFile(empty, undefined, cwd)).rejects.toThrow(new Error(`Not a session file: ${empty}`));
		expect(readdirSync(cwd)).toEqual([]);
	});

	it("exportFromFile: a v1 file exports migrated in memory and its bytes stay the same", async () => {
		const dir = join(temp.root, "sessions");
		mkdirSync(dir);
		const input = join(dir, "before-compaction.jsonl");
		copyFileSync(join(FIXTURES, "before-compaction.jsonl"), input);
		const before = readFileSync(input);
		const cwd = outDir();
		const path = await exportFromFile(input, undefined, cwd);

		expect(path).toBe(join(cwd, "before-compaction.html"));
		expect(readFileSync(input).equals(before)).toBe(true);
		expect(readdirSync(dir)).toEqual(["before-compaction.jsonl"]);
		const data = JSON.parse(sessionDataText(readFileSync(path, "utf8"))) as {
			header: { version: number };
			entries: { id: string; parentId: string | null; firstKeptEntryId?: string; type: string }[];
			leafId: string;
		};
		expect(data.header.version).toBe(3);
		expect(data.entries).toHaveLength(before.toString("utf8").trim().split("\n").length - 1);
		expect(data.entries.every((e) => typeof e.id === "string")).toBe(true);
		expect(data.leafId).toBe(data.entries.at(-1)!.id);
		const ids = new Set(data.entries.map((e) => e.id));
		const compactions = data.entries.filter((e) => e.type === "compaction");
		expect(compactions).toHaveLength(2);
		for (const c of compactions) expect(ids.has(c.firstKeptEntryId!)).toBe(true);
	});

	it("references nothing external and the CSP hash matches the only executable script", async () => {
		const { session } = await branchedSession("/work/project");
		opened.push(session);
		const html = readFileSync(await exportSessionToHtml(session, XSS_STATE, { cwd: outDir() }), "utf8");
		const outside = html.replace(sessionDataText(html), "");
		const markup = outside.replace(inlineScripts(html)[0]!, "");
		const found = (text: string, pattern: RegExp): string[] => text.match(pattern) ?? [];
		expect(found(outside, /\b(?:src|href|action|srcset|poster)\s*=\s*["']?\s*(?:https?:)?\/\//gi)).toEqual([]);
		expect(found(markup, /url\(|@import|https?:|<link\b|<iframe\b|<object\b|<embed\b|<img\b/gi)).toEqual([]);

		const csp = cspOf(html);
		const scripts = inlineScripts(html);
		expect(scripts).toHaveLength(1);
		expect(csp).toContain("default-src 'none'");
		expect(csp).toContain("img-src data:");
		expect(csp).toContain("style-src 'unsafe-inline'");
		expect(csp).toContain(`script-src '${sha256Source(scripts[0]!)}'`);
		expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
		// The policy is the first thing in <head> after the charset, before anything it governs.
		expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<style>"));
	});
});
