/**
 * The property every malformed session file must satisfy (shared by test/doctor/fuzz.test.ts and
 * bench/soak.ts): the doctor, the loader, the session listing and `SessionManager.open` never crash or
 * hang on it and never modify it (except open()'s documented migration rewrite, which keeps a
 * `.v<n>.bak` of the original); the doctor skips exactly the lines the loader skips; and `--fix`
 * loses nothing and leaves a file that opens with the same entries.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diagnoseSessionFile } from "../../source/doctor/diagnose.js";
import { type Finding, isDiagnosisOk, type SessionDiagnosis } from "../../source/doctor/findings.js";
import { repairSessionFile } from "../../source/doctor/repair.js";
import { getRecentSessions } from "../../source/session/session-discovery.js";
import { loadEntriesFromFile } from "../../source/session/session-loader.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { FileSessionStorage } from "../../source/session/session-storage.js";

let caseNumber = 0;

/** Lines of a file as `split("\n")` sees them, without the empty string after a final newline. */
function linesOf(bytes: Buffer): Buffer[] {
	const lines: Buffer[] = [];
	let start = 0;
	while (start <= bytes.length) {
		const end = bytes.indexOf(0x0a, start);
		if (end < 0) {
			if (start < bytes.length) lines.push(bytes.subarray(start));
			break;
		}
		lines.push(bytes.subarray(start, end));
		start = end + 1;
	}
	return lines;
}

/** The lines the doctor would move out: what the loader skips. */
function skippedByDoctor(findings: readonly Finding[]): number[] {
	const lines: number[] = [];
	for (const finding of findings) {
		if (finding.kind === "unparseable-line" || finding.kind === "torn-tail") lines.push(finding.line);
		else if (finding.kind === "duplicate-id") lines.push(...finding.lines.slice(1));
	}
	return lines.sort((a, b) => a - b);
}

function assertUntouched(file: string, bytes: Buffer, mtimeMs: number, by: string): void {
	assert.ok(readFileSync(file).equals(bytes), `${by} modified the file's bytes`);
	assert.equal(statSync(file).mtimeMs, mtimeMs, `${by} changed the file's mtime`);
}

function checkDiagnosis(diagnosis: SessionDiagnosis, lineCount: number): void {
	assert.equal(diagnosis.ok, isDiagnosisOk(diagnosis.header, diagnosis.findings));
	if (!diagnosis.header.valid)
		assert.deepEqual(
			diagnosis.findings.filter((f) => !f.kind.endsWith("lock")),
			[],
		);
	for (const finding of diagnosis.findings) {
		const lines = "line" in finding ? [finding.line] : finding.kind === "duplicate-id" ? finding.lines : [];
		for (const line of lines) assert.ok(line >= 1 && line <= lineCount, `line ${line} out of range in ${finding.kind}`);
	}
}

interface Opened {
	ids: string[];
	skipped: number[];
}

/** open() must open the file or refuse it as foreign; never throw anything else. */
async function openOrRefuse(file: string, dir: string, diagnosis: SessionDiagnosis): Promise<Opened | undefined> {
	let session: SessionManager;
	try {
		session = await SessionManager.open(file, { sessionDir: dir });
	} catch (error) {
		assert.equal((error as Error).message, `Not a session file: ${file}`, "open() threw something else");
		assert.equal(diagnosis.header.valid, false, "open() refused a file the doctor calls a session");
		return undefined;
	}
	try {
		assert.ok(diagnosis.header.valid || diagnosis.header.reason === "empty", "open() accepted a foreign file");
		return {
			ids: session.getEntries().map((entry) => entry.id),
			skipped: session.getLoadReport().skippedLines.map((s) => s.line),
		};
	} finally {
		await session.close();
	}
}

async function checkRepair(dir: string, bytes: Buffer, diagnosis: SessionDiagnosis, opened: Opened | undefined) {
	const file = join(dir, "repair.jsonl");
	writeFileSync(file, bytes);
	const result = await repairSessionFile(file);
	if (!diagnosis.header.valid) {
		assert.equal(result.outcome.kind, "not-a-session");
		assert.ok(readFileSync(file).equals(bytes), "repair rewrote a foreign file");
		return;
	}
	const leftover = skippedByDoctor(result.after.findings);
	assert.deepEqual(leftover, [], "repair left skipped lines behind");
	const skipped = skippedByDoctor(diagnosis.findings);
	if (result.outcome.kind !== "rewritten") {
		assert.deepEqual(skipped, []);
		assert.ok(readFileSync(file).equals(bytes), "repair changed a file it did not rewrite");
		return;
	}
	assert.ok(readFileSync(result.outcome.backupPath).equals(bytes), "the backup differs from the original");
	const original = linesOf(bytes);
	const records = (result.outcome.quarantined.length === 0 ? "" : readFileSync(result.outcome.quarantinePath, "utf8"))
		.split("\n")
		.filter((l) => l.length > 0)
		.map((l) => JSON.parse(l) as { line: number; text: string; base64?: string });
	assert.deepEqual(
		records.map((r) => r.line),
		skipped,
	);
	for (const record of records) {
		const raw = record.base64 === undefined ? Buffer.from(record.text) : Buffer.from(record.base64, "base64");
		assert.ok(raw.equals(original[record.line - 1]!), `quarantine lost the bytes of line ${record.line}`);
	}
	const gone = new Set(skipped);
	let kept = original.filter((_, i) => !gone.has(i + 1));
	if (result.outcome.headerRepairs.length > 0) {
		// The header was normalised (BOM, blank lines before it, its version): every line after it is kept.
		const headerAt = kept.findIndex((line) => line.toString("utf8").trim().length > 0);
		const [repairedHeader] = linesOf(readFileSync(file));
		const { version: _before, ...was } = JSON.parse(kept[headerAt]!.toString("utf8").replace(/^\uFEFF/, ""));
		const { version, ...now } = JSON.parse(repairedHeader!.toString("utf8"));
		assert.deepEqual(now, was, "the repair changed more of the header than its version");
		assert.ok(typeof version === "number", "the repaired header has no numeric version");
		kept = [repairedHeader!, ...kept.slice(headerAt + 1)];
	}
	const expected = Buffer.concat(kept.flatMap((line) => [line, Buffer.from("\n")]));
	assert.ok(readFileSync(file).equals(expected), "the repaired file is not the original minus the quarantined lines");
	const reopened = await openOrRefuse(file, dir, result.after);
	assert.ok(reopened && opened, "the repaired file does not open");
	assert.deepEqual(reopened.skipped, []);
	// v1 entries get fresh random ids from the migration on every open: compare counts there.
	const damaged = diagnosis.findings.some((f) => f.kind === "malformed-version");
	if (damaged || (diagnosis.header.version ?? 1) >= 2) assert.deepEqual(reopened.ids, opened.ids);
	else assert.equal(reopened.ids.length, opened.ids.length);
}

/** Runs one generated file through everything that reads session files; throws on any violation. */
export async function checkMalformedFile(bytes: Buffer, root: string): Promise<void> {
	const dir = join(root, `case-${caseNumber++}`);
	mkdirSync(dir, { recursive: true });
	try {
		const file = join(dir, "session.jsonl");
		writeFileSync(file, bytes);
		const { mtimeMs } = statSync(file);
		const lineCount = Math.max(1, linesOf(bytes).length);

		const diagnosis = await diagnoseSessionFile(file);
		assertUntouched(file, bytes, mtimeMs, "diagnoseSessionFile");
		checkDiagnosis(diagnosis, lineCount);

		const storage = new FileSessionStorage();
		await loadEntriesFromFile(file, storage);
		assertUntouched(file, bytes, mtimeMs, "loadEntriesFromFile");
		await getRecentSessions(dir, 10, storage);
		assertUntouched(file, bytes, mtimeMs, "getRecentSessions");

		const opened = await openOrRefuse(file, dir, diagnosis);
		// A damaged version with ids below it opens read-only: the tree is kept and nothing is rewritten.
		const damaged = diagnosis.findings.some((f) => f.kind === "malformed-version");
		const version = diagnosis.header.valid && !damaged ? (diagnosis.header.version ?? 1) : undefined;
		if (opened && version !== undefined && version < 3) {
			// The documented migration rewrite: the original must survive, byte for byte, in the backup.
			assert.ok(readFileSync(`${file}.v${version}.bak`).equals(bytes), "the migration backup differs");
		} else {
			assertUntouched(file, bytes, mtimeMs, "SessionManager.open");
		}
		if (opened) assert.deepEqual(opened.skipped, skippedByDoctor(diagnosis.findings), "doctor and loader disagree");

		await checkRepair(dir, bytes, diagnosis, opened);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
