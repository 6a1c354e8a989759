import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KEYS } from "../helpers/keys.js";
import { usePtyProject } from "../helpers/pty-project.js";
import type { PtyTerminal } from "../helpers/pty-terminal.js";

const ESC = String.fromCharCode(27);
const SGR = new RegExp(`${ESC}\\[([0-9;:]*)m`, "g");

/** The colour attributes (30–49, 90–107, 38/48/58 forms) in every SGR sequence of raw output. */
function colourEscapes(raw: string): string[] {
	return [...raw.matchAll(SGR)]
		.filter((match) =>
			(match[1] ?? "").split(";").some((param) => {
				const n = Number(param.split(":")[0]);
				return param !== "" && ((n >= 30 && n <= 49) || (n >= 90 && n <= 107) || n === 58);
			}),
		)
		.map((match) => match[0]);
}

describe("what the full-screen UI draws", () => {
	const temp = usePtyProject();

	async function readNotes(t: PtyTerminal): Promise<void> {
		await t.waitFor("Type a prompt");
		await t.type("read notes.txt");
		t.write("\r");
		await t.waitFor("The read tool returned");
		await t.waitFor("Ask anything");
	}

	it("with NO_COLOR set, writes no colour escape at all (FORCE_COLOR notwithstanding); without it, colours", async () => {
		writeFileSync(join(temp.project, "notes.txt"), "first note\nsecond note\n");
		const plainRun = temp.open({ env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
		await readNotes(plainRun);
		plainRun.write(KEYS.ctrlC);
		await plainRun.waitFor("Press Ctrl+C again to quit");
		plainRun.write(KEYS.ctrlC);
		expect(await plainRun.exited()).toBe(0);
		expect(plainRun.raw).toContain("second note");
		expect(colourEscapes(plainRun.raw)).toEqual([]);
		// bold and inverse (the editor's cursor) are not colours: they stay
		expect(plainRun.raw).toMatch(new RegExp(`${ESC}\\[(?:[0-9;]*;)?7m`));

		const colourRun = temp.open({ env: { NO_COLOR: "", FORCE_COLOR: "1" } });
		await readNotes(colourRun);
		expect(colourEscapes(colourRun.raw).length).toBeGreaterThan(0);
	});

	it("draws the running tool's header once", async () => {
		const t = temp.open();
		await t.waitFor("Type a prompt");
		await t.type("run sleep 30");
		t.write("\r");
		const screen = await t.waitFor((s) => s.includes("Running bash") && s.includes("$ sleep 30"));
		expect(screen.match(/● \$ sleep 30/g)?.length).toBe(1);
		t.write("\x1b");
		await t.waitFor("Stopped.");
	});

	it("a queued follow-up is confirmed beside the running loader, then the hint passes and never enters the transcript", async () => {
		const t = temp.open();
		await t.waitFor("Type a prompt");
		await t.type("run sleep 4");
		t.write("\r");
		await t.waitFor("Running bash");
		await t.type(">> and then say hi");
		t.write("\r");
		const shown = await t.waitFor((s) => /Running bash.* · Queued as a follow-up/.test(s));
		expect(shown.match(/Queued as a follow-up/g)).toHaveLength(1);
		const after = await t.waitFor((s) => s.includes('You said: "and then say hi"') && s.includes("Ask anything"));
		expect(after).not.toContain("Queued as a follow-up");
	});

	it("the Ctrl+C hint passes: it is shown above the editor, then gone, and never in the transcript", async () => {
		const t = temp.open();
		await t.waitFor("Type a prompt");
		// a typed character proves the editor listens before Ctrl+C is sent
		await t.type("x");
		t.write("\x7f");
		await t.waitFor("Ask anything");
		t.write(KEYS.ctrlC);
		const shown = await t.waitFor("Press Ctrl+C again to quit");
		const lines = shown.split("\n");
		const hint = lines.findIndex((line) => line.includes("Press Ctrl+C again to quit"));
		// the row right above the editor's top border
		expect(lines[hint + 1]).toMatch(/^╭─+╮$/);
		await t.waitFor((s) => !s.includes("Press Ctrl+C again to quit"));
		await t.type("hello after the hint");
		t.write("\r");
		const after = await t.waitFor('You said: "hello after the hint"');
		expect(after).not.toContain("Press Ctrl+C again to quit");
	});

	it("the welcome box, the editor and the status line share the terminal's width", async () => {
		const t = temp.open({ cols: 90, rows: 24 });
		const screen = await t.waitFor("Type a prompt");
		const borders = screen.split("\n").filter((line) => line.startsWith("╭"));
		expect(borders).toHaveLength(2);
		expect(borders.map((line) => [...line].length)).toEqual([90, 90]);
		const status = screen.split("\n").find((line) => line.startsWith("offline model"));
		expect([...(status ?? "")].length).toBeLessThanOrEqual(90);
	});
});
