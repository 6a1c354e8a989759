import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { queryTerms, toMatchExpression } from "../../source/index/fts-terms.js";
import { needsRebuild, SessionIndex } from "../../source/index/session-index.js";
import { buildSnippet } from "../../source/index/snippet.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("compaction marks in search results", () => {
	useTempAgentDir();

	it("marks entries a compaction summarised away, also when the compaction is appended after the first refresh", async () => {
		const manager = await SessionManager.create("/work/compact");
		const oldPrompt = manager.appendMessage(userMessage("the zeppelin lockfile broke"));
		manager.appendMessage(assistantMessage("zeppelin fixed by pinning"));
		const kept = manager.appendMessage(userMessage("zeppelin follow-up question"));
		manager.appendMessage(assistantMessage("zeppelin answer kept"));
		await manager.flush();
		const index = SessionIndex.open();
		try {
			await index.refresh();
			expect(index.search("zeppelin").every((hit) => !hit.compacted)).toBe(true);

			// Appended after the first refresh: the index must re-read the file to learn the ancestors.
			manager.appendCompaction("summary of the zeppelin work", undefined, kept, 1234);
			manager.appendMessage(userMessage("zeppelin after compaction"));
			await manager.flush();
			expect(await index.refresh()).toMatchObject({ updated: 1 });
			const marks = new Map(index.search("zeppelin", { limit: 50 }).map((hit) => [hit.snippet, hit.compacted]));
			expect(marks.get("the [zeppelin] lockfile broke")).toBe(true);
			expect(marks.get("[zeppelin] fixed by pinning")).toBe(true);
			expect(marks.get("[zeppelin] follow-up question")).toBe(false);
			expect(marks.get("[zeppelin] answer kept")).toBe(false);
			expect(marks.get("[zeppelin] after compaction")).toBe(false);
			expect(index.search("lockfile")[0]?.entryId).toBe(oldPrompt);
		} finally {
			index.close();
			await manager.close();
		}
	});

	it("reads snippets back from the file, and gives an empty one rather than a stale one", async () => {
		const manager = await SessionManager.create("/work/snip");
		manager.appendMessage(userMessage("Ärger mit dem Zähler: café crème résumé"));
		manager.appendMessage(assistantMessage("noted"));
		const path = manager.getSessionFile()!;
		await manager.close();
		const index = SessionIndex.open();
		try {
			await index.refresh();
			expect(index.search("zahler cafe")[0]?.snippet).toBe("Ärger mit dem [Zähler]: [café] crème résumé");
			// Rewritten behind the index's back: the entry's bytes are elsewhere now.
			writeFileSync(path, readFileSync(path, "utf8").replace("Ärger", "Aerger-und-noch-mehr"));
			expect(index.search("zahler")[0]?.snippet).toBe("");
		} finally {
			index.close();
		}
	});
});

describe("snippets and terms", () => {
	it("folds case and accents, keeps only word tokens, and makes the last one a prefix", () => {
		expect(queryTerms('Café "crème" OR NEAR(x) café')).toEqual(["cafe", "creme", "or", "near", "x"]);
		expect(toMatchExpression(queryTerms("foo-bar baz"))).toBe('"foo" AND "bar" AND "baz"*');
		expect(toMatchExpression(queryTerms('"" ---'))).toBeUndefined();
	});

	it("centres the window on the densest cluster of matches and marks the cuts", () => {
		const words = Array.from({ length: 50 }, (_, i) => `w${i}`);
		words[30] = "alpha";
		words[32] = "beta";
		words[5] = "alpha";
		const snippet = buildSnippet(words.join(" "), ["alpha", "beta"]);
		expect(snippet.startsWith("…w26 ")).toBe(true);
		expect(snippet).toContain("[alpha] w31 [beta]");
		expect(snippet.endsWith("…")).toBe(true);
		expect(buildSnippet("short [alpha] text", ["alpha"])).toBe("short [[alpha]] text");
	});
});

describe("long tool results", () => {
	useTempAgentDir();

	it("are searchable by their first 2 KB and last 1 KB", async () => {
		const middle = "filler ".repeat(2000);
		const manager = await SessionManager.create("/work/tools");
		manager.appendMessage(userMessage("run the tests"));
		manager.appendMessage(toolResultMessage(`headword starts ${middle} middleword ${middle} tailword ends`));
		manager.appendMessage(assistantMessage("done"));
		await manager.close();
		const index = SessionIndex.open();
		try {
			await index.refresh();
			expect(index.search("headword")).toHaveLength(1);
			expect(index.search("tailword")[0]?.snippet).toContain("[tailword] ends");
			expect(index.search("middleword")).toEqual([]);
		} finally {
			index.close();
		}
	});
});

describe("rewritten sessions", () => {
	useTempAgentDir();

	it("leave their old rows as orphans no search returns, counted toward a rebuild", async () => {
		const manager = await SessionManager.create("/work/rewrite");
		manager.appendMessage(userMessage("the original wording about kumquats"));
		manager.appendMessage(assistantMessage("noted"));
		const path = manager.getSessionFile()!;
		await manager.close();
		const index = SessionIndex.open();
		try {
			await index.refresh();
			expect(index.search("kumquats")).toHaveLength(1);
			writeFileSync(path, readFileSync(path, "utf8").replace("kumquats", "persimmons"));
			expect(await index.refresh()).toMatchObject({ updated: 1 });
			expect(index.search("kumquats")).toEqual([]);
			expect(index.search("persimmons")).toHaveLength(1);
			expect(index.orphanedRows()).toBe(2);
		} finally {
			index.close();
		}
	});

	it("trigger a rebuild only when they are many and over a quarter of the live rows", () => {
		expect(needsRebuild(9_999, 1)).toBe(false);
		expect(needsRebuild(10_000, 40_000)).toBe(false);
		expect(needsRebuild(10_001, 40_000)).toBe(true);
		expect(needsRebuild(50_000, 1_000_000)).toBe(false);
	});
});
