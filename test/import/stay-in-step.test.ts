import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type ImportResult, importFile, importPaths } from "../../source/import/import-run.js";
import { readCounts } from "../../source/import/source-stamp.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { FOREIGN, fixture } from "./import-helpers.js";
import { CHILD, createOpencodeDb, fillOpencodeDb, growParent, OTHER, PARENT } from "./opencode-db-fixture.js";

// An import with nothing new reads no source: a file whose size, mtime and inode are as at its
// last import, and an opencode database session whose marks did not move, are said unchanged
// from their stamps. Whatever changed is still read and imported.

const base = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };

/** Sources read by `run` (files, database sessions). */
async function reads<T>(run: () => Promise<T>): Promise<{ value: T; files: number; sessions: number }> {
	const files = readCounts.files;
	const sessions = readCounts.databaseSessions;
	const value = await run();
	return { value, files: readCounts.files - files, sessions: readCounts.databaseSessions - sessions };
}

const statusOf = (results: ImportResult[]) =>
	results.map((r) => [r.source, r.status, r.status === "skipped" ? r.reason : r.sessionFile]);

describe("an import with nothing new", () => {
	const temp = useTempAgentDir();
	const open: Database.Database[] = [];
	afterEach(() => {
		for (const db of open.splice(0)) db.close();
	});

	/** The jsonl and json fixtures of every tool, copied to a folder of their own. */
	const corpus = () => {
		const dir = join(temp.root, "corpus");
		mkdirSync(dir);
		for (const name of readdirSync(FOREIGN).filter((n) => /\.jsonl?$/.test(n))) cpSync(fixture(name), join(dir, name));
		return dir;
	};

	it.each([0, 2])("reads no source again (threads: %i), and says what the first import did", async (threads) => {
		const dir = corpus();
		const first = await reads(() => importPaths([dir], { ...base, threads }));
		expect(first.files).toBeGreaterThanOrEqual(14);
		expect(first.value.filter((r) => r.status === "imported").length).toBeGreaterThanOrEqual(12);
		const again = await reads(() => importPaths([dir], { ...base, threads }));
		expect(again.files).toBe(0);
		expect(statusOf(again.value)).toEqual(
			statusOf(first.value).map(([source, status, what]) => [
				source,
				status === "imported" ? "unchanged" : status,
				what,
			]),
		);
		const dry = await reads(() => importPaths([dir], { ...base, dryRun: true }));
		expect(dry.files).toBe(0);
		expect(dry.value.map((r) => r.status)).toEqual(again.value.map((r) => r.status));
	});

	it("reads a file that grew and appends its new part; the others are not read", async () => {
		const dir = corpus();
		const name = "claude-code-02-tool-heavy.jsonl";
		const lines = readFileSync(fixture(name), "utf8").trimEnd().split("\n");
		const cut = lines.findIndex((l, i) => i > lines.length / 2 && l.includes('"content":"now check the logs'));
		writeFileSync(join(dir, name), `${lines.slice(0, cut).join("\n")}\n`);
		await importPaths([dir], base);
		appendFileSync(join(dir, name), `${lines.slice(cut).join("\n")}\n`);
		const grown = await reads(() => importPaths([dir], base));
		expect(grown.files).toBe(1);
		const changed = grown.value.filter((r) => r.status !== "unchanged" && r.status !== "skipped");
		expect(changed).toMatchObject([{ status: "appended", source: join(dir, name) }]);
		expect((await reads(() => importPaths([dir], base))).files).toBe(0);
	});

	it("reads a source again when its stamp is of another importer, or its session or record is gone", async () => {
		const source = join(temp.root, "codex.jsonl");
		cpSync(fixture("codex-01-cli-0.58-shell-reasoning.jsonl"), source);
		const first = await importFile(source, base);
		if (first.status !== "imported") throw new Error(first.status);
		const book = join(temp.agentDir, "imports", "sources.json");
		const stamps = JSON.parse(readFileSync(book, "utf8")) as { stamps: Record<string, { importer: string }> };
		stamps.stamps[source]!.importer = "xcsh-import/1";
		writeFileSync(book, JSON.stringify(stamps));
		const older = await reads(() => importFile(source, base));
		expect([older.files, older.value.status]).toEqual([1, "unchanged"]);
		expect((await reads(() => importFile(source, base))).files).toBe(0);
		rmSync(first.sessionFile);
		const gone = await reads(() => importFile(source, base));
		expect([gone.files, gone.value.status]).toEqual([1, "imported"]);
		if (gone.value.status !== "imported") return;
		for (const name of readdirSync(join(temp.agentDir, "imports")).filter(
			(n) => n.endsWith(".json") && n !== "sources.json",
		))
			rmSync(join(temp.agentDir, "imports", name));
		const noRecord = await reads(() => importFile(source, base));
		expect([noRecord.files, noRecord.value.status]).toEqual([1, "imported"]);
	});

	it("says a skip that comes from the file's content again without reading it; other options read it", async () => {
		const source = join(temp.root, "no-reply.jsonl");
		const lines = readFileSync(fixture("claude-code-01-short-thinking-tools.jsonl"), "utf8").split("\n");
		writeFileSync(source, `${lines.filter((l) => l.includes('"type":"user"')).join("\n")}\n`);
		const first = await importFile(source, base);
		expect(first).toMatchObject({ status: "skipped", reason: expect.stringMatching(/^no assistant reply/) });
		const again = await reads(() => importFile(source, base));
		expect([again.files, again.value]).toEqual([0, first]);
		expect((await reads(() => importFile(source, { ...base, from: "claude-code" }))).files).toBe(1);
	});

	it("an opencode storage tree is read again: its messages are files its session file's stat does not cover", async () => {
		const storage = join(temp.root, "storage");
		cpSync(join(FOREIGN, "opencode", "storage"), storage, { recursive: true });
		const message = join(storage, "message", "ses_4f29e0b1affeLk2Mn4Bv6Cx8Za", "msg_b0c1aa04f001Zx4Cv6Bn8Mq1We.json");
		const bytes = readFileSync(message);
		rmSync(message);
		const byId = (results: ImportResult[]) =>
			Object.fromEntries(results.map((r) => [r.source.split("/").at(-1), r.status]));
		expect(byId(await importPaths([storage], base))).toEqual({
			"ses_4f29df77cffeRt5Yh7Uj9Ik1Ol.json": "imported",
			"ses_4f29e0b1affeLk2Mn4Bv6Cx8Za.json": "imported",
		});
		writeFileSync(message, bytes);
		// Its revert point moved with the new message: imported again, not appended, but read.
		expect(byId(await importPaths([storage], base))).toEqual({
			"ses_4f29df77cffeRt5Yh7Uj9Ik1Ol.json": "unchanged",
			"ses_4f29e0b1affeLk2Mn4Bv6Cx8Za.json": "reimported",
		});
	});

	it("an opencode database: no session is read again, only one that changed", async () => {
		const data = join(temp.root, "data");
		mkdirSync(data);
		const path = join(data, "opencode.db");
		const db = createOpencodeDb(path);
		db.pragma("wal_autocheckpoint = 0");
		open.push(db);
		fillOpencodeDb(db);
		const sessions = (results: ImportResult[]) => results.map((r) => [r.sourceSession, r.status]);
		const first = await reads(() => importPaths([path], base));
		expect([first.sessions, sessions(first.value)]).toEqual([
			3,
			[
				[PARENT, "imported"],
				[CHILD, "imported"],
				[OTHER, "imported"],
			],
		]);
		const again = await reads(() => importPaths([path], base));
		expect([again.sessions, sessions(again.value)]).toEqual([
			0,
			[
				[PARENT, "unchanged"],
				[CHILD, "unchanged"],
				[OTHER, "unchanged"],
			],
		]);
		// Another session's row written: the database changed, these three did not.
		db.prepare("UPDATE project SET time_updated = time_updated + 1").run();
		expect((await reads(() => importPaths([path], base))).sessions).toBe(0);
		growParent(db);
		const grown = await reads(() => importPaths([path], base));
		expect([grown.sessions, sessions(grown.value)]).toEqual([
			1,
			[
				[PARENT, "appended"],
				[CHILD, "unchanged"],
				[OTHER, "unchanged"],
			],
		]);
		expect((await reads(() => importPaths([path], base))).sessions).toBe(0);
	});
});
