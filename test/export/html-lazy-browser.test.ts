import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSessionFile } from "../../bench/generate-sessions.js";
import { exportFromFile } from "../../source/export/html/index.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { hasChromium, useExportBrowser } from "./browser.js";

/** Over the lazy threshold (5,000 entries) yet quick to generate and export. */
const ENTRIES = 8_000;
const LONG_TAIL = "END-OF-A-LONG-EARLY-MESSAGE";

function line(fields: Record<string, unknown>): string {
	return `${JSON.stringify(fields)}\n`;
}

describe.skipIf(!hasChromium)("the lazy HTML page of a big session in Chromium", () => {
	const temp = useTempAgentDir();
	const chromium = useExportBrowser();

	it("shows the last message first, and an early entry's whole body when it is picked in the tree", async () => {
		const session = join(temp.root, "big.jsonl");
		const generated = writeSessionFile(session, { entries: ENTRIES, agentDir: temp.agentDir, seed: 3 });
		const rootId = JSON.parse(readFileSync(session, "utf8").split("\n", 2)[1]!).id as string;
		const at = (n: number): string => new Date(generated.endMs + n * 1000).toISOString();
		// A side branch off the root whose text is longer than the summary the page's index keeps.
		const early = `EARLY-BRANCH-TEXT ${"lorem ipsum ".repeat(80)}${LONG_TAIL}`;
		appendFileSync(
			session,
			line({
				type: "message",
				id: "earlybranch",
				parentId: rootId,
				timestamp: at(1),
				message: { role: "user", content: early, timestamp: generated.endMs + 1000 },
			}) +
				line({
					type: "message",
					id: "lastprompt",
					parentId: generated.leafId,
					timestamp: at(2),
					message: { role: "user", content: "LAST-PROMPT-TEXT", timestamp: generated.endMs + 2000 },
				}),
		);
		const file = await exportFromFile(session, "big.html", temp.root);
		const html = readFileSync(file, "utf8");
		expect(html).toContain('<script type="application/json" id="xcsh-chunk-0">');
		expect(html.indexOf(LONG_TAIL)).toBeLessThan(html.indexOf('id="session-data"'));

		const opened = await chromium.open(file);
		const { page } = opened;
		await page.waitForSelector("#conversation .message[data-id='lastprompt']");
		expect(await page.textContent("#conversation")).toContain("LAST-PROMPT-TEXT");
		expect(await page.textContent(".tree-count")).toMatch(/of 8,?002 entries/);

		await page.$eval("#tree", (tree) => {
			tree.scrollTop = 0;
			tree.dispatchEvent(new Event("scroll"));
		});
		await page.click("#tree .tree-row[data-id='earlybranch']");
		await page.waitForSelector("#conversation [data-id='earlybranch']");
		const text = await page.textContent("#conversation");
		expect(text).toContain(LONG_TAIL);
		expect(text).not.toContain("LAST-PROMPT-TEXT");
		expect(await page.evaluate(() => location.hash)).toBe("#earlybranch");
		expect(opened.consoleErrors).toEqual([]);
	}, 120_000);
});
