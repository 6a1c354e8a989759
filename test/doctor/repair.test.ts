import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { diagnoseSessionFile } from "../../source/doctor/diagnose.js";
import { repairSessionFile } from "../../source/doctor/repair.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { CWD, entryLine, fingerprint, headerLine, projectDir, writeSession } from "./craft.js";

interface QuarantineRecord {
	line: number;
	text: string;
	reason: string;
	backup: string;
	at: string;
	base64?: string;
}

function quarantineOf(file: string): QuarantineRecord[] {
	return readFileSync(`${file}.quarantine.jsonl`, "utf8")
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as QuarantineRecord);
}

async function entryIds(file: string): Promise<string[]> {
	const session = await SessionManager.open(file);
	try {
		return session.getEntries().map((entry) => entry.id);
	} finally {
		await session.close();
	}
}

function deadPid(): number {
	const pid = spawnSync(process.execPath, ["-e", ""]).pid;
	if (pid === undefined) throw new Error("could not spawn");
	return pid;
}

describe("repairSessionFile", () => {
	const tmp = useTempAgentDir();
	const write = (name: string, lines: readonly (string | Buffer)[], finalNewline = true) =>
		writeSession(tmp.agentDir, name, lines, finalNewline);

	it("backs up, quarantines bad lines with their text, and keeps every good entry", async () => {
		const good = [entryLine("a", null), entryLine("b", "a"), entryLine("c", "b")];
		const lines = [headerLine(), good[0]!, "{oops", good[1]!, entryLine("a", "c"), '{"type":"x"}', good[2]!, '{"ty'];
		const file = write("s.jsonl", lines, false);
		const original = readFileSync(file);
		const idsBefore = await entryIds(file);

		const result = await repairSessionFile(file);
		expect(result.outcome).toEqual({
			kind: "rewritten",
			backupPath: `${file}.bak`,
			quarantinePath: `${file}.quarantine.jsonl`,
			quarantined: [
				{ line: 3, reason: expect.stringContaining("JSON") },
				{ line: 5, reason: "duplicate entry id a" },
				{ line: 6, reason: "entry has no id" },
				{ line: 8, reason: "torn tail: the last line was cut off" },
			],
			headerRepairs: [],
		});
		expect(result.before.ok).toBe(false);
		expect(result.after).toEqual({ path: file, ok: true, header: { valid: true, version: 3 }, findings: [] });
		expect(readFileSync(`${file}.bak`)).toEqual(original);
		expect(readFileSync(file, "utf8")).toBe(`${[headerLine(), ...good].join("\n")}\n`);
		expect(quarantineOf(file)).toEqual([
			{ line: 3, text: "{oops", reason: expect.any(String), backup: "s.jsonl.bak", at: expect.any(String) },
			{ line: 5, text: lines[4], reason: "duplicate entry id a", backup: "s.jsonl.bak", at: expect.any(String) },
			{ line: 6, text: '{"type":"x"}', reason: "entry has no id", backup: "s.jsonl.bak", at: expect.any(String) },
			{ line: 8, text: '{"ty', reason: expect.stringContaining("torn"), backup: "s.jsonl.bak", at: expect.any(String) },
		]);
		expect(await entryIds(file)).toEqual(idsBefore);
		expect(idsBefore).toEqual(["a", "b", "c"]);
		// No temp file left behind.
		expect(readdirSync(projectDir(tmp.agentDir)).sort()).toEqual([
			"s.jsonl",
			"s.jsonl.bak",
			"s.jsonl.quarantine.jsonl",
		]);
	});

	it("keeps a line too long to read in the file, byte for byte, and quarantines the others", async () => {
		const long = entryLine("long", "a", { text: "y".repeat(5000) });
		const lines = [headerLine(), entryLine("a", null), long, "junk", entryLine("b", "a")];
		const file = write("s.jsonl", lines);
		const result = await repairSessionFile(file, { maxLineBytes: 1000 });
		expect(result.outcome).toMatchObject({ kind: "rewritten", quarantined: [{ line: 4 }] });
		expect(readFileSync(file, "utf8")).toBe(
			`${[headerLine(), entryLine("a", null), long, entryLine("b", "a")].join("\n")}\n`,
		);
		expect(quarantineOf(file).map((r) => r.text)).toEqual(["junk"]);
		expect(result.after.findings).toEqual([
			{ kind: "unparseable-line", line: 3, message: expect.stringContaining("too long to read") },
		]);
		// Nothing else to do: a second repair leaves the file alone.
		expect((await repairSessionFile(file, { maxLineBytes: 1000 })).outcome).toEqual({ kind: "unchanged" });
	});

	it("never overwrites a backup and appends to the quarantine", async () => {
		const file = write("s.jsonl", [headerLine(), entryLine("a", null), "bad one"]);
		await repairSessionFile(file);
		writeFileSync(file, `${readFileSync(file, "utf8")}bad two\n`);
		const second = await repairSessionFile(file);
		expect(second.outcome).toMatchObject({ kind: "rewritten", backupPath: `${file}.bak.1` });
		expect(readFileSync(`${file}.bak`, "utf8")).toContain("bad one");
		expect(readFileSync(`${file}.bak.1`, "utf8")).toContain("bad two");
		expect(quarantineOf(file).map((r) => [r.text, r.backup])).toEqual([
			["bad one", "s.jsonl.bak"],
			["bad two", "s.jsonl.bak.1"],
		]);
	});

	it("keeps good lines byte for byte and saves non-UTF-8 bad lines as base64 too", async () => {
		const oddButGood = Buffer.concat([
			Buffer.from('{"type":"custom","id":"u","parentId":null,"timestamp":"t","customType":"'),
			Buffer.from([0xff, 0xfe]),
			Buffer.from('"}'),
		]);
		const badBytes = Buffer.from([0x7b, 0xc3, 0x28, 0x00, 0x80]);
		const file = write("s.jsonl", [headerLine(), oddButGood, badBytes, Buffer.from("\r")]);
		const result = await repairSessionFile(file);
		expect(result.outcome.kind).toBe("rewritten");
		expect(readFileSync(file)).toEqual(
			Buffer.concat([Buffer.from(`${headerLine()}\n`), oddButGood, Buffer.from("\n\r\n")]),
		);
		const [record] = quarantineOf(file);
		expect(Buffer.from(record!.base64!, "base64")).toEqual(badBytes);
		expect(result.after.findings).toEqual([{ kind: "invalid-utf8", line: 2 }]);
	});

	it("leaves a file with an invalid header exactly as it is", async () => {
		const file = write("foreign.jsonl", ["this is not a session", "{oops"]);
		const before = fingerprint(file);
		const result = await repairSessionFile(file);
		expect(result.outcome).toEqual({ kind: "not-a-session", reason: "first line is not valid JSON" });
		expect(fingerprint(file)).toEqual(before);
		expect(existsSync(`${file}.bak`)).toBe(false);
		expect(existsSync(`${file}.quarantine.jsonl`)).toBe(false);
	});

	it("reports orphans and cycles but does not rewrite for them", async () => {
		const file = write("tree.jsonl", [headerLine(), entryLine("o", "gone"), entryLine("x", "y"), entryLine("y", "x")]);
		const before = fingerprint(file);
		const result = await repairSessionFile(file);
		expect(result.outcome).toEqual({ kind: "unchanged" });
		expect(result.after.findings.map((f) => f.kind)).toEqual(["orphan", "cycle"]);
		expect(result.after.ok).toBe(false);
		expect(fingerprint(file)).toEqual(before);
		expect(existsSync(`${file}.bak`)).toBe(false);
	});

	it("removes a stale lock, even from a file that needs nothing else", async () => {
		const file = write("s.jsonl", [headerLine(), entryLine("a", null)]);
		const lockPath = `${file}.lock`;
		writeFileSync(lockPath, JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: "" }));
		const result = await repairSessionFile(file);
		expect(result.outcome).toEqual({ kind: "unchanged" });
		expect(result.removedLock).toBe(lockPath);
		expect(existsSync(lockPath)).toBe(false);
		expect(result.after.findings).toEqual([]);
	});

	it("touches nothing while a live process holds the lock", async () => {
		const file = write("s.jsonl", [headerLine(), entryLine("a", null), "garbage"]);
		const lockPath = `${file}.lock`;
		const lock = JSON.stringify({ pid: process.pid, host: hostname(), startedAt: "2026-01-01T00:00:00.000Z" });
		writeFileSync(lockPath, lock);
		const before = fingerprint(file);
		const result = await repairSessionFile(file);
		expect(result.outcome).toEqual({ kind: "locked", pid: process.pid, host: hostname() });
		expect(result.removedLock).toBeUndefined();
		expect(fingerprint(file)).toEqual(before);
		expect(readFileSync(lockPath, "utf8")).toBe(lock);
		expect(existsSync(`${file}.bak`)).toBe(false);
	});

	it("refuses a session this process has open in a SessionManager", async () => {
		const session = await SessionManager.create(CWD, { sessionDir: projectDir(tmp.agentDir) });
		session.appendMessage(userMessage("hi"));
		session.appendMessage(assistantMessage("hello"));
		await session.flush();
		const file = session.getSessionFile()!;
		writeFileSync(file, `${readFileSync(file, "utf8")}garbage\n`);
		const result = await repairSessionFile(file);
		expect(result.outcome.kind).toBe("locked");
		await session.close();
		expect((await repairSessionFile(file)).outcome.kind).toBe("rewritten");
	});

	it("keeps the file's permissions", async () => {
		const file = write("s.jsonl", [headerLine(), "bad"]);
		chmodSync(file, 0o600);
		await repairSessionFile(file);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect((await diagnoseSessionFile(file)).ok).toBe(true);
	});

	it("repairs a v1 file without migrating it (open() does that, with its own backup)", async () => {
		const v1Entry = JSON.stringify({ type: "message", timestamp: "t", message: { role: "user", content: "hi" } });
		const file = write("v1.jsonl", [headerLine(null), v1Entry, "junk", v1Entry]);
		const result = await repairSessionFile(file);
		expect(result.outcome).toMatchObject({ kind: "rewritten", quarantined: [{ line: 3 }] });
		expect(readFileSync(file, "utf8")).toBe(`${[headerLine(null), v1Entry, v1Entry].join("\n")}\n`);
		expect(result.after.findings).toEqual([{ kind: "needs-migration", version: 1 }]);
		const session = await SessionManager.open(file);
		expect(session.getEntries()).toHaveLength(2);
		await session.close();
	});
});
