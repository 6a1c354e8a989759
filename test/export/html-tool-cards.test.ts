import { describe, expect, it } from "vitest";
import { exportSessionToHtml } from "../../source/export/html/index.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { hasChromium, useExportBrowser } from "./browser.js";
import { assistantWithTool, branchedSession, resultFor, XSS_STATE } from "./sessions.js";

const SKIP_REASON = "no /usr/bin/chromium on this machine (CI installs Debian's chromium)";

describe.skipIf(!hasChromium)(`HTML tool cards in Chromium${hasChromium ? "" : ` (skipped: ${SKIP_REASON})`}`, () => {
	const temp = useTempAgentDir();
	const chromium = useExportBrowser();

	async function exportBranched() {
		const { session, ids } = await branchedSession("/work/project");
		chromium.keep(session);
		const file = await exportSessionToHtml(session, XSS_STATE, { cwd: temp.root });
		return { file, ids };
	}

	it("a tool card keeps its name on one line however long the command is", async () => {
		const session = await SessionManager.create("/work/project");
		chromium.keep(session);
		session.appendMessage(userMessage("list it"));
		const command = `ls -la /a/very/long/path/${"segment/".repeat(40)} && echo ${"x".repeat(300)}`;
		const call = assistantWithTool("Listing", "call_bash", {});
		call.content = [{ type: "toolCall", id: "call_bash", name: "bash", arguments: { command } }];
		session.appendMessage(call);
		session.appendMessage(resultFor("call_bash", "total 0"));
		await session.flush();
		const file = await exportSessionToHtml(session, XSS_STATE, { cwd: temp.root });
		const opened = await chromium.open(file);
		const { page } = opened;
		for (const width of [1280, 700, 420]) {
			await page.setViewportSize({ width, height: 900 });
			const name = await page.$eval("#conversation details.tool-call .tool-name", (element) => ({
				text: element.textContent,
				height: element.getBoundingClientRect().height,
				line: Number.parseFloat(getComputedStyle(element).lineHeight),
			}));
			expect(name.text).toBe("bash");
			expect(name.height, `at ${width}px the name wraps`).toBeLessThanOrEqual(name.line * 1.5);
			const summary = await page.$eval("#conversation details.tool-call > summary", (element) => ({
				width: element.getBoundingClientRect().width,
				scroll: element.scrollWidth,
				status: element.querySelector(".tool-status")?.getBoundingClientRect().height ?? 0,
			}));
			expect(summary.scroll, "the summary does not overflow its card").toBeLessThanOrEqual(summary.width + 1);
			expect(summary.status, `at ${width}px the status wraps`).toBeLessThanOrEqual(name.line * 1.5);
		}
	});

	it("a deep link to the assistant entry of a tool call shows the call with its result", async () => {
		const { file, ids } = await exportBranched();
		const opened = await chromium.open(file, `#${ids.a3}`);
		const { page } = opened;
		const status = await page.textContent(`#conversation details.tool-call .tool-status`);
		expect(status).toBe("ok");
		await page.click("#conversation details.tool-call > summary");
		await page.waitForSelector("#conversation details.tool-call .tool-body");
		expect(await page.textContent("#conversation details.tool-call")).toContain("TOOLOUTPUT");
		expect(await page.getAttribute(`#conversation [data-id='${ids.a3}']`, "class")).toContain("target");
		// The result is shown inside the call, never again as a separate entry, and nothing after it.
		const text = await page.$eval("#conversation", (element) => element.textContent ?? "");
		expect(text.split("TOOLOUTPUT").length).toBe(2);
		expect(text).not.toContain("MAINLINE");
		expect(opened.consoleErrors).toEqual([]);
	});

	it("a call whose result really is missing still says no result", async () => {
		const session = await SessionManager.create("/work/project");
		chromium.keep(session);
		session.appendMessage(userMessage("read it"));
		const call = session.appendMessage(assistantWithTool("Reading", "call_lonely", { path: "a.ts" }));
		await session.flush();
		const file = await exportSessionToHtml(session, XSS_STATE, { cwd: temp.root });
		const opened = await chromium.open(file, `#${call}`);
		expect(await opened.page.textContent("#conversation details.tool-call .tool-status")).toBe("no result");
	});
});
