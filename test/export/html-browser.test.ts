import { copyFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exportFromFile, exportSessionToHtml } from "../../source/export/html/index.js";
import type { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { hasChromium, type OpenedExport, useExportBrowser } from "./browser.js";
import { branchedSession, XSS_STATE, xssSession } from "./sessions.js";

const SKIP_REASON = "no /usr/bin/chromium on this machine (CI installs Debian's chromium)";
const FIXTURES = resolve(fileURLToPath(new URL("..", import.meta.url)), "fixtures/upstream-v1");
const browserIt = it.skipIf(!hasChromium);

describe.skipIf(!hasChromium)(`HTML export in Chromium${hasChromium ? "" : ` (skipped: ${SKIP_REASON})`}`, () => {
	const temp = useTempAgentDir();
	const chromium = useExportBrowser();
	/** The session the test's export came from. */
	let exported: SessionManager | undefined;

	async function exportBranched(): Promise<{ file: string; ids: Awaited<ReturnType<typeof branchedSession>>["ids"] }> {
		const { session, ids } = await branchedSession("/work/project");
		chromium.keep(session);
		exported = session;
		const file = await exportSessionToHtml(session, XSS_STATE, { cwd: temp.root });
		return { file, ids };
	}
	const open = (file: string, hash = ""): Promise<OpenedExport> => chromium.open(file, hash);
	/** Nothing but the page itself was requested, nothing complained, nothing popped up. */
	function expectClean(opened: OpenedExport): void {
		expect(opened.requests.filter((url) => url.split("#")[0] !== opened.url)).toEqual([]);
		expect(opened.consoleErrors).toEqual([]);
		expect(opened.dialogs).toEqual([]);
	}
	const rowIds = (opened: OpenedExport): Promise<string[]> =>
		opened.page.$$eval("#tree .tree-row", (rows) => rows.map((row) => (row as HTMLElement).dataset.id ?? ""));
	const conversationText = (opened: OpenedExport): Promise<string> =>
		opened.page.$eval("#conversation", (element) => element.textContent ?? "");

	browserIt("renders the conversation, highlighted code, stats and the whole tree", async () => {
		const { file, ids } = await exportBranched();
		const opened = await open(file);
		const { page } = opened;
		const text = await conversationText(opened);
		expect(text).toContain("MAINLINE");
		expect(text).toContain("MAINQUESTION");
		expect(text).toContain("COMPACTSUMMARY");
		expect(text).not.toContain("OTHERBRANCH");
		expect(await page.locator("#conversation .message", { hasText: "MAINLINE" }).isVisible()).toBe(true);
		expect(await page.locator("#conversation pre code.hljs span[class^='hljs-']").count()).toBeGreaterThan(0);
		expect(await page.textContent("#stat-messages")).toMatch(/3 user, 4 assistant, 1 tool results/);
		expect(await page.textContent(".page-header")).toContain("/work/project");

		await page.click("button[data-filter='all']");
		const all = await rowIds(opened);
		expect(new Set(all).size).toBe(all.length);
		const sessionIds = exported!.getEntries().map((entry) => entry.id);
		expect(all.sort()).toEqual([...sessionIds].sort());
		const active = await page.$$eval("#tree .tree-row.active-path", (rows) =>
			rows.map((row) => (row as HTMLElement).dataset.id),
		);
		expect(active).toEqual(exported!.getBranch().map((entry) => entry.id));
		expect(await page.textContent(`#tree .tree-row[data-id='${ids.u3}'] .label`)).toBe("checkpoint");
		expect(await page.getAttribute(`#tree .tree-row[data-id='${ids.u2}']`, "class")).not.toContain("active-path");

		// A tool call opens to its result, image included.
		await page.click("#conversation details.tool-call > summary");
		await page.waitForSelector("#conversation details.tool-call .tool-body");
		expect(await page.textContent("#conversation details.tool-call")).toContain("TOOLOUTPUT");
		expect(await page.locator("#conversation details.tool-call img[src^='data:image/png;base64,']").count()).toBe(1);
		await page.click("#conversation details.thinking > summary");
		await page.waitForSelector("#conversation details.thinking .markdown");
		expect(await page.textContent("#conversation details.thinking")).toContain("THINKINGTEXT");
		expectClean(opened);
	});

	browserIt("clicking a node on another branch shows its path and updates the hash", async () => {
		const { file, ids } = await exportBranched();
		const opened = await open(file);
		await opened.page.click(`#tree .tree-row[data-id='${ids.a2}']`);
		const text = await conversationText(opened);
		expect(text).toContain("OTHERBRANCH");
		expect(text).toContain("FIRSTPROMPT");
		expect(text).not.toContain("MAINLINE");
		expect(await opened.page.evaluate(() => location.hash)).toBe(`#${ids.a2}`);
		expect(await opened.page.getAttribute(`#tree .tree-row[data-id='${ids.a2}']`, "class")).toContain("selected");
		expectClean(opened);
	});

	browserIt("search filters the tree", async () => {
		const { file, ids } = await exportBranched();
		const opened = await open(file);
		const before = (await rowIds(opened)).length;
		await opened.page.fill("#tree-search", "otherbranch");
		await opened.page.waitForFunction(() => document.querySelectorAll("#tree .tree-row").length === 1);
		expect(await rowIds(opened)).toEqual([ids.a2]);
		await opened.page.fill("#tree-search", "");
		await opened.page.waitForFunction((n) => document.querySelectorAll("#tree .tree-row").length === n, before);
		expectClean(opened);
	});

	browserIt("filter buttons: no-tools hides tool results, user keeps user messages only", async () => {
		const { file, ids } = await exportBranched();
		const opened = await open(file);
		const { page } = opened;
		expect(await rowIds(opened)).toContain(ids.t1);
		expect(await page.isVisible("#conversation details.tool-call")).toBe(true);
		await page.click("button[data-filter='no-tools']");
		expect(await rowIds(opened)).not.toContain(ids.t1);
		expect(await rowIds(opened)).toContain(ids.a3);
		expect(await page.isVisible("#conversation details.tool-call")).toBe(false);
		await page.click("button[data-filter='user']");
		expect((await rowIds(opened)).sort()).toEqual([ids.u1, ids.u2, ids.u3].sort());
		await page.click("button[data-filter='labeled']");
		expect(await rowIds(opened)).toEqual([ids.u3]);
		expectClean(opened);
	});

	browserIt("a deep link #<id> selects that entry on load", async () => {
		const { file, ids } = await exportBranched();
		const opened = await open(file, `#${ids.u2}`);
		const text = await conversationText(opened);
		expect(text).toContain("OTHERQUESTION");
		expect(text).not.toContain("OTHERBRANCH");
		expect(text).not.toContain("MAINLINE");
		expect(await opened.page.getAttribute(`#tree .tree-row[data-id='${ids.u2}']`, "class")).toContain("selected");
		expect(await opened.page.getAttribute(`#conversation [data-id='${ids.u2}']`, "class")).toContain("target");
		// A link to a tool result opens the call it is shown in.
		await opened.page.evaluate((id) => {
			location.hash = id;
		}, ids.t1);
		await opened.page.waitForSelector("#conversation details.tool-call[open]");
		expect(await opened.page.textContent("#conversation details.tool-call[open]")).toContain("TOOLOUTPUT");
		expectClean(opened);
	});

	browserIt("a session full of script injection runs nothing", async () => {
		const session = await xssSession("/work/project");
		chromium.keep(session);
		const file = await exportSessionToHtml(session, XSS_STATE, { cwd: temp.root });
		const opened = await open(file);
		const { page } = opened;
		// Open every collapsible (thinking, tool calls, outputs, system prompt, tools) and every filter.
		await page.evaluate(() => {
			for (const details of document.querySelectorAll("details")) details.open = true;
		});
		for (const filter of ["all", "no-tools", "labeled", "default"]) await page.click(`button[data-filter='${filter}']`);
		await page.waitForTimeout(300);
		expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
		const body = (await page.textContent("body")) ?? "";
		expect(body).toContain('<img src=x onerror="window.__xss=2;alert(2)">');
		expect(body).toContain("</script><script>window.__xss=1;alert(1)</script>");
		expect(await page.$$eval("script", (scripts) => scripts.length)).toBe(2);
		expect(await page.$$eval("iframe, svg, object, embed, link", (found) => found.length)).toBe(0);
		const links = await page.$$eval("a[href]", (anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
		expect(links.filter((href) => !/^(?:#|https?:|mailto:)/i.test(href))).toEqual([]);
		const images = await page.$$eval("img", (found) => found.map((img) => img.getAttribute("src") ?? ""));
		expect(images.length).toBeGreaterThan(0);
		expect(images.filter((src) => !src.startsWith("data:image/png;base64,"))).toEqual([]);
		const handlers = await page.evaluate(
			() =>
				[...document.querySelectorAll("*")].filter((el) => [...el.attributes].some((a) => a.name.startsWith("on")))
					.length,
		);
		expect(handlers).toBe(0);
		expectClean(opened);
	});

	browserIt("a real upstream v1 session renders without errors", async () => {
		const input = join(temp.root, "in");
		mkdirSync(input);
		copyFileSync(join(FIXTURES, "large-session.jsonl"), join(input, "large-session.jsonl"));
		const file = await exportFromFile(join(input, "large-session.jsonl"), undefined, temp.root);
		const opened = await open(file);
		expect(await opened.page.locator("#conversation .message").count()).toBeGreaterThan(0);
		expect(await opened.page.textContent(".tree-count")).toMatch(/^\d+ of 1018 entries$/);
		expectClean(opened);
	});
});
