import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diagnoseSessionFile } from "../../source/doctor/diagnose.js";
import { slimSessionFile } from "../../source/doctor/slim.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { entryLine, fingerprint, headerLine, writeSession } from "./craft.js";
import { bigText, inlineImage, messageLine, toolResult, userLine } from "./slim-craft.js";

async function entriesOf(file: string, lazyAboveBytes?: number): Promise<unknown[]> {
	const session = await SessionManager.open(file, lazyAboveBytes === undefined ? {} : { lazyAboveBytes });
	try {
		return structuredClone(session.getEntries());
	} finally {
		await session.close();
	}
}

describe("slimSessionFile", () => {
	const tmp = useTempAgentDir();

	function bigSessionLines(): string[] {
		const side = "side note ".repeat(200);
		return [
			headerLine(),
			userLine("u1", null, "read the logs"),
			messageLine(
				"r1",
				"u1",
				toolResult(
					[
						{ type: "text", text: bigText(40_000, 1) },
						{ type: "text", text: side },
					],
					1,
				),
			),
			messageLine("r2", "r1", toolResult([{ type: "text", text: "short" }, inlineImage(6000, 2)], 2)),
			// A branch off u1, with a text just under the threshold (kept) and one over it.
			messageLine("r3", "u1", toolResult([{ type: "text", text: "k".repeat(32 * 1024 - 1) }], 3)),
			messageLine(
				"r4",
				"r3",
				toolResult(
					[
						{ type: "text", text: bigText(33_000, 4) },
						{ type: "text", text: side },
					],
					4,
				),
			),
			// A user's own big text and image stay: only tool results' texts move, images move anywhere.
			messageLine("u2", "r4", {
				role: "user",
				content: [{ type: "text", text: bigText(40_000, 5) }, inlineImage(3000, 6)],
				timestamp: 2,
			}),
			entryLine("c1", "u2"),
		];
	}

	it("moves big tool result texts and inline images to the blob store; open() gives back the same entries", async () => {
		const file = writeSession(tmp.agentDir, "s.jsonl", bigSessionLines());
		const original = readFileSync(file);
		const before = await entriesOf(file);
		const beforeLazy = await entriesOf(file, 0);
		expect(beforeLazy).toEqual(before);

		const result = await slimSessionFile(file);
		expect(result).toEqual({
			kind: "slimmed",
			beforeBytes: original.length,
			afterBytes: statSync(file).size,
			moved: { toolResults: 2, images: 2, bytes: expect.any(Number) },
			backupPath: `${file}.bak`,
		});
		expect(readFileSync(`${file}.bak`)).toEqual(original);
		expect(statSync(file).size).toBeLessThan(original.length - 70_000);
		const text = readFileSync(file, "utf8");
		expect(text).toContain('"text":"blob:sha256:');
		expect(text).toContain('"data":"blob:sha256:');
		expect(text).toContain("k".repeat(32 * 1024 - 1));
		expect(readdirSync(join(tmp.agentDir, "blobs"))).toHaveLength(4);

		expect(await entriesOf(file)).toEqual(before);
		// Bodies read on demand by offset resolve their text blobs too.
		expect(await entriesOf(file, 0)).toEqual(before);
		expect((await diagnoseSessionFile(file)).findings).toEqual([]);
		// Slimming again finds nothing left to move, and writes nothing.
		const again = fingerprint(file);
		expect(await slimSessionFile(file)).toEqual({ kind: "nothing-to-move", bytes: again.size });
		expect(fingerprint(file)).toEqual(again);
		expect(existsSync(`${file}.bak.1`)).toBe(false);
	});

	it("keeps every other line byte for byte, damaged ones included", async () => {
		const lines = bigSessionLines();
		const odd = Buffer.concat([
			Buffer.from('{"type":"custom","id":"x","parentId":"c1","customType":"'),
			Buffer.from([0xff]),
			Buffer.from('"}'),
		]);
		const file = writeSession(tmp.agentDir, "s.jsonl", [...lines, "{not json", odd, '{"ty'], false);
		await slimSessionFile(file);
		const after = readFileSync(file);
		expect(after.subarray(0, Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`))).toEqual(
			Buffer.from(`${lines[0]}\n${lines[1]}\n`),
		);
		expect(after.subarray(after.length - odd.length - '\n{"ty'.length - "{not json\n".length)).toEqual(
			Buffer.concat([Buffer.from("{not json\n"), odd, Buffer.from('\n{"ty')]),
		);
	});

	it("writes nothing for a session with nothing to move, a foreign file or a locked session", async () => {
		const small = writeSession(tmp.agentDir, "small.jsonl", [headerLine(), userLine("u", null, "hi")]);
		const smallBefore = fingerprint(small);
		expect(await slimSessionFile(small)).toEqual({ kind: "nothing-to-move", bytes: smallBefore.size });
		expect(fingerprint(small)).toEqual(smallBefore);
		expect(existsSync(`${small}.bak`)).toBe(false);

		const foreign = writeSession(tmp.agentDir, "foreign.jsonl", [
			"hello",
			messageLine("r", null, toolResult([{ type: "text", text: bigText(40_000, 1) }])),
		]);
		const foreignBefore = fingerprint(foreign);
		expect(await slimSessionFile(foreign)).toEqual({ kind: "not-a-session", reason: "first line is not valid JSON" });
		expect(fingerprint(foreign)).toEqual(foreignBefore);

		const locked = writeSession(tmp.agentDir, "locked.jsonl", bigSessionLines());
		writeFileSync(`${locked}.lock`, JSON.stringify({ pid: 4242, host: "far-away.example", startedAt: "" }));
		const lockedBefore = fingerprint(locked);
		expect(await slimSessionFile(locked)).toEqual({ kind: "locked", pid: 4242, host: "far-away.example" });
		expect(fingerprint(locked)).toEqual(lockedBefore);

		const session = await SessionManager.open(writeSession(tmp.agentDir, "open.jsonl", bigSessionLines()));
		expect(await slimSessionFile(session.getSessionFile()!)).toEqual({
			kind: "locked",
			pid: process.pid,
			host: hostname(),
		});
		await session.close();
		expect(existsSync(join(tmp.agentDir, "blobs"))).toBe(false);
	});

	it("leaves v2 files and damaged headers to the migration and to --fix", async () => {
		const v2 = writeSession(tmp.agentDir, "v2.jsonl", [headerLine(2), ...bigSessionLines().slice(1)]);
		expect(await slimSessionFile(v2)).toEqual({ kind: "needs-migration", version: 2 });
		const header = { ...(JSON.parse(headerLine()) as object), version: "3" };
		const damaged = writeSession(tmp.agentDir, "d.jsonl", [JSON.stringify(header), ...bigSessionLines().slice(1)]);
		expect(await slimSessionFile(damaged)).toEqual({ kind: "damaged-header" });
		expect(existsSync(`${v2}.bak`) || existsSync(`${damaged}.bak`)).toBe(false);
	});

	it("streams a file bigger than its chunks: lines split across reads still slim", async () => {
		const file = writeSession(tmp.agentDir, "s.jsonl", bigSessionLines());
		const before = await entriesOf(file);
		const result = await slimSessionFile(file, { chunkBytes: 4096 });
		expect(result).toMatchObject({ kind: "slimmed", moved: { toolResults: 2, images: 2 } });
		expect(await entriesOf(file, 0)).toEqual(before);
	});
});
