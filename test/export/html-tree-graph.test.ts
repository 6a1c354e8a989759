import { describe, expect, it } from "vitest";
import { exportSessionToHtml } from "../../source/export/html/index.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { hasChromium, useExportBrowser } from "./browser.js";
import { XSS_STATE } from "./sessions.js";

const SKIP_REASON = "no /usr/bin/chromium on this machine (CI installs Debian's chromium)";

/** Where a sidebar row's text starts, and the graph drawn before it. */
interface RowShape {
	readonly id: string;
	readonly active: boolean;
	readonly graph: string;
	readonly textLeft: number;
}

describe.skipIf(!hasChromium)(`the HTML sidebar's graph${hasChromium ? "" : ` (skipped: ${SKIP_REASON})`}`, () => {
	const temp = useTempAgentDir();
	const chromium = useExportBrowser();

	it("keeps the active path in one column with twenty side branches hanging off it, git-log style", async () => {
		const session = await SessionManager.create("/work/project");
		session.appendMessage(userMessage("start"));
		for (let i = 0; i < 20; i++) {
			const answer = session.appendMessage(assistantMessage(`answer ${i}`));
			session.appendMessage(userMessage(`side ${i}`));
			session.appendMessage(assistantMessage(`side answer ${i}`));
			session.branch(answer);
			session.appendMessage(userMessage(`main ${i}`));
		}
		session.appendMessage(assistantMessage("the last answer"));
		await session.flush();
		const file = await exportSessionToHtml(session, XSS_STATE, { cwd: temp.root });
		await session.close();
		const opened = await chromium.open(file);
		// The sidebar is virtualised: a tall viewport puts all 82 rows in the DOM.
		await opened.page.setViewportSize({ width: 1280, height: 2600 });
		// ...and laid out. Measured in the same poll that sees the layout: two CI runs measured every row at
		// x = 0 (every row pads its text by 6px, so no laid-out row starts there) after an earlier check had
		// seen the rows drawn.
		const laidOut = await opened.page.waitForFunction(() => {
			const shapes = [...document.querySelectorAll<HTMLElement>("#tree .tree-row")].map((row) => {
				const preview = row.querySelector(".preview") as HTMLElement;
				const box = preview.getBoundingClientRect();
				return {
					id: row.dataset.id ?? "",
					active: row.classList.contains("active-path"),
					graph: row.querySelector(".connector")?.textContent ?? "",
					textLeft: Math.round(box.left),
					width: box.width,
				};
			});
			return shapes.length >= 82 && shapes.every((shape) => shape.width > 0 && shape.textLeft > 0) ? shapes : null;
		});
		const rows = (await laidOut.jsonValue()) as RowShape[];
		const active = rows.filter((row) => row.active);
		const side = rows.filter((row) => !row.active);
		expect(active).toHaveLength(42);
		expect(side).toHaveLength(40);
		// One column for the whole path, however many branches leave it.
		expect(new Set(active.map((row) => row.textLeft)).size).toBe(1);
		expect(active.every((row) => row.graph === "")).toBe(true);
		// Each side branch starts with a connector and its next entry hangs on a rail, one step right.
		expect(side.map((row) => row.graph)).toEqual(Array.from({ length: 20 }, () => ["├─ ", "│  "]).flat());
		expect(new Set(side.map((row) => row.textLeft)).size).toBe(1);
		expect(side[0]!.textLeft).toBeGreaterThan(active[0]!.textLeft);
	});
});
