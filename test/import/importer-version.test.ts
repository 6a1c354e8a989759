import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult } from "../../source/cli/import-command.js";
import { importFile } from "../../source/import/import-run.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture } from "./import-helpers.js";

// An earlier import by xcsh-import/1 (its session and import record, as it wrote them for
// claude-code-01 at commit 3c5d7cb; test/fixtures/import-v1) whose items the current mapping gives
// differently (its first record was dated 1970): importing the source again writes the corrected
// session as a new one, says why, and leaves the earlier one as it was.

const V1 = join(import.meta.dirname, "../fixtures/import-v1");
const SOURCE = fixture("claude-code-01-short-thinking-tools.jsonl");
const options = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };

/** Puts the earlier import in the agent dir, where xcsh-import/1 wrote it; returns its session file. */
function placeEarlierImport(agentDir: string): string {
	const record = JSON.parse(readFileSync(join(V1, "claude-code-01.record.json"), "utf8")) as Record<string, string>;
	const session = join(agentDir, "sessions", basename(dirname(record.sessionFile!)), basename(record.sessionFile!));
	mkdirSync(dirname(session), { recursive: true });
	writeFileSync(session, readFileSync(join(V1, "claude-code-01.session.jsonl")));
	mkdirSync(join(agentDir, "imports"), { recursive: true });
	const named = { ...record, sessionFile: session, sourcePath: SOURCE };
	writeFileSync(join(agentDir, "imports", "claude-code-034bfc34d2aedf4e3c511b88a41bb4c5.json"), JSON.stringify(named));
	return session;
}

describe("an earlier import by another importer", () => {
	const dirs = useTempAgentDir();

	it("is imported again as a corrected new session, with a note; the earlier one is left as it was", async () => {
		const earlier = placeEarlierImport(dirs.agentDir);
		const before = readFileSync(earlier);
		const dry = await importFile(SOURCE, { ...options, dryRun: true });
		expect(describeResult(dry, true)).toBe(
			`would import again ${SOURCE} (xcsh-import/3 maps it differently from xcsh-import/1, which imported it into ${earlier}) → (new session), project /home/marco/projects/spotter: 13 entries`,
		);
		const result = await importFile(SOURCE, options);
		expect(result).toMatchObject({
			status: "reimported",
			previousSessionFile: earlier,
			previousImporter: "xcsh-import/1",
		});
		if (result.status !== "reimported") return;
		expect(readFileSync(earlier).equals(before)).toBe(true);
		const manager = await SessionManager.open(result.sessionFile, { breadcrumb: false, mustExist: true });
		try {
			const entries = manager.getEntries();
			const provenance = entries[0] as unknown as { data: { importer: string; note: string } };
			expect(provenance.data.importer).toBe("xcsh-import/3");
			expect(provenance.data.note).toBe(
				`Imported again by xcsh-import/3, which maps this source differently from xcsh-import/1 (its import into ${earlier} is left as it was).`,
			);
			expect(entries.filter((e) => e.timestamp.startsWith("1970"))).toEqual([]);
		} finally {
			await manager.close();
		}
		expect(describeResult(result, false)).toBe(
			`imported again ${SOURCE} (xcsh-import/3 maps it differently from xcsh-import/1, which imported it into ${earlier}) → ${result.sessionFile}, project /home/marco/projects/spotter: 13 entries`,
		);
		// Imported again with nothing new: unchanged.
		expect((await importFile(SOURCE, options)).status).toBe("unchanged");
	});
});
