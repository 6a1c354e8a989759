import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHECKPOINT_CUSTOM_TYPE, type CheckpointData } from "../../source/checkpoints/checkpoint-data.js";
import { TurnCheckpoints } from "../../source/checkpoints/turn-checkpoints.js";
import { exportSessionToHtml } from "../../source/export/html/index.js";
import { sessionToMarkdown } from "../../source/export/markdown-export.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { hasChromium, useExportBrowser } from "./browser.js";

const COMMIT = "a".repeat(40);

/** Two turns as the app records them: the second changed two files, then a restore. */
function recorded(sm: SessionManager): void {
	sm.appendCustomEntry<CheckpointData>(CHECKPOINT_CUSTOM_TYPE, { v: 1, kind: "baseline", commit: COMMIT });
	sm.appendMessage(userMessage("just talk"));
	sm.appendMessage(assistantMessage("talked"));
	sm.appendMessage(userMessage("write the files"));
	const answer = sm.appendMessage(assistantMessage("wrote them"));
	sm.appendCustomEntry<CheckpointData>(CHECKPOINT_CUSTOM_TYPE, {
		v: 1,
		kind: "turn",
		commit: "b".repeat(40),
		before: COMMIT,
		entryId: answer,
		files: [
			{ path: "a.txt", status: "modified", added: 1, removed: 1, binary: false },
			{ path: "b.txt", status: "added", added: 3, removed: 0, binary: false },
		],
	});
	sm.appendCustomEntry<CheckpointData>(CHECKPOINT_CUSTOM_TYPE, {
		v: 1,
		kind: "restore",
		commit: COMMIT,
		guard: "b".repeat(40),
		mode: "code",
		targetId: answer,
		fromLeafId: answer,
	});
	sm.appendMessage(userMessage("after"));
}

describe("exports show the files each turn changed", () => {
	const temp = useTempAgentDir();

	it("Markdown: a details block after the turn's answer, with each file's +/- counts", () => {
		const sm = SessionManager.inMemory("/p");
		recorded(sm);
		const markdown = sessionToMarkdown(sm.getHeader(), sm.getBranch());
		const block =
			"<details><summary>Files changed: 2 files changed (+4 -1)</summary>\n\n- `a.txt` modified +1 -1\n- `b.txt` added +3 -0\n\n</details>";
		expect(markdown).toContain(block);
		expect(markdown.indexOf("wrote them")).toBeLessThan(markdown.indexOf(block));
		expect(markdown.indexOf(block)).toBeLessThan(markdown.indexOf("after"));
		// Only once: the baseline and the restore are not turns.
		expect(markdown.split("Files changed").length).toBe(2);
		// --focused keeps it, after the turn's answer.
		const focused = sessionToMarkdown(sm.getHeader(), sm.getBranch(), { focused: true });
		expect(focused.indexOf("wrote them")).toBeLessThan(focused.indexOf(block));
	});

	describe.skipIf(!hasChromium)("HTML in Chromium", () => {
		const chromium = useExportBrowser();

		it("an expandable list of the files with +/− counts, and a line for a restore", async () => {
			const sm = await SessionManager.create("/work/project");
			chromium.keep(sm);
			recorded(sm);
			const file = await exportSessionToHtml(sm, undefined, { cwd: temp.root });
			const opened = await chromium.open(file);
			const { page } = opened;
			const summary = page.locator("#conversation details.files-changed summary");
			await summary.waitFor();
			expect(await summary.textContent()).toBe("Files changed: 2 files (+4 −1)");
			expect(await page.locator("#conversation details.files-changed li").first().isVisible()).toBe(false);
			await summary.click();
			expect(await page.locator("#conversation details.files-changed li").allTextContents()).toEqual([
				"a.txt modified +1 −1",
				"b.txt added +3 −0",
			]);
			expect(await page.locator("#conversation .checkpoint").textContent()).toBe("Files restored (code)");
			expect(await page.locator("#conversation").textContent()).not.toContain("Extension state: checkpoint");
			expect(opened.consoleErrors).toEqual([]);
			// Commits that no store on this machine holds: the list, and no diff.
			expect(await page.locator("#conversation .diff").count()).toBe(0);
		});

		it("the turn's diff from the project's store, coloured and redacted, built when the list opens", async () => {
			const project = join(temp.root, "project");
			mkdirSync(project);
			writeFileSync(join(project, "a.txt"), "one\n");
			const sm = await SessionManager.create(project);
			chromium.keep(sm);
			const hooks = new TurnCheckpoints(sm, () => {});
			await hooks.beforeTurn();
			sm.appendMessage(userMessage("change a.txt and add .env"));
			await hooks.beforeTool();
			writeFileSync(join(project, "a.txt"), "two\n");
			writeFileSync(join(project, ".env"), "DB_PASSWORD=correct-horse-battery-staple\n");
			sm.appendMessage(assistantMessage("changed"));
			await hooks.afterTurn();
			// Not the leaf: the page opens the leaf's entry by itself.
			sm.appendMessage(userMessage("next"));
			const file = await exportSessionToHtml(sm, undefined, { cwd: temp.root });
			expect(readFileSync(file, "utf8")).not.toContain("correct-horse-battery-staple");
			const { page, consoleErrors } = await chromium.open(file);
			const summary = page.locator("#conversation details.files-changed summary");
			await summary.waitFor();
			expect(await summary.textContent()).toBe("Files changed: 2 files (+2 −1)");
			expect(await page.locator("#conversation .diff").count()).toBe(0);
			await summary.click();
			const diff = page.locator("#conversation details.files-changed pre.diff");
			await diff.waitFor();
			expect(await diff.locator("span.add").allTextContents()).toEqual([
				"+DB_PASSWORD=[REDACTED:secret-assignment]",
				"+two",
			]);
			expect(await diff.locator("span.del").allTextContents()).toEqual(["-one"]);
			expect(await diff.locator("span.hunk").count()).toBe(2);
			expect(await diff.locator("span.meta").first().textContent()).toBe("diff --git a/.env b/.env");
			expect(consoleErrors).toEqual([]);
		});
	});
});
