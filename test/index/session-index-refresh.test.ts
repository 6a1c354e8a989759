import { appendFileSync, existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionIndex } from "../../source/index/session-index.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { appendToSession, ftsRowCount, headerBytes, storedRow, writeSession } from "./session-fixtures.js";

describe("SessionIndex.refresh", () => {
	const tmp = useTempAgentDir();
	let index: SessionIndex | undefined;
	afterEach(() => index?.close());

	const open = (): SessionIndex => {
		index?.close();
		index = SessionIndex.open();
		return index;
	};

	async function twoProjects(): Promise<{ alpha: string; beta: string }> {
		const alpha = await writeSession("/work/alpha", [
			userMessage("fix the flaky websocket test"),
			assistantMessage("The websocket reconnect races the timer."),
		]);
		const beta = await writeSession("/work/beta", [userMessage("rename the parser"), assistantMessage("Renamed.")]);
		return { alpha, beta };
	}

	it("indexes every session of every project and lists them newest first", async () => {
		const { alpha, beta } = await twoProjects();
		const idx = open();
		expect(idx.dbPath).toBe(join(tmp.agentDir, "index.db"));
		expect(await idx.refresh()).toEqual({ added: 2, updated: 0, removed: 0, unchanged: 0 });
		const all = idx.list();
		expect(all.map((s) => s.path)).toEqual([beta, alpha]);
		const [first] = idx.list("/work/alpha");
		expect(first).toMatchObject({ path: alpha, cwd: "/work/alpha", messageCount: 2 });
		expect(first?.firstMessage).toBe("fix the flaky websocket test");
		expect(first?.size).toBe(statSync(alpha).size);
		expect(first?.lastActivity).toBeInstanceOf(Date);
		expect(idx.list("/nowhere")).toEqual([]);
	});

	it("indexes a session with a line too long to decode (over 512 MB): the line is skipped, the rest found", {
		timeout: 120_000,
	}, async () => {
		const { alpha } = await twoProjects();
		// One line longer than V8's longest string, then an entry that must still be indexed.
		const line = Buffer.alloc(64 << 20, "x");
		for (let i = 0; i < 9; i++) appendFileSync(alpha, line);
		appendFileSync(alpha, "\n");
		await appendToSession(alpha, [userMessage("after the giant line comes the zebra")]);
		const idx = open();
		expect(await idx.refresh()).toEqual({ added: 2, updated: 0, removed: 0, unchanged: 0 });
		const [row] = idx.list("/work/alpha");
		expect(row?.messageCount).toBe(3);
		expect(idx.search("zebra").map((hit) => hit.sessionPath)).toEqual([alpha]);
	});

	it("reads nothing when no file changed", async () => {
		await twoProjects();
		const idx = open();
		await idx.refresh();
		const before = idx.stats.bytesRead;
		expect(await idx.refresh()).toEqual({ added: 0, updated: 0, removed: 0, unchanged: 2 });
		expect(idx.stats.bytesRead).toBe(before);
	});

	it("reads only the appended bytes of a grown session", async () => {
		const { alpha } = await twoProjects();
		const idx = open();
		await idx.refresh();
		const sizeBefore = statSync(alpha).size;
		expect(storedRow(idx.dbPath, alpha)?.indexed_bytes).toBe(sizeBefore);
		await appendToSession(alpha, [userMessage("now the zeppelin module"), toolResultMessage("zeppelin.ts: 40 lines")]);
		const sizeAfter = statSync(alpha).size;
		const bytesBefore = idx.stats.bytesRead;
		expect(await idx.refresh()).toEqual({ added: 0, updated: 1, removed: 0, unchanged: 1 });
		// The header line is compared and the byte before the old end checked; the rest is the appended tail.
		expect(idx.stats.bytesRead - bytesBefore).toBe(sizeAfter - sizeBefore + headerBytes(alpha) + 1);
		expect(storedRow(idx.dbPath, alpha)?.indexed_bytes).toBe(sizeAfter);
		expect(idx.search("zeppelin").map((h) => h.role)).toEqual(expect.arrayContaining(["user", "toolResult"]));
		expect(idx.search("websocket")).toHaveLength(2);
		expect(idx.list("/work/alpha")[0]?.messageCount).toBe(4);
	});

	it("stops at the last newline and picks up a torn line once it is complete", async () => {
		const { alpha } = await twoProjects();
		const idx = open();
		await idx.refresh();
		const line = JSON.stringify({
			type: "message",
			id: "torn0001",
			parentId: null,
			timestamp: new Date().toISOString(),
			message: userMessage("quokka habitat"),
		});
		const complete = statSync(alpha).size;
		appendFileSync(alpha, line.slice(0, 40));
		await idx.refresh();
		expect(storedRow(idx.dbPath, alpha)?.indexed_bytes).toBe(complete);
		expect(idx.search("quokka")).toEqual([]);
		appendFileSync(alpha, `${line.slice(40)}\n`);
		await idx.refresh();
		expect(storedRow(idx.dbPath, alpha)?.indexed_bytes).toBe(statSync(alpha).size);
		expect(idx.search("quokka")).toHaveLength(1);
	});

	it("re-reads a session from scratch when it shrank", async () => {
		const { alpha } = await twoProjects();
		const idx = open();
		await idx.refresh();
		const lines = readFileSync(alpha, "utf8").split("\n");
		writeFileSync(alpha, `${lines.slice(0, 2).join("\n")}\n`);
		const bytesBefore = idx.stats.bytesRead;
		expect(await idx.refresh()).toMatchObject({ updated: 1 });
		expect(idx.stats.bytesRead - bytesBefore).toBe(statSync(alpha).size);
		expect(idx.search("reconnect")).toEqual([]);
		expect(idx.search("flaky")).toHaveLength(1);
		expect(ftsRowCount(idx.dbPath, alpha)).toBe(1);
	});

	it("re-reads a session from scratch when its header changed", async () => {
		const { alpha } = await twoProjects();
		const idx = open();
		await idx.refresh();
		const oldId = idx.list("/work/alpha")[0]!.id;
		const newId = oldId.replace(/^./, (c) => (c === "f" ? "e" : "f"));
		const text = readFileSync(alpha, "utf8").replace(oldId, newId);
		writeFileSync(alpha, `${text}${JSON.stringify({ type: "custom", id: "c1", parentId: null, timestamp: "x" })}\n`);
		const bytesBefore = idx.stats.bytesRead;
		await idx.refresh();
		// The stored header line is compared first (and differs), then the whole file is read.
		expect(idx.stats.bytesRead - bytesBefore).toBe(headerBytes(alpha) + statSync(alpha).size);
		expect(idx.list("/work/alpha")[0]?.id).toBe(newId);
		expect(ftsRowCount(idx.dbPath, alpha)).toBe(2);
		expect(idx.search("websocket")[0]?.sessionId).toBe(newId);
	});

	it("re-reads a session renamed through SessionManager (an atomic rewrite)", async () => {
		const { alpha } = await twoProjects();
		const idx = open();
		await idx.refresh();
		const manager = await SessionManager.open(alpha);
		await manager.setSessionName("Websocket backoff");
		await manager.close();
		const bytesBefore = idx.stats.bytesRead;
		expect(await idx.refresh()).toMatchObject({ updated: 1 });
		expect(idx.stats.bytesRead - bytesBefore).toBe(statSync(alpha).size);
		expect(idx.list("/work/alpha")[0]?.title).toBe("Websocket backoff");
		expect(idx.search("websocket").map((h) => h.title)).toEqual(["Websocket backoff", "Websocket backoff"]);
		expect(ftsRowCount(idx.dbPath, alpha)).toBe(2);
	});

	it("drops a deleted session and a file that is no longer a session", async () => {
		const { alpha, beta } = await twoProjects();
		const idx = open();
		await idx.refresh();
		unlinkSync(alpha);
		writeFileSync(beta, "not json at all\n");
		expect(await idx.refresh()).toEqual({ added: 0, updated: 0, removed: 2, unchanged: 0 });
		expect(idx.list()).toEqual([]);
		expect(ftsRowCount(idx.dbPath, alpha)).toBe(0);
		expect(ftsRowCount(idx.dbPath, beta)).toBe(0);
		expect(idx.search("websocket")).toEqual([]);
	});

	it("rebuilds a deleted index without touching the sessions", async () => {
		const { alpha } = await twoProjects();
		const original = readFileSync(alpha, "utf8");
		open();
		await index!.refresh();
		index!.close();
		for (const suffix of ["", "-wal", "-shm"]) {
			const file = join(tmp.agentDir, `index.db${suffix}`);
			if (existsSync(file)) unlinkSync(file);
		}
		const idx = open();
		expect(await idx.refresh()).toMatchObject({ added: 2 });
		expect(idx.search("websocket")).toHaveLength(2);
		expect(readFileSync(alpha, "utf8")).toBe(original);
	});

	it("rebuilds a corrupt index", async () => {
		await twoProjects();
		open();
		await index!.refresh();
		index!.close();
		index = undefined;
		for (const suffix of ["-wal", "-shm"]) {
			const file = join(tmp.agentDir, `index.db${suffix}`);
			if (existsSync(file)) unlinkSync(file);
		}
		writeFileSync(join(tmp.agentDir, "index.db"), "this is not a sqlite database, just garbage ".repeat(200));
		const idx = open();
		expect(await idx.refresh()).toMatchObject({ added: 2 });
		expect(idx.search("parser")).toHaveLength(1);
	});

	it("works when there are no sessions at all", async () => {
		const idx = open();
		expect(await idx.refresh()).toEqual({ added: 0, updated: 0, removed: 0, unchanged: 0 });
		expect(idx.list()).toEqual([]);
	});
});
