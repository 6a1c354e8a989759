import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OVERSIZED_LINE_BYTES } from "../../source/doctor/analyze.js";
import { describeFinding } from "../../source/doctor/describe.js";
import { diagnoseSessionFile, listSessionFiles } from "../../source/doctor/diagnose.js";
import { type Finding, type FindingKind, severityOf } from "../../source/doctor/findings.js";
import { tooLongLine } from "../../source/session/session-lines.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, imageBlock, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import {
	blobMessageLine,
	CWD,
	chainLines,
	entryLine,
	fingerprint,
	headerLine,
	projectDir,
	writeSession,
} from "./craft.js";
import { bigText, inlineImage, messageLine, toolResult } from "./slim-craft.js";

const HASH = "ab".repeat(32);

function kinds(findings: readonly Finding[]): FindingKind[] {
	return findings.map((f) => f.kind);
}

/** A pid that certainly ran on this host and is gone now. */
function deadPid(): number {
	const pid = spawnSync(process.execPath, ["-e", ""]).pid;
	if (pid === undefined) throw new Error("could not spawn");
	return pid;
}

describe("diagnoseSessionFile", () => {
	const tmp = useTempAgentDir();
	const write = (name: string, lines: readonly (string | Buffer)[], finalNewline = true) =>
		writeSession(tmp.agentDir, name, lines, finalNewline);

	it("finds nothing in a session xcsh wrote, images included", async () => {
		const session = await SessionManager.create(CWD, { sessionDir: projectDir(tmp.agentDir) });
		session.appendMessage(userMessage("hello"));
		session.appendMessage(assistantMessage("hi"));
		session.appendMessage(toolResultMessage("a screenshot", [imageBlock(4096)]));
		await session.close();
		const report = await diagnoseSessionFile(session.getSessionFile()!);
		expect(report).toEqual({
			path: session.getSessionFile(),
			ok: true,
			header: { valid: true, version: 3 },
			findings: [],
		});
	});

	it("reports unparseable lines with the loader's reasons", async () => {
		const file = write("bad.jsonl", [
			headerLine(),
			entryLine("a", null),
			"{not json",
			"[1, 2]",
			'{"id":"x","parentId":null}',
			'{"type":"custom","parentId":"a"}',
			"",
			"   ",
			entryLine("b", "a"),
		]);
		const report = await diagnoseSessionFile(file);
		expect(report.ok).toBe(false);
		expect(report.findings).toEqual([
			{ kind: "unparseable-line", line: 3, message: expect.stringContaining("JSON") },
			{ kind: "unparseable-line", line: 4, message: "not a JSON object" },
			{ kind: "unparseable-line", line: 5, message: "entry has no type" },
			{ kind: "unparseable-line", line: 6, message: "entry has no id" },
		]);
		expect(report.findings.map(severityOf)).toEqual(["error", "error", "error", "error"]);
	});

	it("tells a torn tail from a harmless missing final newline", async () => {
		const torn = write("torn.jsonl", [headerLine(), entryLine("a", null), '{"type":"custom","id":"b","par'], false);
		expect((await diagnoseSessionFile(torn)).findings).toEqual([{ kind: "torn-tail", line: 3 }]);
		const unterminated = write("unterminated.jsonl", [headerLine(), entryLine("a", null)], false);
		const report = await diagnoseSessionFile(unterminated);
		expect(report.findings).toEqual([{ kind: "missing-final-newline" }]);
		expect(report.ok).toBe(true);
		expect(severityOf(report.findings[0]!)).toBe("info");
		// A cut line that is not last is just unparseable: the next append already terminated it.
		const inner = write("inner.jsonl", [headerLine(), '{"type":"cus', entryLine("a", null)]);
		expect(kinds((await diagnoseSessionFile(inner)).findings)).toEqual(["unparseable-line"]);
	});

	it("reports duplicate ids with every line that carries them", async () => {
		const file = write("dup.jsonl", [
			headerLine(),
			entryLine("a", null),
			entryLine("b", "a"),
			entryLine("a", "b"),
			entryLine("a", null),
		]);
		expect((await diagnoseSessionFile(file)).findings).toEqual([{ kind: "duplicate-id", id: "a", lines: [2, 4, 5] }]);
	});

	it("reports an orphan once at the top of its chain, as a warning", async () => {
		const file = write("orphan.jsonl", [headerLine(), entryLine("a", null), ...chainLines(100, "o", "gone")]);
		const report = await diagnoseSessionFile(file);
		expect(report.findings).toEqual([{ kind: "orphan", id: "o1", line: 3, parentId: "gone" }]);
		expect(report.ok).toBe(true);
		expect(severityOf(report.findings[0]!)).toBe("warning");
	});

	it("reports parent cycles, self-loops included", async () => {
		const file = write("cycle.jsonl", [
			headerLine(),
			entryLine("root", null),
			entryLine("x", "z"),
			entryLine("y", "x"),
			entryLine("z", "y"),
			entryLine("tail", "z"),
			entryLine("self", "self"),
		]);
		const report = await diagnoseSessionFile(file);
		expect(report.findings).toEqual([
			{ kind: "cycle", ids: ["x", "z", "y"] },
			{ kind: "cycle", ids: ["self"] },
		]);
		expect(report.ok).toBe(false);
	});

	it("reports image blobs missing from the blob store", async () => {
		const session = await SessionManager.create(CWD, { sessionDir: projectDir(tmp.agentDir) });
		session.appendMessage(userMessage("see"));
		session.appendMessage(assistantMessage("ok"));
		session.appendMessage(toolResultMessage("img", [imageBlock(4096, 7)]));
		await session.close();
		const file = session.getSessionFile()!;
		const blobs = join(tmp.agentDir, "blobs");
		const [blob] = readdirSync(blobs);
		expect((await diagnoseSessionFile(file)).findings).toEqual([]);
		unlinkSync(join(blobs, blob!));
		expect((await diagnoseSessionFile(file)).findings).toEqual([{ kind: "unresolved-blob", hash: blob, line: 4 }]);

		const crafted = write("blob.jsonl", [headerLine(), blobMessageLine("m", null, HASH)]);
		expect((await diagnoseSessionFile(crafted)).findings).toEqual([{ kind: "unresolved-blob", hash: HASH, line: 2 }]);
		mkdirSync(blobs, { recursive: true });
		writeFileSync(join(blobs, HASH), "png");
		expect((await diagnoseSessionFile(crafted)).findings).toEqual([]);
	});

	it("reports tool result text blobs missing from the blob store", async () => {
		const line = JSON.stringify({
			type: "message",
			id: "t",
			parentId: null,
			timestamp: "2026-02-16T10:21:00.000Z",
			message: {
				role: "toolResult",
				toolCallId: "c",
				toolName: "read",
				content: [{ type: "text", text: `blob:sha256:${HASH}` }],
				isError: false,
				timestamp: 1,
			},
		});
		const file = write("text-blob.jsonl", [headerLine(), line]);
		const report = await diagnoseSessionFile(file);
		expect(report.findings).toEqual([{ kind: "unresolved-blob", hash: HASH, line: 2, block: "text" }]);
		expect(describeFinding(report.findings[0]!)).toBe(
			`tool result text blob ${HASH.slice(0, 12)}… is missing from the blob store`,
		);
		const blobs = join(tmp.agentDir, "blobs");
		mkdirSync(blobs, { recursive: true });
		writeFileSync(join(blobs, HASH), "the text");
		expect((await diagnoseSessionFile(file)).findings).toEqual([]);
	});

	it("reports oversized lines", async () => {
		const big = entryLine("big", null, { text: "x".repeat(OVERSIZED_LINE_BYTES + 10) });
		const file = write("big.jsonl", [headerLine(), big]);
		expect((await diagnoseSessionFile(file)).findings).toEqual([
			{ kind: "oversized-line", line: 2, bytes: Buffer.byteLength(big) },
		]);
	});

	it("reports a line longer than the readable limit as unreadable, without reading it", async () => {
		const long = entryLine("long", "a", { text: "y".repeat(5000) });
		const file = write("long.jsonl", [headerLine(), entryLine("a", null), long, entryLine("b", "a")]);
		const report = await diagnoseSessionFile(file, { maxLineBytes: 1000 });
		expect(report.findings).toEqual([
			{ kind: "unparseable-line", line: 3, message: tooLongLine(Buffer.byteLength(long)) },
		]);
		expect(report.findings[0]).toMatchObject({
			message: `line is ${Buffer.byteLength(long).toLocaleString("en-US")} bytes, too long to read; left in the file untouched`,
		});
		// The same line under the real limit is an ordinary entry.
		expect((await diagnoseSessionFile(file)).findings).toEqual([]);
	});

	it("reports a session over the lazy threshold with what --slim would move", async () => {
		const text = bigText(40_000, 1);
		const image = inlineImage(3000, 2);
		const file = write("large.jsonl", [
			headerLine(),
			messageLine("r1", null, toolResult([{ type: "text", text }, image], 1)),
			messageLine("r2", "r1", toolResult([{ type: "text", text: "short" }], 2)),
		]);
		const bytes = statSync(file).size;
		const slimmableBytes = Buffer.byteLength(text) + (image.data as string).length;
		const report = await diagnoseSessionFile(file, { lazyAboveBytes: 10_000 });
		expect(report.findings).toEqual([{ kind: "large-session", bytes, threshold: 10_000, slimmableBytes }]);
		expect(report.ok).toBe(true);
		expect(severityOf(report.findings[0]!)).toBe("info");
		expect(describeFinding(report.findings[0]!)).toMatch(/; --slim would move [\d.]+ KB of tool results and images/);
		// At the threshold, not over it: nothing to say.
		expect((await diagnoseSessionFile(file, { lazyAboveBytes: bytes })).findings).toEqual([]);
		// Over it, but made of what stays: no suggestion.
		const plain = write("plain.jsonl", [headerLine(), entryLine("a", null, { text: "z".repeat(20_000) })]);
		const [finding] = (await diagnoseSessionFile(plain, { lazyAboveBytes: 10_000 })).findings;
		expect(finding).toMatchObject({ kind: "large-session", slimmableBytes: 0 });
		expect(describeFinding(finding!)).toBe(
			`${(statSync(plain).size / 1024).toFixed(1)} KB, over the 9.8 KB above which a session opens with its big entries left on disk`,
		);
	});

	it("reports stale and live locks (read, never removed)", async () => {
		const file = write("locked.jsonl", [headerLine(), entryLine("a", null)]);
		const lockPath = `${file}.lock`;
		const dead = deadPid();
		writeFileSync(lockPath, JSON.stringify({ pid: dead, host: hostname(), startedAt: "2026-01-01T00:00:00.000Z" }));
		expect((await diagnoseSessionFile(file)).findings).toEqual([{ kind: "stale-lock", lockPath, pid: dead }]);
		writeFileSync(lockPath, "{torn");
		expect((await diagnoseSessionFile(file)).findings).toEqual([{ kind: "stale-lock", lockPath, pid: null }]);
		writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: "2026-01-01T00:00:00Z" }));
		const live = await diagnoseSessionFile(file);
		expect(live.findings).toEqual([{ kind: "live-lock", pid: process.pid, host: hostname() }]);
		expect(live.ok).toBe(true);
		// Another host's lock cannot be judged: a dead pid there is still "live".
		writeFileSync(lockPath, JSON.stringify({ pid: dead, host: "elsewhere.example", startedAt: "" }));
		expect((await diagnoseSessionFile(file)).findings).toEqual([
			{ kind: "live-lock", pid: dead, host: "elsewhere.example" },
		]);
		expect(fingerprint(lockPath).bytes.toString()).toContain("elsewhere.example");
	});

	it("notes v1 and v2 files that need a migration", async () => {
		const v1 = write("v1.jsonl", [headerLine(null), JSON.stringify({ type: "message", message: { role: "user" } })]);
		expect(await diagnoseSessionFile(v1)).toMatchObject({
			ok: true,
			header: { valid: true, version: 1 },
			findings: [{ kind: "needs-migration", version: 1 }],
		});
		const v2 = write("v2.jsonl", [headerLine(2), entryLine("a", null)]);
		expect((await diagnoseSessionFile(v2)).findings).toEqual([{ kind: "needs-migration", version: 2 }]);
	});

	it("judges the header: empty, blank, foreign, binary", async () => {
		const cases: [string, Buffer | string, string][] = [
			["empty", "", "empty"],
			["blank", "\n  \n\t\n", "empty"],
			["not-json", "hello world\n", "first line is not valid JSON"],
			["array", "[1]\n", "first line is not a session header"],
			["entry-first", `${entryLine("a", null)}\n${headerLine()}\n`, "first line is not a session header"],
			["binary", Buffer.from([0x00, 0xff, 0x13, 0x0a, 0x89, 0x50, 0x4e, 0x47]), "first line is not valid JSON"],
		];
		for (const [name, content, reason] of cases) {
			const file = join(projectDir(tmp.agentDir), `${name}.jsonl`);
			writeFileSync(file, content);
			expect(await diagnoseSessionFile(file), name).toEqual({
				path: file,
				ok: false,
				header: { valid: false, reason },
				findings: [],
			});
		}
		// Blank lines before the header are skipped, as the loader does, and noted for --fix.
		const padded = write("padded.jsonl", ["", "  ", headerLine(), entryLine("a", null)]);
		expect(await diagnoseSessionFile(padded)).toMatchObject({
			ok: true,
			findings: [{ kind: "header-prefix", bom: false, blankLines: 2 }],
		});
	});

	it("survives NUL runs, invalid UTF-8 and binary garbage after the header", async () => {
		const garbage = Buffer.alloc(4096);
		for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 131 + 7) & 0xff;
		const badUtf8Entry = Buffer.concat([
			Buffer.from('{"type":"custom","id":"u","parentId":"a","timestamp":"t","customType":"'),
			Buffer.from([0xc3, 0x28, 0xff, 0x80]),
			Buffer.from('","data":1}'),
		]);
		const file = write("garbage.jsonl", [
			headerLine(),
			entryLine("a", null),
			Buffer.alloc(300, 0),
			badUtf8Entry,
			garbage,
			Buffer.alloc(64, 0),
		]);
		const report = await diagnoseSessionFile(file);
		expect(report.header.valid).toBe(true);
		const byKind = kinds(report.findings);
		expect(report.findings).toContainEqual({ kind: "unparseable-line", line: 3, message: expect.any(String) });
		expect(report.findings).toContainEqual({ kind: "invalid-utf8", line: 4 });
		expect(byKind).not.toContain("torn-tail");
		// The UTF-8-damaged entry itself is loadable JSON.
		expect(report.findings.filter((f) => "line" in f && f.line === 4).map((f) => f.kind)).toEqual(["invalid-utf8"]);
		// A NUL-filled tail (a crash on some filesystems) is a torn tail.
		const nulTail = write("nul-tail.jsonl", [headerLine(), entryLine("a", null), Buffer.alloc(512, 0)], false);
		expect((await diagnoseSessionFile(nulTail)).findings).toEqual([{ kind: "torn-tail", line: 3 }]);
	});

	it("never changes a file's bytes or mtime, nor its lock", async () => {
		const file = write(
			"damaged.jsonl",
			[headerLine(2), entryLine("a", null), "garbage", entryLine("a", null), entryLine("o", "gone"), '{"type'],
			false,
		);
		writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: "" }));
		const before = [fingerprint(file), fingerprint(`${file}.lock`)];
		const names = readdirSync(projectDir(tmp.agentDir)).sort();
		for (let i = 0; i < 3; i++) await diagnoseSessionFile(file);
		for (const each of listSessionFiles()) await diagnoseSessionFile(each);
		expect([fingerprint(file), fingerprint(`${file}.lock`)]).toEqual(before);
		expect(readdirSync(projectDir(tmp.agentDir)).sort()).toEqual(names);
	});

	it("handles 100,000 entries and a 100,000-deep chain without recursion", async () => {
		const lines = [headerLine(), ...chainLines(100_000), entryLine("loop-a", "loop-b"), entryLine("loop-b", "loop-a")];
		const file = write("huge.jsonl", lines);
		const report = await diagnoseSessionFile(file);
		expect(report.findings).toEqual([{ kind: "cycle", ids: ["loop-a", "loop-b"] }]);
	});

	it("listing covers every project and skips quarantine files", async () => {
		const a = write("a.jsonl", [headerLine(), entryLine("a", null)]);
		write("a.jsonl.quarantine.jsonl", ['{"line":3,"text":"x","reason":"y"}']);
		write("a.jsonl.bak", [headerLine()]);
		const otherDir = join(tmp.agentDir, "sessions", "--elsewhere--");
		mkdirSync(otherDir, { recursive: true });
		const b = join(otherDir, "b.jsonl");
		writeFileSync(b, "not a session\n");
		expect(listSessionFiles()).toEqual([a, b].sort());
		const reports = await Promise.all(listSessionFiles().map((file) => diagnoseSessionFile(file)));
		expect(reports.map((r) => [r.path, r.ok])).toEqual(
			[
				[a, true],
				[b, false],
			].sort(),
		);
	});

	it("rejects with ENOENT for a missing file", async () => {
		await expect(diagnoseSessionFile(join(tmp.root, "missing.jsonl"))).rejects.toMatchObject({ code: "ENOENT" });
	});
});
