import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager as PiSessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { CompactionEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture, importAndOpen, textOf } from "./import-helpers.js";

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

	it("a system message entry (pi 0.8x) is in the context where pi has it: first", async () => {
		// Hand-made: the real pi-02's first turn, with a system message entry in the shape pi 0.8x
		// writes (`content`, `sections`, `toolsAdded`) between the settings and the first prompt.
		const lines = readFileSync(fixture("pi-02-v3-small-fixture-provider.jsonl"), "utf8").split("\n").slice(0, 5);
		const system = {
			type: "message",
			id: "5e5e5e5e",
			parentId: "3a59c5dd",
			timestamp: "2026-05-12T01:02:27.670Z",
			message: {
				role: "system",
				content: "",
				sections: { preamble: "You are pi, a coding agent.", cwd: "Current directory: /tmp/as-agent-fixture/project" },
				toolsAdded: [{ name: "read", description: "Read a file", parameters: { type: "object", properties: {} } }],
				timestamp: 1778547747670,
			},
		};
		const user = JSON.parse(lines[3]!) as { parentId: string };
		user.parentId = system.id;
		const path = join(dirs.root, "2026-05-12T01-02-27-657Z_019e19b4-eb48-746a-aa6b-8dfcfa37954b.jsonl");
		writeFileSync(
			path,
			`${[...lines.slice(0, 3), JSON.stringify(system), JSON.stringify(user), lines[4]].join("\n")}\n`,
		);
		const piCopy = join(dirs.root, "pi-copy.jsonl");
		copyFileSync(path, piCopy);
		const pi = PiSessionManager.open(piCopy, join(dirs.root, "pi-sessions")).buildSessionContext();
		expect(pi.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
		const { context, entries } = await importAndOpen(path);
		expect(context.messages.map((m) => m.role)).toEqual(["custom", "user", "assistant"]);
		expect(textOf(context.messages[0]!)).toBe(
			"You are pi, a coding agent.\n\nCurrent directory: /tmp/as-agent-fixture/project",
		);
		const kept = entries.find((e) => e.type === "custom_message") as { details?: { message?: unknown } };
		expect(kept.details?.message).toEqual(system.message);
	});
});
