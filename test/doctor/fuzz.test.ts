import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MESSAGE_WITHOUT_MESSAGE } from "../../source/doctor/analyze.js";
import { diagnoseSessionFile } from "../../source/doctor/diagnose.js";
import { repairSessionFile } from "../../source/doctor/repair.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { checkMalformedFile } from "../helpers/fuzz-check.js";
import { FUZZ_SEED, malformedSessionFile } from "../helpers/session-fuzz.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { entryLine, headerLine, writeSession } from "./craft.js";

describe("malformed session files (fast-check)", () => {
	const tmp = useTempAgentDir();

	it("never crash, hang or get modified by the doctor, the loader, the listing or open(); --fix loses nothing", async () => {
		await fc.assert(
			fc.asyncProperty(malformedSessionFile(), (file) => checkMalformedFile(file.bytes, tmp.root)),
			{ seed: FUZZ_SEED, numRuns: 300 },
		);
	}, 120_000);

	describe("a message entry without a message object", () => {
		const lines = [headerLine(), entryLine("a", null), '{"type":"message","id":"m","parentId":"a","timestamp":"t"}'];

		it("opens, with the line skipped and reported", async () => {
			const file = writeSession(tmp.agentDir, "m.jsonl", lines);
			const session = await SessionManager.open(file);
			expect(session.getEntries().map((e) => e.id)).toEqual(["a"]);
			expect(session.getLoadReport().skippedLines.map((l) => l.line)).toEqual([3]);
			await session.close();
		});

		it("is flagged by the doctor, and --fix makes the session open again", async () => {
			const file = writeSession(tmp.agentDir, "m.jsonl", lines);
			expect((await diagnoseSessionFile(file)).findings).toEqual([
				{ kind: "unparseable-line", line: 3, message: MESSAGE_WITHOUT_MESSAGE },
			]);
			const result = await repairSessionFile(file);
			expect(result.outcome).toMatchObject({ kind: "rewritten", quarantined: [{ line: 3 }] });
			expect(readFileSync(file, "utf8")).toBe(`${lines.slice(0, 2).join("\n")}\n`);
			const session = await SessionManager.open(file);
			expect(session.getEntries().map((e) => e.id)).toEqual(["a"]);
			await session.close();
		});
	});
});
