import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { FileSessionStorage } from "../../source/session/session-storage.js";
import { decodeSkeleton } from "../../source/session/skeleton-cache.js";
import { splitAtLines } from "../../source/session/skeleton-parts.js";
import { apartStats, readSkeletonApart } from "../../source/session/skeleton-thread.js";
import { writeBigSession } from "../helpers/big-session.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

/** A storage that reads every file on the opener's thread. */
function hereStorage(): FileSessionStorage {
	const storage = new FileSessionStorage();
	Object.defineProperty(storage, "sharedFiles", { value: false });
	return storage;
}

/** What reads apart did while `run` ran. */
async function counted<T>(run: () => Promise<T>): Promise<{ value: T; started: number; parts: number; used: number }> {
	const before = { ...apartStats };
	const value = await run();
	return {
		value,
		started: apartStats.started - before.started,
		parts: apartStats.parts - before.parts,
		used: apartStats.used - before.used,
	};
}

describe("cutting a session file at line boundaries", () => {
	const readerOf = (text: string) => async (position: number, length: number) =>
		Buffer.from(text).subarray(position, position + length);

	it("cuts after the first newline past each cut point", async () => {
		const text = "aaaa\nbbbbbbbb\ncc\ndddddd\n";
		const parts = await splitAtLines(text.length, 2, readerOf(text));
		expect(parts).toEqual([{ from: 0, until: 14 }, { from: 14 }]);
		expect(text.slice(14)).toBe("cc\ndddddd\n");
	});

	it("keeps one part when no line starts after the middle", async () => {
		const text = `${"x".repeat(40)}\n`;
		expect(await splitAtLines(text.length, 2, readerOf(text))).toEqual([{ from: 0 }]);
	});
});

describe("a big session's first read on threads of its own", () => {
	const temp = useTempAgentDir();
	const opened: SessionManager[] = [];
	afterEach(async () => {
		vi.unstubAllEnvs();
		for (const session of opened.splice(0)) await session.close().catch(() => undefined);
	});
	const open = async (file: string, storage: FileSessionStorage): Promise<SessionManager> => {
		const session = await SessionManager.open(file, { lazyAboveBytes: 0, readOnly: true, storage });
		opened.push(session);
		return session;
	};

	/** Reads `file` on threads and on this thread, and says what each found and what the threads did. */
	const bothWays = async (file: string) => {
		vi.stubEnv("XCSH_READ_APART_ABOVE_BYTES", "0");
		const { value: apart, ...threads } = await counted(() => open(file, new FileSessionStorage()));
		const here = await open(file, hereStorage());
		return { apart, here, threads };
	};

	/** A session of 60 turns whose second half has a line that is not JSON and a duplicate id. */
	const writeDamaged = (): { file: string; lines: string[] } => {
		const file = join(temp.root, "big.jsonl");
		writeBigSession(file, 60, 2000, { compactBeforeLast: 3 });
		const lines = readFileSync(file, "utf8").split("\n");
		const late = Math.floor(lines.length * 0.8);
		lines.splice(late, 0, "{not json", lines[late - 1]!);
		// A timestamp kept as the file writes it (not canonical ISO text).
		lines[late + 3] = lines[late + 3]!.replace(/"timestamp":"([^".]+)\.000Z"/, '"timestamp":"$1Z"');
		writeFileSync(file, lines.join("\n"));
		return { file, lines };
	};

	it("joins its two parts into the session a read on one thread makes, skipped lines numbered in the file", async () => {
		const { file } = writeDamaged();
		const { apart, here, threads } = await bothWays(file);
		// Read in two parts on threads, and joined.
		expect(threads).toEqual({ started: 1, parts: 2, used: 1 });
		expect(apart.getEntries()).toEqual(here.getEntries());
		expect(apart.getTree()).toEqual(here.getTree());
		expect(apart.buildSessionContext()).toEqual(here.buildSessionContext());
		expect(apart.getUsageTotals()).toEqual(here.getUsageTotals());
		// The skeletons themselves (what /tree and the picker read), odd timestamp included.
		const shapes = (session: SessionManager) =>
			[...session.getSkeleton()].map(({ id, parentId, type, timestamp }) => ({ id, parentId, type, timestamp }));
		expect(shapes(apart)).toEqual(shapes(here));
		expect(shapes(apart).some((shape) => /:\d\dZ$/.test(shape.timestamp))).toBe(true);
		const skipped = apart.getLoadReport().skippedLines;
		expect(skipped).toEqual(here.getLoadReport().skippedLines);
		expect(skipped.map((line) => line.message)).toEqual([
			expect.stringMatching(/JSON/),
			expect.stringMatching(/^duplicate entry id /),
		]);
		expect(apart.getLoadReport().skeletonCache).toBe("built");
	});

	it("reads it in one thread's part when an id of the second half is in the first, with the same result", async () => {
		const file = join(temp.root, "big.jsonl");
		writeBigSession(file, 60, 2000);
		const lines = readFileSync(file, "utf8").split("\n");
		lines.splice(lines.length - 3, 0, lines[2]!);
		writeFileSync(file, lines.join("\n"));
		const { apart, here, threads } = await bothWays(file);
		expect(threads).toEqual({ started: 1, parts: 2, used: 0 });
		expect(apart.getEntries()).toEqual(here.getEntries());
		expect(apart.getLoadReport().skippedLines).toEqual(here.getLoadReport().skippedLines);
		expect(apart.getLoadReport().skippedLines).toEqual([
			{ line: lines.length - 3, message: expect.stringMatching(/^duplicate entry id /) },
		]);
	});

	it("leaves a file that is not v3 to the opener, which migrates it (a big v2 file overflowed the stack before)", async () => {
		const file = join(temp.root, "old.jsonl");
		writeBigSession(file, 20, 2000);
		const lines = readFileSync(file, "utf8").split("\n");
		lines[0] = lines[0]!.replace('"version":3', '"version":2');
		writeFileSync(file, lines.join("\n"));
		vi.stubEnv("XCSH_READ_APART_ABOVE_BYTES", "0");
		const { value: session, used } = await counted(() => open(file, new FileSessionStorage()));
		expect(used).toBe(0);
		expect(session.getEntries()).toHaveLength(80);
		expect(session.getLoadReport().migratedFrom).toBe(2);
		expect((await open(file, hereStorage())).getEntries()).toEqual(session.getEntries());
	});

	it("reads a file too big for two threads' memory on one, whose cache bytes are kept as they are", async () => {
		const file = join(temp.root, "big.jsonl");
		const written = writeBigSession(file, 60, 2000);
		// The size decides the parts: this one is read as a file of 1 GiB would be.
		const read = await readSkeletonApart(file, 1024 ** 3);
		expect(read?.resume.covered).toEqual({ bytes: written.bytes, nextLineNumber: written.entries + 2 });
		expect(read?.resume.columns.size).toBe(written.entries);
		expect(decodeSkeleton(read!.bytes!)?.columns.id(written.entries - 1)).toBe(written.lastEntryId);
	});

	it("starts no thread once the read is stopped, and rejects with the reason", async () => {
		const file = join(temp.root, "big.jsonl");
		writeBigSession(file, 60, 2000);
		const controller = new AbortController();
		const reason = new Error("stopped by the test");
		const parts = apartStats.parts;
		const reading = readSkeletonApart(file, 1 << 20, { signal: controller.signal });
		controller.abort(reason);
		await expect(reading).rejects.toBe(reason);
		// Stopped while the file was being cut: no thread was started to read a part.
		expect(apartStats.parts).toBe(parts);
	});
});
