import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usePtyProject } from "../helpers/pty-project.js";

describe("Tab in the editor", () => {
	const temp = usePtyProject();

	it("completes a file name of the session's directory (through the input controller)", async () => {
		writeFileSync(join(temp.project, "notes-on-seams.md"), "");
		const t = temp.open();
		await t.waitFor("Type a prompt");
		await t.type("read notes-on");
		t.write("\t");
		const screen = await t.waitFor("› read notes-on-seams.md");
		// One match: completed in place, no list of candidates under the editor.
		expect(screen.split("\n").filter((line) => line.includes("notes-on-seams.md"))).toHaveLength(1);
	});
});
