import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LogSink, setLogSink } from "../../source/logger.js";
import { getHistoryDbPath, HistoryStorage, toFtsQuery } from "../../source/session/history-storage.js";

let tempDir: string;
let agentDir: string;
let savedAgentDir: string | undefined;
let open: HistoryStorage[];

function openStore(dbPath?: string): HistoryStorage {
	const store = HistoryStorage.open(dbPath);
	open.push(store);
	return store;
}

async function addAll(store: HistoryStorage, prompts: string[]): Promise<void> {
	for (const prompt of prompts) store.add(prompt);
	await store.flush();
}

function prompts(entries: { prompt: string }[]): string[] {
	return entries.map((entry) => entry.prompt);
}

beforeEach(() => {
	tempDir = mkdtempSync(join(tmpdir(), "xcsh-history-"));
	// A not-yet-existing sub-directory, so opening must create it.
	agentDir = join(tempDir, "agent");
	savedAgentDir = process.env.XCSH_AGENT_DIR;
	process.env.XCSH_AGENT_DIR = agentDir;
	open = [];
});

afterEach(async () => {
	for (const store of open) await store.close();
	if (savedAgentDir === undefined) delete process.env.XCSH_AGENT_DIR;
	else process.env.XCSH_AGENT_DIR = savedAgentDir;
	rmSync(tempDir, { recursive: true, force: true });
});

describe("HistoryStorage", () => {
	it("creates <XCSH_AGENT_DIR>/history.db by default", () => {
		const store = openStore();
		expect(store.dbPath).toBe(join(agentDir, "history.db"));
		expect(getHistoryDbPath()).toBe(join(agentDir, "history.db"));
		expect(existsSync(join(agentDir, "history.db"))).toBe(true);
	});

	it("accepts an explicit path", () => {
		const dbPath = join(tempDir, "elsewhere", "h.db");
		const store = openStore(dbPath);
		expect(store.dbPath).toBe(dbPath);
		expect(existsSync(dbPath)).toBe(true);
		expect(existsSync(join(agentDir, "history.db"))).toBe(false);
	});

	it("uses WAL journal mode", () => {
		const store = openStore();
		const raw = new Database(store.dbPath);
		try {
			expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
		} finally {
			raw.close();
		}
	});

	it("returns recent prompts newest first with their cwd", async () => {
		const store = openStore();
		store.add("first", "/a");
		store.add("second");
		store.add("third", "/c");
		await store.flush();
		const recent = store.getRecent(10);
		expect(prompts(recent)).toEqual(["third", "second", "first"]);
		expect(recent.map((entry) => entry.cwd)).toEqual(["/c", undefined, "/a"]);
		for (const entry of recent) expect(typeof entry.createdAt).toBe("number");
		expect(prompts(store.getRecent(2))).toEqual(["third", "second"]);
		expect(store.getRecent(0)).toEqual([]);
	});

	it("does not block: the row appears only after flush", async () => {
		const store = openStore();
		store.add("deferred");
		expect(store.getRecent(10)).toEqual([]);
		await store.flush();
		expect(prompts(store.getRecent(10))).toEqual(["deferred"]);
	});

	it("ignores empty and whitespace-only prompts", async () => {
		const store = openStore();
		await addAll(store, ["", "   ", "\n\t"]);
		expect(store.getRecent(10)).toEqual([]);
	});

	it("suppresses consecutive duplicates", async () => {
		const store = openStore();
		await addAll(store, ["same", "same"]);
		store.add("same");
		await store.flush();
		expect(prompts(store.getRecent(10))).toEqual(["same"]);
	});

	it("suppresses a consecutive duplicate across reopen", async () => {
		const first = openStore();
		await addAll(first, ["one", "two"]);
		await first.close();
		const second = openStore();
		await addAll(second, ["two", "three"]);
		expect(prompts(second.getRecent(10))).toEqual(["three", "two", "one"]);
	});

	it("keeps non-consecutive duplicates", async () => {
		const store = openStore();
		await addAll(store, ["a", "b", "a"]);
		expect(prompts(store.getRecent(10))).toEqual(["a", "b", "a"]);
	});

	it("flushes pending prompts on close and ignores adds afterwards", async () => {
		const store = openStore();
		store.add("written on close");
		await store.close();
		store.add("too late");
		const reopened = openStore();
		expect(prompts(reopened.getRecent(10))).toEqual(["written on close"]);
	});

	it("logs a failed insert instead of throwing, and lets the prompt be retried", async () => {
		const store = openStore();
		const raw = new Database(store.dbPath);
		raw.exec("CREATE TRIGGER fail BEFORE INSERT ON history BEGIN SELECT RAISE(ABORT, 'simulated disk error'); END;");
		const messages: string[] = [];
		const sink: LogSink = (level, message) => {
			if (level === "error") messages.push(message);
		};
		const previous = setLogSink(sink);
		try {
			expect(() => store.add("doomed")).not.toThrow();
			await store.flush();
		} finally {
			setLogSink(previous);
		}
		expect(messages).toHaveLength(1);
		expect(messages[0]).toContain("simulated disk error");
		expect(store.getRecent(10)).toEqual([]);

		raw.exec("DROP TRIGGER fail");
		raw.close();
		await addAll(store, ["doomed"]);
		expect(prompts(store.getRecent(10))).toEqual(["doomed"]);
	});

	describe("search", () => {
		it("prefix-matches every word", async () => {
			const store = openStore();
			await addAll(store, ["fixed the lockfile bug", "fixed the bug", "unlock the door"]);
			expect(prompts(store.search("fix lock", 10))).toEqual(["fixed the lockfile bug"]);
			expect(prompts(store.search("FIX", 10)).sort()).toEqual(["fixed the bug", "fixed the lockfile bug"]);
			expect(store.search("ock", 10)).toEqual([]);
		});

		it("ranks by bm25, then recency", async () => {
			const store = openStore();
			await addAll(store, [
				"deploy the staging cluster after the long migration finishes and the alerts are quiet",
				"deploy deploy",
				"deploy alpha",
				"deploy beta",
			]);
			const ranked = prompts(store.search("deploy", 10));
			expect(ranked[0]).toBe("deploy deploy");
			// Equal scores fall back to newest first.
			expect(ranked.slice(1, 3)).toEqual(["deploy beta", "deploy alpha"]);
			expect(ranked[3]).toMatch(/^deploy the staging/);
			expect(prompts(store.search("deploy", 2))).toEqual(["deploy deploy", "deploy beta"]);
		});

		it("collapses duplicate prompts to the newest", async () => {
			const store = openStore();
			await addAll(store, ["run tests", "other", "run tests", "run lint"]);
			const results = store.search("run", 10);
			expect(prompts(results)).toEqual(["run lint", "run tests"]);
			const newestRunTests = store.getRecent(10).find((entry) => entry.prompt === "run tests");
			expect(results[1]?.id).toBe(newestRunTests?.id);
		});

		it("never throws on hostile queries", async () => {
			const store = openStore();
			await addAll(store, [
				'say "hi" (now)',
				"AND OR NOT",
				"near the end",
				"日本語のテスト",
				"café au lait",
				"a-b c*d",
			]);
			const nasty = [
				"",
				"   ",
				'"',
				'"""',
				'say "hi',
				"(",
				")",
				"AND",
				"AND OR",
				"OR",
				"NOT",
				"*",
				"-",
				"- -",
				"NEAR(",
				"NEAR(a b",
				"^",
				":",
				"prompt:",
				"{col}",
				"!!!",
				"🙂",
				"日本語",
				"\u0000",
			];
			for (const query of nasty) {
				expect(() => store.search(query, 10), query).not.toThrow();
				expect(Array.isArray(store.search(query, 10)), query).toBe(true);
			}
			expect(prompts(store.search('"hi', 10))).toEqual(['say "hi" (now)']);
			expect(prompts(store.search("AND OR", 10))).toEqual(["AND OR NOT"]);
			expect(prompts(store.search("NEAR(", 10))).toEqual(["near the end"]);
			expect(prompts(store.search("日本語", 10))).toEqual(["日本語のテスト"]);
			expect(prompts(store.search("cafe", 10))).toEqual(["café au lait"]);
		});

		it("builds quoted prefix terms and drops punctuation-only tokens", () => {
			expect(toFtsQuery("fix lock")).toBe('"fix"* AND "lock"*');
			expect(toFtsQuery('say "hi')).toBe('"say"* AND """hi"*');
			expect(toFtsQuery("* - ( )")).toBeUndefined();
			expect(toFtsQuery("")).toBeUndefined();
		});
	});

	it("keeps history_fts in sync through insert, update and delete triggers", async () => {
		const store = openStore();
		await addAll(store, ["alpha prompt", "beta prompt"]);
		const raw = new Database(store.dbPath);
		const matchIds = (term: string): number[] =>
			raw
				.prepare<[string], { rowid: number }>("SELECT rowid FROM history_fts WHERE history_fts MATCH ? ORDER BY rowid")
				.all(term)
				.map((row) => row.rowid);
		try {
			const [beta, alpha] = store.getRecent(10);
			expect(matchIds("alpha")).toEqual([alpha?.id]);
			expect(matchIds("prompt")).toEqual([alpha?.id, beta?.id]);

			raw.prepare("UPDATE history SET prompt = 'gamma prompt' WHERE id = ?").run(alpha?.id);
			expect(matchIds("alpha")).toEqual([]);
			expect(matchIds("gamma")).toEqual([alpha?.id]);

			raw.prepare("DELETE FROM history WHERE id = ?").run(beta?.id);
			expect(matchIds("beta")).toEqual([]);
			expect(matchIds("prompt")).toEqual([alpha?.id]);
			// The FTS integrity check fails if the index drifted from its content table.
			expect(() => raw.exec("INSERT INTO history_fts(history_fts) VALUES ('integrity-check')")).not.toThrow();
		} finally {
			raw.close();
		}
		expect(prompts(store.search("gamma", 10))).toEqual(["gamma prompt"]);
	});
});
