import { appendFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { flattenTree, type TreeRow } from "../../components/tree-view/tree-rows.js";
import { fileCountsByEntry } from "../../source/checkpoints/session-rewind.js";
import { EntryTable } from "../../source/session/entry-table.js";
import { SessionLockedError } from "../../source/session/session-lock.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { getSkeletonsDir } from "../../source/session/session-paths.js";
import { type BodyFile, FileSessionStorage } from "../../source/session/session-storage.js";
import { SkeletonFiles } from "../../source/session/skeleton-files.js";
import { holdSession } from "../helpers/hold-session.js";
import { assistantMessage, imageBlock, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** A session with branches, a compaction, a label, a model change and an image, written to disk. */
type Ids = Record<"u1" | "a1" | "t1" | "u2" | "a2" | "side" | "compaction" | "u3" | "a3", string>;

async function writeSession(): Promise<{ file: string; ids: Ids }> {
	const session = await SessionManager.create("/work/project");
	const ids = {} as Ids;
	ids.u1 = session.appendMessage(userMessage("first question"));
	ids.a1 = session.appendMessage(assistantMessage("first answer ".repeat(200)));
	ids.t1 = session.appendMessage(toolResultMessage("tool output ".repeat(300), [imageBlock(3000)]));
	session.appendModelChange("openai/gpt-4o");
	ids.u2 = session.appendMessage(userMessage("second question ".repeat(100)));
	ids.a2 = session.appendMessage(assistantMessage("second answer ".repeat(200), "gpt-4o", "openai"));
	session.appendLabelChange(ids.u1, "start");
	// An abandoned branch from the first answer.
	session.branch(ids.a1);
	ids.side = session.appendMessage(userMessage("a side branch ".repeat(100)));
	session.branch(ids.a2);
	ids.compaction = session.appendCompaction("summary of it all ".repeat(100), "short", ids.u2, 5000);
	ids.u3 = session.appendMessage(userMessage("after compaction ".repeat(100)));
	ids.a3 = session.appendMessage(assistantMessage("last answer ".repeat(200)));
	const file = session.getSessionFile()!;
	await session.close();
	return { file, ids };
}

describe("a big session opened with its bodies on disk", () => {
	useTempAgentDir();
	const opened: SessionManager[] = [];
	const open = async (file: string, lazyAboveBytes: number): Promise<SessionManager> => {
		const session = await SessionManager.open(file, { lazyAboveBytes });
		opened.push(session);
		return session;
	};
	afterEach(async () => {
		for (const session of opened.splice(0)) await session.close().catch(() => undefined);
	});

	it("answers every call of the spec's API as a session held in memory does", async () => {
		const { file, ids } = await writeSession();
		const full = await open(file, Number.POSITIVE_INFINITY);
		const lazy = await open(file, 0);
		expect(full.getLoadReport().entriesOnDisk).toBeUndefined();
		expect(lazy.getLoadReport().entriesOnDisk).toBeGreaterThan(0);
		expect(lazy.getEntries()).toEqual(full.getEntries());
		expect(lazy.getTree()).toEqual(full.getTree());
		expect(lazy.getBranch()).toEqual(full.getBranch());
		expect(lazy.getBranch(ids.side)).toEqual(full.getBranch(ids.side));
		expect(lazy.getChildren(ids.a1)).toEqual(full.getChildren(ids.a1));
		expect(lazy.getEntry(ids.t1)).toEqual(full.getEntry(ids.t1));
		expect(lazy.buildSessionContext()).toEqual(full.buildSessionContext());
		expect(lazy.buildContextItems()).toEqual(full.buildContextItems());
		const { messages, models, thinkingLevel } = full.buildSessionContext();
		expect(lazy.describeContext()).toEqual({ messages: messages.length, models, thinkingLevel });
		expect(lazy.getLabel(ids.u1)).toBe("start");
		expect(lazy.getUsageTotals()).toEqual(full.getUsageTotals());
		// The image came back from the blob store.
		const image = (lazy.getEntry(ids.t1) as { message: { content: { type: string; data?: string }[] } }).message
			.content[1]!;
		expect(image.data).toBe(imageBlock(3000).data);
		// Moving the leaf to the side branch reads its context from disk.
		lazy.branch(ids.side);
		full.branch(ids.side);
		expect(lazy.buildSessionContext()).toEqual(full.buildSessionContext());
	});

	it("finds the entries of one type from the skeleton's columns, cached or just appended", async () => {
		const { file } = await writeSession();
		const writer = await open(file, Number.POSITIVE_INFINITY);
		writer.appendCustomEntry("checkpoint", { n: 1 });
		writer.appendMessage(userMessage("between"));
		writer.appendCustomEntry("other", { n: 2 });
		await writer.close();
		const ofType = (session: SessionManager, type: string) =>
			[...session.getSkeleton()].filter((shape) => shape.type === type).map((shape) => shape.id);
		// The first open builds the skeleton, the second reads it from its cache and extends it.
		for (const round of [1, 2]) {
			const lazy = await open(file, 0);
			lazy.appendCustomEntry("appended", { n: round });
			for (const type of ["custom", "message", "label", "no such type"]) {
				expect(lazy.getSkeletonOfType(type).map((shape) => shape.id)).toEqual(ofType(lazy, type));
			}
			expect(lazy.getSkeletonOfType("custom")).toHaveLength(2 + round);
			await lazy.close();
		}
	});

	it("counts the files of each turn's checkpoint without building the id index of every entry", async () => {
		const { file, ids } = await writeSession();
		const writer = await open(file, Number.POSITIVE_INFINITY);
		const commit = (n: number) => String(n).repeat(40);
		const files = [{ path: "a.ts", status: "modified", added: 1, removed: 0 }];
		writer.appendCustomEntry("checkpoint", {
			v: 1,
			kind: "turn",
			commit: commit(1),
			before: commit(2),
			entryId: ids.a3,
			files,
		});
		await writer.close();
		const lazy = await open(file, 0);
		const lookups = vi.spyOn(EntryTable.prototype, "position");
		try {
			expect(fileCountsByEntry(lazy)).toEqual(new Map([[ids.a3, 1]]));
			expect(lookups).not.toHaveBeenCalled();
		} finally {
			lookups.mockRestore();
		}
	});

	it("appends, and the append is there when the file is opened again", async () => {
		const { file } = await writeSession();
		const lazy = await open(file, 0);
		const id = lazy.appendMessage(userMessage("appended to a big session"));
		await lazy.close();
		const again = await open(file, 0);
		expect(again.getEntry(id)).toMatchObject({ message: { content: [{ text: "appended to a big session" }] } });
		expect(again.getEntries()).toEqual((await open(file, Number.POSITIVE_INFINITY)).getEntries());
	});

	it("a rename rewrites the file, copying the bodies left on disk byte for byte, and still reads them", async () => {
		const { file, ids } = await writeSession();
		const before = readFileSync(file, "utf8").split("\n").slice(1);
		const lazy = await open(file, 0);
		await lazy.setSessionName("renamed big session");
		expect(readFileSync(file, "utf8").split("\n").slice(1)).toEqual(before);
		expect(lazy.getEntry(ids.side)).toMatchObject({ id: ids.side });
		expect(lazy.getEntries()).toEqual((await open(file, Number.POSITIVE_INFINITY)).getEntries());
	});

	it("a fork reads its bodies from the new file (the old one may be gone)", async () => {
		const { file, ids } = await writeSession();
		const reference = (await open(file, Number.POSITIVE_INFINITY)).getEntries();
		const lazy = await open(file, 0);
		const fork = await lazy.fork();
		expect(fork?.previousSessionFile).toBe(file);
		rmSync(file);
		expect(lazy.getEntry(ids.side)).toEqual(reference.find((e) => e.id === ids.side));
		expect(lazy.getEntries()).toEqual(reference);
	});

	it("forkFrom copies a big session into a new file", async () => {
		const { file } = await writeSession();
		const reference = (await open(file, Number.POSITIVE_INFINITY)).getEntries();
		const copy = await SessionManager.forkFrom(file, "/work/other", { lazyAboveBytes: 0 });
		opened.push(copy);
		expect(copy.getEntries()).toEqual(reference);
		expect(copy.getHeader().parentSession).toBe(file);
		const reopened = await open(copy.getSessionFile()!, Number.POSITIVE_INFINITY);
		expect(reopened.getEntries()).toEqual(reference);
	});

	it("reads bodies after another writer appended to the file", async () => {
		const { file, ids } = await writeSession();
		const lazy = await open(file, 0);
		appendFileSync(
			file,
			`${JSON.stringify({ type: "custom", id: "zzzz0001", parentId: ids.a3, timestamp: new Date().toISOString(), customType: "x" })}\n`,
		);
		expect(lazy.getEntry(ids.side)).toMatchObject({ id: ids.side, type: "message" });
	});

	it("says the file changed when its bytes moved behind xcsh, instead of showing another entry", async () => {
		const { file, ids } = await writeSession();
		const lazy = await open(file, 0);
		const text = readFileSync(file, "utf8");
		// Same inode, content shifted by one byte: every offset now points into the wrong line.
		writeFileSync(file, ` ${text}`);
		expect(() => lazy.getEntry(ids.side)).toThrow(
			/^The session file changed on disk \(entry \w+ is not where it was\): reopen /,
		);
	});

	it("keeps a torn last line out, and terminates it before the next append", async () => {
		const { file } = await writeSession();
		appendFileSync(file, '{"type":"message","id":"torn');
		const lazy = await open(file, 0);
		expect(lazy.getLoadReport().tornTail).toBe(true);
		const id = lazy.appendMessage(userMessage("after a torn tail"));
		await lazy.close();
		const again = await open(file, 0);
		expect(again.getEntry(id)).toBeDefined();
		expect(again.getLoadReport().skippedLines).toHaveLength(1);
	});
});

describe("the skeleton cache of a big session", () => {
	useTempAgentDir();
	const opened: SessionManager[] = [];
	const open = async (file: string): Promise<SessionManager> => {
		const session = await SessionManager.open(file, { lazyAboveBytes: 0 });
		opened.push(session);
		return session;
	};
	afterEach(async () => {
		for (const session of opened.splice(0)) await session.close().catch(() => undefined);
	});
	const cacheOf = (file: string): string => new SkeletonFiles(getSkeletonsDir()).pathFor(file);
	/** Opens, and waits until the skeleton it read is cached. */
	const openAndCache = async (file: string): Promise<SessionManager> => {
		const before = existsSync(cacheOf(file)) ? statSync(cacheOf(file)).mtimeMs : undefined;
		const session = await open(file);
		await vi.waitFor(() => expect(existsSync(cacheOf(file)) && statSync(cacheOf(file)).mtimeMs !== before).toBe(true));
		return session;
	};
	const reference = async (file: string) =>
		(await SessionManager.open(file, { lazyAboveBytes: Number.POSITIVE_INFINITY })).getEntries();

	it("is built on the first open, reused on the next, and gives the same session", async () => {
		const { file } = await writeSession();
		expect((await openAndCache(file)).getLoadReport().skeletonCache).toBe("built");
		const warm = await open(file);
		expect(warm.getLoadReport().skeletonCache).toBe("reused");
		expect(warm.getEntries()).toEqual(await reference(file));
		expect(warm.buildSessionContext()).toEqual((await open(file)).buildSessionContext());
		expect(warm.getLabel(warm.getEntries()[0]!.id)).toBe("start");
	});

	it("is extended by what another writer appended, and by a torn line completed since", async () => {
		const { file, ids } = await writeSession();
		appendFileSync(file, '{"type":"custom","id":"aaaa0001","parentId":"');
		await openAndCache(file);
		appendFileSync(file, `${ids.a3}","timestamp":"2026-12-01T00:00:00.000Z","customType":"late"}\n`);
		const warm = await open(file);
		expect(warm.getLoadReport().skeletonCache).toBe("extended");
		expect(warm.getLoadReport().tornTail).toBe(false);
		expect(warm.getEntry("aaaa0001")).toMatchObject({ customType: "late" });
		expect(warm.getEntries()).toEqual(await reference(file));
	});

	it("is written again when xcsh rewrites the file (a rename), so the next open reads nothing again", async () => {
		const { file } = await writeSession();
		const session = await openAndCache(file);
		const cached = statSync(cacheOf(file)).mtimeMs;
		await session.setSessionName("renamed");
		await vi.waitFor(() => expect(statSync(cacheOf(file)).mtimeMs).not.toBe(cached));
		const warm = await open(file);
		expect(warm.getLoadReport().skeletonCache).toBe("reused");
		expect(warm.getSessionName()).toBe("renamed");
		expect(warm.getEntries()).toEqual(await reference(file));
	});

	it("is rebuilt when the file was rewritten, truncated or changed in place, or the cache deleted", async () => {
		const { file } = await writeSession();
		const text = readFileSync(file, "utf8");
		await openAndCache(file);
		// A rewrite through a new file (new inode).
		writeFileSync(`${file}.new`, text);
		renameSync(`${file}.new`, file);
		expect((await openAndCache(file)).getLoadReport().skeletonCache).toBe("built");
		// Truncated in place.
		const lines = text.split("\n");
		writeFileSync(file, `${lines.slice(0, -3).join("\n")}\n`);
		expect((await openAndCache(file)).getLoadReport().skeletonCache).toBe("built");
		// Same size, other bytes at the end.
		const now = readFileSync(file, "utf8");
		const at = now.lastIndexOf("second answer");
		writeFileSync(file, `${now.slice(0, at)}SECOND ANSWER${now.slice(at + "second answer".length)}`);
		expect(statSync(file).size).toBe(Buffer.byteLength(now));
		expect((await openAndCache(file)).getLoadReport().skeletonCache).toBe("built");
		// Deleted: nothing is lost.
		rmSync(cacheOf(file));
		const rebuilt = await open(file);
		expect(rebuilt.getLoadReport().skeletonCache).toBe("built");
		expect(rebuilt.getEntries()).toEqual(await reference(file));
	});
});

describe("/tree over a big session", () => {
	useTempAgentDir();

	/** A file storage that counts the body reads of sessions opened with it. */
	class CountingStorage extends FileSessionStorage {
		reads = 0;
		override openBodyFile(path: string): BodyFile {
			const file = super.openBodyFile(path);
			return {
				readSync: (position, length) => {
					this.reads++;
					return file.readSync(position, length);
				},
				close: () => file.close(),
			};
		}
	}

	it("lays out the tree from the skeleton and reads a body only for a row drawn or searched", async () => {
		const { file, ids } = await writeSession();
		const full = await SessionManager.open(file, { lazyAboveBytes: Number.POSITIVE_INFINITY });
		const storage = new CountingStorage();
		const lazy = await SessionManager.open(file, { lazyAboveBytes: 0, storage });
		try {
			const shape = (rows: TreeRow[]) => rows.map((row) => [row.id, row.kind, row.prefix, row.onActivePath]);
			const before = storage.reads;
			const rows = flattenTree(lazy.getSummaryTree(), { leafId: lazy.getLeafId(), filter: "all" });
			const reference = flattenTree(full.getSummaryTree(), { leafId: full.getLeafId(), filter: "all" });
			expect(shape(rows)).toEqual(shape(reference));
			expect(storage.reads).toBe(before);
			const side = rows.find((row) => row.id === ids.side)!;
			expect(side.text).toBe(reference.find((row) => row.id === ids.side)!.text);
			expect(storage.reads).toBe(before + 1);
			const hits = flattenTree(lazy.getSummaryTree(), { leafId: lazy.getLeafId(), search: "side branch" });
			expect(hits.map((row) => row.id)).toEqual([ids.side]);
			expect(storage.reads).toBeGreaterThan(before + 1);
		} finally {
			await full.close();
			await lazy.close();
		}
	});
});

describe("the tree `/tree` draws", () => {
	useTempAgentDir();

	it("is built once per edition of the session, not on every frame that asks for it", async () => {
		const { file, ids } = await writeSession();
		const lazy = await SessionManager.open(file, { lazyAboveBytes: 0 });
		try {
			const tree = lazy.getSummaryTree();
			expect(lazy.getSummaryTree()).toBe(tree);
			// Moving the leaf changes no node: the same tree.
			lazy.branch(ids.side);
			expect(lazy.getSummaryTree()).toBe(tree);
			lazy.appendLabelChange(ids.side, "kept");
			const labelled = lazy.getSummaryTree();
			expect(labelled).not.toBe(tree);
			const rows = flattenTree(labelled, { leafId: lazy.getLeafId(), filter: "all" });
			expect(rows.find((row) => row.id === ids.side)?.label).toBe("kept");
		} finally {
			await lazy.close();
		}
	});
});

describe("opening a big session another xcsh has open", () => {
	const temp = useTempAgentDir();

	it("says so before reading it", async () => {
		const { file } = await writeSession();
		const holder = await holdSession(file, temp.agentDir);
		try {
			let read = 0;
			const opening = SessionManager.open(file, {
				lazyAboveBytes: 0,
				progress: { onProgress: (bytes) => (read = bytes) },
			});
			await expect(opening).rejects.toBeInstanceOf(SessionLockedError);
			expect(read).toBe(0);
		} finally {
			holder.kill();
		}
	});
});
