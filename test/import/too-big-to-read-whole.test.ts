import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importFile } from "../../source/import/import-run.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

// A source only read whole (not a first import of Claude Code or Codex) longer than a JavaScript
// string is skipped with a line that says so, not with V8's message about string lengths.
describe("a source too big to read whole", () => {
	const temp = useTempAgentDir();

	it("is skipped with its size and what xcsh reads in pieces", async () => {
		const file = join(temp.root, "huge.jsonl");
		writeFileSync(file, '{"type":"not-a-session"}\n');
		// Sparse: 600 MB on paper, nothing on disk.
		truncateSync(file, 600 << 20);
		const result = await importFile(file, { from: "auto", dryRun: false, cwd: temp.root, cwdGiven: false });
		expect(result).toMatchObject({
			status: "skipped",
			reason:
				"at 629 MB it is too big to read whole (xcsh reads only a first import of a Claude Code or Codex source in pieces)",
		});
	});
});
