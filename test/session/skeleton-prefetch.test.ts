import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { getSkeletonsDir } from "../../source/session/session-paths.js";
import { FileSessionStorage } from "../../source/session/session-storage.js";
import { SkeletonFiles } from "../../source/session/skeleton-files.js";
import { prefetchFirstRead, takePrefetched } from "../../source/session/skeleton-prefetch.js";
import { apartStats } from "../../source/session/skeleton-thread.js";
import { writeBigSession } from "../helpers/big-session.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("reading a big session named on --resume while the CLI loads", () => {
	const temp = useTempAgentDir();
	const opened: SessionManager[] = [];
	beforeEach(() => {
		vi.stubEnv("XCSH_LAZY_ABOVE_BYTES", "0");
		vi.stubEnv("XCSH_READ_APART_ABOVE_BYTES", "0");
	});
	afterEach(async () => {
		// Whatever a test left started is stopped.
		takePrefetched("/nowhere", { size: 0, mtimeMs: 0, birthtimeMs: 0, isFile: false, isDirectory: false }, {});
		vi.unstubAllEnvs();
		for (const session of opened.splice(0)) await session.close().catch(() => undefined);
	});
	const bigFile = (name: string): string => {
		const file = join(temp.root, name);
		writeBigSession(file, 40, 2000);
		return file;
	};
	/** Opens `file`, counting the reads apart the opener starts itself (a prefetched read is not one). */
	const open = async (file: string) => {
		const before = apartStats.started;
		const session = await SessionManager.open(file, { readOnly: true });
		opened.push(session);
		return { session, started: apartStats.started - before };
	};
	const openHere = async (file: string) => {
		const storage = new FileSessionStorage();
		Object.defineProperty(storage, "sharedFiles", { value: false });
		const session = await SessionManager.open(file, { readOnly: true, storage });
		opened.push(session);
		return session;
	};

	it("hands the opener the read it started, which gives the same session", async () => {
		const file = bigFile("big.jsonl");
		prefetchFirstRead(["--resume", relative(process.cwd(), file)], process.cwd());
		const { session, started } = await open(file);
		expect(started).toBe(0);
		expect(session.getLoadReport().skeletonCache).toBe("built");
		expect(session.getEntries()).toEqual((await openHere(file)).getEntries());
	});

	/** What the opener would be handed for `file` now. */
	const handed = (file: string) => {
		const stat = statSync(file);
		return takePrefetched(file, { ...stat, isFile: true, isDirectory: false }, {});
	};

	it("reads the forms -r <path> and --resume=<path> too", async () => {
		const first = bigFile("first.jsonl");
		prefetchFirstRead(["-r", first], "/");
		expect(await handed(first)).toMatchObject({ resume: expect.anything() });
		const second = bigFile("second.jsonl");
		prefetchFirstRead(["--print", `--resume=${second}`], "/");
		expect(await handed(second)).toMatchObject({ resume: expect.anything() });
	});

	it("starts nothing for a session id, a small file, or a file with a skeleton cache", async () => {
		const file = bigFile("big.jsonl");
		prefetchFirstRead(["--resume", "big.jsonl0195"], temp.root);
		expect(handed(file)).toBeUndefined();
		vi.stubEnv("XCSH_LAZY_ABOVE_BYTES", String(1 << 30));
		prefetchFirstRead(["--resume", file], "/");
		expect(handed(file)).toBeUndefined();
		vi.stubEnv("XCSH_LAZY_ABOVE_BYTES", "0");
		mkdirSync(getSkeletonsDir(), { recursive: true });
		writeFileSync(new SkeletonFiles(getSkeletonsDir()).pathFor(file), "not a cache");
		prefetchFirstRead(["--resume", file], "/");
		expect(handed(file)).toBeUndefined();
		// The opener reads it itself (the damaged cache is no use).
		expect((await open(file)).started).toBe(1);
	});

	it("is stopped when the opener opens another file, which it reads itself", async () => {
		const first = bigFile("first.jsonl");
		const second = bigFile("second.jsonl");
		prefetchFirstRead(["--resume", first], "/");
		const { session, started } = await open(second);
		expect(started).toBe(1);
		expect(session.getEntries()).toEqual((await openHere(second)).getEntries());
	});
});
