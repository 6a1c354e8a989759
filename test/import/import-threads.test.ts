import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { poolStats } from "../../source/import/import-pool.js";
import { type ImportResult, importPaths } from "../../source/import/import-run.js";
import { entryShape } from "../helpers/entry-shape.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { FOREIGN, fixture } from "./import-helpers.js";

// Worker threads build new sessions when there is much to import; the sessions and the results
// are the ones the main thread alone makes.

const base = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };

/** A session file's entries without what differs between two imports (ids, import time). */
function shape(file: string): unknown[] {
	return entryShape(readFileSync(file, "utf8"), ["importedAt", "parentSession"]);
}

function withoutFile(result: ImportResult) {
	return result.status === "skipped" ? result : { ...result, sessionFile: "" };
}

describe("importing with worker threads", () => {
	const temp = useTempAgentDir();

	it("every fixture: the same results and the same sessions as on one thread", async () => {
		const builtBefore = poolStats.built;
		const threaded = await importPaths([FOREIGN], { ...base, threads: 2 });
		// Every new session but the subagents (opencode's and Claude Code's two: linked to their parent by
		// the main thread) came from a worker.
		expect(poolStats.built - builtBefore).toBe(13);
		process.env.XCSH_AGENT_DIR = join(temp.root, "single");
		const single = await importPaths([FOREIGN], { ...base, threads: 0 });
		expect(threaded.map(withoutFile)).toEqual(single.map(withoutFile));
		expect(threaded.filter((r) => r.status === "imported")).toHaveLength(16);
		threaded.forEach((result, i) => {
			if (result.status === "skipped") return;
			const other = single[i] as { sessionFile: string };
			expect(shape(result.sessionFile)).toEqual(shape(other.sessionFile));
		});
	});

	it("the same source twice is imported once; a second run finds everything unchanged", async () => {
		const copies = join(temp.root, "copies");
		mkdirSync(copies);
		for (const name of ["claude-code-02-tool-heavy.jsonl", "codex-01-cli-0.58-shell-reasoning.jsonl"])
			for (const n of [1, 2]) copyFileSync(fixture(name), join(copies, `${n}-${name}`));
		const first = await importPaths([copies], { ...base, threads: 2 });
		expect(first.map((r) => r.status)).toEqual(["imported", "imported", "unchanged", "unchanged"]);
		const sessions = join(temp.agentDir, "sessions");
		const files = readdirSync(sessions, { recursive: true }).filter((f) => String(f).endsWith(".jsonl"));
		expect(files).toHaveLength(2);
		const again = await importPaths([copies], { ...base, threads: 2 });
		expect(again.map((r) => r.status)).toEqual(["unchanged", "unchanged", "unchanged", "unchanged"]);
	});

	it("a source that grew is appended to by the main thread", async () => {
		const dir = join(temp.root, "grow");
		mkdirSync(dir);
		const lines = readFileSync(fixture("codex-01-cli-0.58-shell-reasoning.jsonl"), "utf8").split("\n");
		const cut = lines.findIndex((line, i) => i > lines.length / 2 && line.includes('"type":"turn_context"'));
		writeFileSync(join(dir, "a.jsonl"), `${lines.slice(0, cut).join("\n")}\n`);
		copyFileSync(fixture("claude-code-01-short-thinking-tools.jsonl"), join(dir, "b.jsonl"));
		expect((await importPaths([dir], { ...base, threads: 2 })).map((r) => r.status)).toEqual(["imported", "imported"]);
		writeFileSync(join(dir, "a.jsonl"), lines.join("\n"));
		expect((await importPaths([dir], { ...base, threads: 2 })).map((r) => r.status)).toEqual(["appended", "unchanged"]);
	});
});
