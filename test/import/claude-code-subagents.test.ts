import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ImportResult, importFile, importPaths } from "../../source/import/import-run.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture, placeFixture } from "./import-helpers.js";

// A Claude Code subagent's transcript (`<session>/subagents/agent-<id>.jsonl`; older versions wrote
// `agent-<id>.jsonl` beside the session) names no parent but its `sessionId`: the import links it
// to its parent session (provenance `parentSourceId`, header `parentSession`) and imports the
// parent first. Real files: the session claude-code-08 and its subagents claude-code-04 and -05,
// laid out as Claude Code laid them out.

const SESSION = "4d5611e5-241a-462a-8d15-5122611a9569";
const options = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };

/** The session and its two subagents under `dir`, as Claude Code 2.1 (or, `beside`, an older one) writes them. */
function layOut(dir: string, beside = false): void {
	placeFixture("claude-code-08-2.1.39-parent-of-04-05-compaction.jsonl.gz", join(dir, `${SESSION}.jsonl`));
	const agents = beside ? dir : join(dir, SESSION, "subagents");
	mkdirSync(agents, { recursive: true });
	copyFileSync(fixture("claude-code-04-subagent-sidechain.jsonl"), join(agents, "agent-a2898e3.jsonl"));
	copyFileSync(fixture("claude-code-05-subagent-acompact.jsonl"), join(agents, "agent-acompact-e1f845.jsonl"));
}

async function headerAndProvenance(result: ImportResult) {
	if (result.status === "skipped") throw new Error(`skipped: ${result.reason}`);
	const manager = await SessionManager.open(result.sessionFile, { breadcrumb: false, mustExist: true });
	try {
		const provenance = manager.getEntries()[0] as unknown as { data: { parentSourceId?: string } };
		return { parentSession: manager.getHeader().parentSession, parentSourceId: provenance.data.parentSourceId };
	} finally {
		await manager.close();
	}
}

describe("Claude Code subagent transcripts", () => {
	const dirs = useTempAgentDir();

	it.each([
		["in <session>/subagents/", false],
		["beside the session (older versions)", true],
	])("%s: the parent is imported first and each subagent names it", async (_, beside) => {
		const dir = join(dirs.root, "projects", "-home-USER-projects-spotter");
		layOut(dir, beside);
		const results = await importPaths([dir], options);
		expect(results.map((r) => (r.status === "skipped" ? r.reason : `${r.status} ${r.sourceId}`))).toEqual([
			`imported ${SESSION}`,
			`imported ${SESSION}/agent-a2898e3`,
			`imported ${SESSION}/agent-acompact-e1f845`,
		]);
		const parentFile = results[0]!.status === "skipped" ? "" : results[0]!.sessionFile;
		for (const child of results.slice(1))
			expect(await headerAndProvenance(child)).toEqual({ parentSession: parentFile, parentSourceId: SESSION });
		expect(await headerAndProvenance(results[0]!)).toEqual({ parentSession: undefined, parentSourceId: undefined });
	});

	it("a subagent imported after its parent, in another run, names it too", async () => {
		const dir = join(dirs.root, "projects", "p");
		layOut(dir);
		const parent = await importFile(join(dir, `${SESSION}.jsonl`), options);
		const child = await importFile(join(dir, SESSION, "subagents", "agent-a2898e3.jsonl"), options);
		expect(parent.status).toBe("imported");
		expect(await headerAndProvenance(child)).toEqual({
			parentSession: parent.status === "skipped" ? "" : parent.sessionFile,
			parentSourceId: SESSION,
		});
	});
});
