import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkpointStoreDir } from "../../source/checkpoints/store-location.js";
import { TurnCheckpoints } from "../../source/checkpoints/turn-checkpoints.js";
import { cutDiffNote, MAX_TURN_DIFF_CHARS, TurnDiffs } from "../../source/export/checkpoint-diffs.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { StoredEntry } from "../../source/session/types.js";
import { userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** A session in `project` with one turn that runs `change`; returns its checkpoint entry. */
async function turnEntry(project: string, change: () => void): Promise<StoredEntry> {
	const sm = await SessionManager.create(project);
	const hooks = new TurnCheckpoints(sm, () => {});
	await hooks.beforeTurn();
	sm.appendMessage(userMessage("go"));
	await hooks.beforeTool();
	change();
	await hooks.afterTurn();
	const entry = sm.getEntries().at(-1)!;
	await sm.close();
	return entry;
}

describe("TurnDiffs (the diffs an export adds to turn checkpoints)", () => {
	const temp = useTempAgentDir();

	it("adds the unified diff; a diff over the limit is cut with a note", async () => {
		const project = join(temp.root, "p");
		mkdirSync(project);
		const entry = await turnEntry(project, () => {
			writeFileSync(join(project, "small.txt"), "hello\n");
			writeFileSync(join(project, "big.txt"), "x".repeat(100).concat("\n").repeat(3000));
		});
		const diff = ((await (await TurnDiffs.of(project)).attach(entry)) as { diff?: string }).diff!;
		const note = /\n… diff cut at 200,000 of (\d{3},\d{3}) characters \(xcsh diff shows it whole\)\n$/.exec(diff);
		expect(note).not.toBeNull();
		expect(diff.length).toBe(MAX_TURN_DIFF_CHARS + cutDiffNote(Number(note![1]!.replace(",", ""))).length);
		expect(diff.startsWith("diff --git a/big.txt b/big.txt")).toBe(true);
	});

	it("passes entries unchanged where the project has no store, and never creates one", async () => {
		const project = join(temp.root, "elsewhere");
		mkdirSync(project);
		const entry = await turnEntry(project, () => writeFileSync(join(project, "a.txt"), "a\n"));
		const copiedTo = join(temp.root, "other-machine");
		mkdirSync(copiedTo);
		const diffs = await TurnDiffs.of(copiedTo);
		expect(await diffs.attach(entry)).toBe(entry);
		expect(existsSync(checkpointStoreDir(copiedTo))).toBe(false);
		// Where the store exists, an entry that is not a turn's checkpoint passes unchanged too.
		const sm = await SessionManager.create(project);
		const message = sm.getEntry(sm.appendMessage(userMessage("x")))!;
		await sm.close();
		expect(await (await TurnDiffs.of(project)).attach(message)).toBe(message);
	});
});
