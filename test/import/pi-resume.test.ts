import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager as PiSessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { CompactionEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { importAndOpen, textOf } from "./import-helpers.js";

/*
 * pi's own reader (`migrateV1ToV2` in pi-mono's coding-agent session-manager) turns a v1
 * `compaction.firstKeptEntryIndex` into an id by indexing the file's entries with the header as
 * entry 0. pi-mono's real before-compaction.jsonl fixture (in test/fixtures/upstream-v1, see the
 * foreign MANIFEST) has two compactions; pi's reader, pi-coding-agent itself, gives the context.
 */

const BEFORE = join(import.meta.dirname, "../fixtures/upstream-v1/before-compaction.jsonl");

describe("a pi session resumes to what pi builds", () => {
	const dirs = useTempAgentDir();

	it("before-compaction (v1): the kept part starts at the entry pi counts with the header as 0", async () => {
		// pi migrates the file it opens in place: it reads a copy of its own.
		const piCopy = join(dirs.root, "pi-copy.jsonl");
		copyFileSync(BEFORE, piCopy);
		const pi = PiSessionManager.open(piCopy, join(dirs.root, "pi-sessions")).buildSessionContext();
		const source = join(dirs.root, "before-compaction.jsonl");
		copyFileSync(BEFORE, source);
		expect(pi.messages).toHaveLength(446);
		const { context, entries } = await importAndOpen(source);
		expect(entries.filter((e): e is CompactionEntry => e.type === "compaction")).toHaveLength(2);
		expect(context.messages).toHaveLength(446);
		expect(context.messages.map((m) => m.role)).toEqual(pi.messages.map((m) => m.role));
		expect(context.messages[0]!.role).toBe("compactionSummary");
		expect(textOf(context.messages[1]!)).toBe("can leave it");
	});
});
