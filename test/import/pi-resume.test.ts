import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CompactionEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixtureBytes, importAndOpen, placeFixture, textOf } from "./import-helpers.js";

/*
 * pi's own reader (`migrateV1ToV2` in pi-mono's coding-agent session-manager) turns a v1
 * `compaction.firstKeptEntryIndex` into an id by indexing the file's entries with the header as
 * entry 0; its context is then the summary, the kept entries and what follows the compaction.
 */

const BEFORE = "pi-03-v1-before-compaction-two-compactions.jsonl.gz";

type Line = { type?: string };

/** The context pi builds from a v1 file: the last compaction's summary, then every message from its kept entry on. */
function piContextLength(lines: Line[]): number {
	const last = lines.findLastIndex((l) => l.type === "compaction");
	const kept = (lines[last] as { firstKeptEntryIndex: number }).firstKeptEntryIndex;
	return 1 + lines.slice(kept).filter((l) => l.type === "message").length;
}

describe("a pi session resumes to what pi builds", () => {
	const dirs = useTempAgentDir();

	it("before-compaction (v1): the kept part starts at the entry pi counts with the header as 0", async () => {
		const lines = fixtureBytes(BEFORE)
			.toString("utf8")
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l) as Line);
		expect(piContextLength(lines)).toBe(446);
		const { context, entries } = await importAndOpen(placeFixture(BEFORE, join(dirs.root, "before-compaction.jsonl")));
		expect(entries.filter((e): e is CompactionEntry => e.type === "compaction")).toHaveLength(2);
		expect(context.messages).toHaveLength(446);
		expect(context.messages[0]!.role).toBe("compactionSummary");
		expect(context.messages[1]).toMatchObject({ role: "user" });
		expect(textOf(context.messages[1]!)).toBe("can leave it");
	});
});
