import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { migrateSessionEntries } from "../../source/session/migrations.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { CompactionEntry, FileEntry } from "../../source/session/types.js";
import { userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/upstream-v1");

function lines(path: string): Record<string, unknown>[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((l) => l.length > 0)
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

function expectLeadingKeys(path: string): void {
	const [header, ...entries] = readFileSync(path, "utf8").split("\n").filter(Boolean);
	expect(Object.keys(JSON.parse(header!)).slice(0, 3)).toEqual(["type", "version", "id"]);
	for (const line of entries) {
		expect(Object.keys(JSON.parse(line)).slice(0, 4)).toEqual(["type", "id", "parentId", "timestamp"]);
	}
}

describe("migrateSessionEntries", () => {
	it("v1 → v3: ids, a linear chain, firstKeptEntryIndex → firstKeptEntryId, hookMessage → custom", () => {
		const entries = [
			{ type: "session", id: "s", timestamp: "t", cwd: "/p" },
			{ type: "message", timestamp: "t1", message: { role: "user", content: "a", timestamp: 1 } },
			{ type: "message", timestamp: "t2", message: { role: "hookMessage", content: "h", timestamp: 2 } },
			{ type: "compaction", timestamp: "t3", summary: "s", firstKeptEntryIndex: 2, tokensBefore: 9 },
		] as unknown as FileEntry[];
		expect(migrateSessionEntries(entries)).toBe(1);
		const [header, a, hook, compaction] = entries as [
			FileEntry,
			FileEntry & { id: string; parentId: string | null },
			FileEntry & { id: string; parentId: string | null; message: { role: string } },
			CompactionEntry & Record<string, unknown>,
		];
		expect(header).toMatchObject({ version: 3 });
		expect(a.parentId).toBeNull();
		expect(hook.parentId).toBe(a.id);
		expect(compaction.parentId).toBe(hook.id);
		expect(hook.message.role).toBe("custom");
		expect(compaction.firstKeptEntryId).toBe(hook.id);
		expect(compaction).not.toHaveProperty("firstKeptEntryIndex");
		expect(Object.keys(compaction).slice(0, 4)).toEqual(["type", "id", "parentId", "timestamp"]);
		expect(migrateSessionEntries(entries)).toBeUndefined();
	});

	it("v2 → v3 rewrites only the legacy role", () => {
		const entries = [
			{ type: "session", version: 2, id: "s", timestamp: "t", cwd: "/p" },
			{ type: "message", id: "a", parentId: null, timestamp: "t", message: { role: "hookMessage", timestamp: 1 } },
		] as unknown as FileEntry[];
		expect(migrateSessionEntries(entries)).toBe(2);
		expect(entries[1]).toMatchObject({ id: "a", parentId: null, message: { role: "custom" } });
	});
});

describe("upstream v1 fixtures", () => {
	const temp = useTempAgentDir();

	function copyFixture(name: string): string {
		const target = join(temp.root, name);
		copyFileSync(join(FIXTURES, name), target);
		return target;
	}

	it("large-session.jsonl opens, migrates to v3 with a linear chain and keeps a .bak of the original", async () => {
		const path = copyFixture("large-session.jsonl");
		const original = readFileSync(path);
		const session = await SessionManager.open(path);
		await session.flush();
		expect(readFileSync(`${path}.v1.bak`).equals(original)).toBe(true);
		expect(readdirSync(temp.root).filter((n) => n.endsWith(".tmp"))).toEqual([]);

		const onDisk = lines(path);
		expect(onDisk[0]).toMatchObject({ type: "session", version: 3, id: "d703a1a9-1b7b-4fb1-b512-c9738b1fe617" });
		expect(onDisk).toHaveLength(1019);
		let previous: unknown = null;
		const ids = new Set<string>();
		for (const entry of onDisk.slice(1)) {
			expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
			expect(entry.parentId).toBe(previous);
			ids.add(entry.id as string);
			previous = entry.id;
		}
		expect(ids.size).toBe(1018);
		expectLeadingKeys(path);

		const entries = session.getEntries();
		expect(entries.filter((e) => e.type === "message")).toHaveLength(914);
		expect(entries.filter((e) => e.type === "thinking_level_change")).toHaveLength(103);
		const context = session.buildSessionContext();
		expect(context.messages).toHaveLength(914);
		expect(context.models.default).toBe("anthropic/claude-sonnet-4-5");
		expect(session.getLoadReport()).toMatchObject({ migratedFrom: 1, skippedLines: [], tornTail: false });

		const reopened = await SessionManager.open(path);
		expect(reopened.getEntries().map((e) => e.id)).toEqual(entries.map((e) => e.id));
		expect(reopened.getLoadReport().migratedFrom).toBeUndefined();
	});

	it("before-compaction.jsonl rebuilds the context with the latest compaction summary first", async () => {
		const path = copyFixture("before-compaction.jsonl");
		const rawLines = readFileSync(path, "utf8").split("\n");
		const session = await SessionManager.open(path);
		const entries = session.getEntries();
		const compactions = entries.filter((e): e is CompactionEntry => e.type === "compaction");
		expect(compactions).toHaveLength(2);

		// firstKeptEntryIndex counts file lines with the header as 0: entries[index - 1] here.
		const firstKept = [293, 551].map((index) => entries[index - 1]!);
		expect(compactions.map((c) => c.firstKeptEntryId)).toEqual(firstKept.map((e) => e.id));
		expect(firstKept.map((e) => (e as { timestamp: string }).timestamp)).toEqual(
			[293, 551].map((index) => (JSON.parse(rawLines[index]!) as { timestamp: string }).timestamp),
		);

		const context = session.buildSessionContext();
		const [first, second] = context.messages;
		expect(first).toMatchObject({ role: "compactionSummary", tokensBefore: 185014 });
		expect((first as { summary: string }).summary).toBe(compactions[1]!.summary);
		expect(second).toMatchObject({ role: "user" });
		expect((second as { timestamp: number }).timestamp).toBe(
			(JSON.parse(rawLines[551]!) as { message: { timestamp: number } }).message.timestamp,
		);
		const lastCompactionAt = entries.indexOf(compactions[1]!);
		const expected =
			1 +
			entries.slice(550, lastCompactionAt).filter((e) => e.type === "message").length +
			entries.slice(lastCompactionAt + 1).filter((e) => e.type === "message").length;
		expect(context.messages).toHaveLength(expected);
		expect(context.models.default).toBe("anthropic/claude-opus-4-5");
		expect(context.messages.some((m) => m.role === "bashExecution")).toBe(true);
		expect(readFileSync(`${path}.v1.bak`, "utf8")).toBe(
			readFileSync(join(FIXTURES, "before-compaction.jsonl"), "utf8"),
		);
	});

	it("a v1 file that fails to rewrite keeps its original bytes and still loads in memory", async () => {
		const path = copyFixture("large-session.jsonl");
		const original = readFileSync(path);
		// A directory where the backup would go makes the copy fail: the original must stay untouched.
		const backup = `${path}.v1.bak`;
		mkdirSync(backup);
		const session = await SessionManager.open(path);
		expect(session.getEntries()).toHaveLength(1018);
		expect(session.getPersistError()).toBeDefined();
		expect(() => session.appendMessage(userMessage("more"))).toThrow(session.getPersistError()!.message);
		expect(session.getEntries()).toHaveLength(1019);
		await expect(session.flush()).rejects.toThrow();
		expect(readFileSync(path).equals(original)).toBe(true);
	});
});
