import { type ChildProcessByStdio, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { type LogSink, setLogSink } from "../../source/logger.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { FileEntry, SessionEntry } from "../../source/session/types.js";
import { CRASH_BATCH, crashEntryContent } from "../helpers/append-child.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("session persistence faults", () => {
	const tmp = useTempAgentDir();
	const CWD = "/work/project";

	/** The file's lines, without the empty string after a final newline. */
	function fileLines(file: string): string[] {
		const text = readFileSync(file, "utf8");
		const lines = text.split("\n");
		if (lines[lines.length - 1] === "") lines.pop();
		return lines;
	}

	function parsedLines(file: string): FileEntry[] {
		return fileLines(file).map((line) => JSON.parse(line) as FileEntry);
	}

	function sessionDir(name = "sessions"): string {
		return join(tmp.root, name);
	}

	function requireFile(session: SessionManager): string {
		const file = session.getSessionFile();
		if (file === undefined) throw new Error("session has no file");
		return file;
	}

	/** A session with a user message, an assistant reply and a tool result, flushed to disk. */
	async function persistedSession(dir = sessionDir()): Promise<{ session: SessionManager; file: string }> {
		const session = await SessionManager.create(CWD, { sessionDir: dir });
		session.appendMessage(userMessage("hello"));
		session.appendMessage(assistantMessage("hi there"));
		session.appendMessage(toolResultMessage("file contents"));
		session.appendModelChange("anthropic/claude-sonnet-4-5");
		await session.flush();
		return { session, file: requireFile(session) };
	}

	function ids(entries: readonly { id: string }[]): string[] {
		return entries.map((entry) => entry.id);
	}

	let restoreSink: LogSink | undefined;

	/** Captures log lines until the end of the test. */
	function captureLogs(): { level: string; message: string }[] {
		const logs: { level: string; message: string }[] = [];
		const previous = setLogSink((level, message) => logs.push({ level, message }));
		restoreSink ??= previous;
		return logs;
	}

	afterEach(() => {
		if (restoreSink) setLogSink(restoreSink);
		restoreSink = undefined;
	});

	describe("deferred persistence", () => {
		it("writes nothing before the first assistant message, then the whole session, then appends", async () => {
			const dir = sessionDir();
			const session = await SessionManager.create(CWD, { sessionDir: dir });
			const file = requireFile(session);
			expect(dirname(file)).toBe(dir);

			session.appendMessage(userMessage("first"));
			session.appendThinkingLevelChange("high");
			session.appendMessage(userMessage("second"));
			await session.flush();
			expect(existsSync(file)).toBe(false);
			expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);

			session.appendMessage(assistantMessage("answer"));
			await session.flush();
			const lines = parsedLines(file);
			expect(lines[0]).toEqual(session.getHeader());
			expect(lines.slice(1)).toEqual(session.getEntries());
			expect(ids(lines.slice(1) as SessionEntry[])).toEqual(ids(session.getEntries()));
			expect(lines).toHaveLength(5);

			const before = readFileSync(file);
			const inode = statSync(file).ino;
			session.appendMessage(toolResultMessage("tool output"));
			session.appendMessage(userMessage("third"));
			await session.flush();
			const after = readFileSync(file);
			expect(after.length).toBeGreaterThan(before.length);
			expect(after.subarray(0, before.length).equals(before)).toBe(true);
			expect(statSync(file).ino).toBe(inode);
			const all = parsedLines(file);
			expect(all).toHaveLength(7);
			expect(all.slice(1)).toEqual(session.getEntries());

			session.appendCustomEntry("ext", { n: 1 });
			await session.flush();
			const third = readFileSync(file);
			expect(third.subarray(0, after.length).equals(after)).toBe(true);
			expect(parsedLines(file).slice(1)).toEqual(session.getEntries());
			await session.close();
		});

		it("flush() leaves every appended entry in the file on disk", async () => {
			const { session, file } = await persistedSession();
			for (let i = 0; i < 300; i++) session.appendCustomEntry("burst", { i });
			await session.flush();
			const onDisk = parsedLines(file);
			expect(onDisk[0]).toMatchObject({ type: "session", id: session.getSessionId() });
			expect(ids(onDisk.slice(1) as SessionEntry[])).toEqual(ids(session.getEntries()));
			await session.close();
		});
	});

	describe("torn and unterminated tails", () => {
		it("opens a file whose last line is cut, reports it, and appends on a fresh line", async () => {
			const { session, file } = await persistedSession();
			const entries = session.getEntries();
			await session.close();

			const text = readFileSync(file, "utf8");
			const lines = text.split("\n").slice(0, -1);
			const last = lines[lines.length - 1]!;
			const fragment = last.slice(0, Math.floor(last.length / 2));
			const torn = `${lines.slice(0, -1).join("\n")}\n${fragment}`;
			writeFileSync(file, torn);
			const tornLineNumber = lines.length;

			const reopened = await SessionManager.open(file);
			const survivors = entries.slice(0, -1);
			expect(ids(reopened.getEntries())).toEqual(ids(survivors));
			expect(reopened.getLoadReport().tornTail).toBe(true);
			expect(reopened.getLoadReport().skippedLines.map((s) => s.line)).toEqual([tornLineNumber]);

			const newId = reopened.appendMessage(userMessage("after the tear"));
			await reopened.flush();
			const bytes = readFileSync(file, "utf8");
			expect(bytes.startsWith(torn)).toBe(true);
			const newLines = bytes.split("\n");
			expect(newLines[newLines.length - 1]).toBe("");
			expect(newLines[tornLineNumber - 1]).toBe(fragment);
			const added = JSON.parse(newLines[tornLineNumber]!) as SessionEntry;
			expect(added.id).toBe(newId);
			expect(added).toEqual(reopened.getEntry(newId));
			expect(newLines).toHaveLength(tornLineNumber + 2);
			await reopened.close();

			const again = await SessionManager.open(file);
			expect(ids(again.getEntries())).toEqual([...ids(survivors), newId]);
			expect(again.getLoadReport().skippedLines.map((s) => s.line)).toEqual([tornLineNumber]);
			expect(again.getLoadReport().tornTail).toBe(false);
			await again.close();
		});

		it("does not glue an append onto a valid last line that has no trailing newline", async () => {
			const { session, file } = await persistedSession();
			const entries = session.getEntries();
			await session.close();
			const text = readFileSync(file, "utf8");
			writeFileSync(file, text.slice(0, -1));

			const reopened = await SessionManager.open(file);
			expect(ids(reopened.getEntries())).toEqual(ids(entries));
			expect(reopened.getLoadReport().skippedLines).toEqual([]);
			const newId = reopened.appendCustomEntry("after", { ok: true });
			await reopened.flush();
			expect(readFileSync(file, "utf8")).toMatch(/\}\n\{[^\n]*\}\n$/);
			const lines = fileLines(file);
			expect(lines).toHaveLength(entries.length + 2);
			const parsed = lines.map((line) => JSON.parse(line) as FileEntry);
			expect(ids(parsed.slice(1) as SessionEntry[])).toEqual([...ids(entries), newId]);
			await reopened.close();

			const again = await SessionManager.open(file);
			expect(ids(again.getEntries())).toEqual([...ids(entries), newId]);
			expect(again.getLoadReport().skippedLines).toEqual([]);
			await again.close();
		});
	});

	const entryLine = JSON.stringify({
		type: "message",
		id: "a1b2c3d4",
		parentId: null,
		timestamp: "2026-02-16T10:21:00.000Z",
		message: { role: "user", content: "hi", timestamp: 1 },
	});

	const foreignFiles: [string, string | Buffer][] = [
		["headerless (entries only)", `${entryLine}\n`],
		["plain text", "hello world\nthis is not a session\n"],
		["binary garbage", Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0a, 0x7b, 0x00])],
		["half a JSON object", '{"type":"session","id":'],
		["JSON array", "[1,2,3]\n"],
		["JSON number", "42\n"],
		["JSON null", "null\n"],
		["JSON string", '"session"\n'],
		["session header without id", '{"type":"session","version":3,"timestamp":"2026-02-16T10:20:30.000Z"}\n'],
		["session header with numeric id", '{"type":"session","id":5}\n'],
		["object of another type", '{"type":"sessions","id":"1f9d2a6b9c0d1234"}\n'],
		["garbage before a header", `garbage\n{"type":"session","version":3,"id":"1f9d2a6b9c0d1234","cwd":"/"}\n`],
	];

	describe("files that are not sessions", () => {
		it.each(foreignFiles)("open() rejects a %s file and leaves it untouched", async (_name, content) => {
			const dir = sessionDir("foreign");
			mkdirSync(dir, { recursive: true });
			const file = join(dir, "foreign.jsonl");
			writeFileSync(file, content);
			const before = readFileSync(file);
			const listing = readdirSync(dir);

			await expect(SessionManager.open(file)).rejects.toThrow(new Error(`Not a session file: ${file}`));
			const error = await SessionManager.open(file).catch((e: unknown) => e);
			expect((error as Error).message).toBe(`Not a session file: ${file}`);
			// a relative path is reported as the absolute one
			const viaRelative = await SessionManager.open(relative(process.cwd(), file)).catch((e: unknown) => e);
			expect((viaRelative as Error).message).toBe(`Not a session file: ${file}`);

			expect(readFileSync(file).equals(before)).toBe(true);
			expect(readdirSync(dir)).toEqual(listing);
		});

		it.each(foreignFiles)(
			"setSessionFile() rejects a %s file and keeps the current session",
			async (_name, content) => {
				const { session, file } = await persistedSession();
				const foreign = join(tmp.root, "foreign.jsonl");
				writeFileSync(foreign, content);
				const before = readFileSync(foreign);
				const id = session.getSessionId();
				const header = session.getHeader();
				const entries = session.getEntries();
				const leaf = session.getLeafId();

				const error = await session.setSessionFile(foreign).catch((e: unknown) => e);
				expect(error).toBeInstanceOf(Error);
				expect((error as Error).message).toBe(`Not a session file: ${foreign}`);
				expect(readFileSync(foreign).equals(before)).toBe(true);

				expect(session.getSessionId()).toBe(id);
				expect(session.getHeader()).toEqual(header);
				expect(session.getEntries()).toEqual(entries);
				expect(session.getLeafId()).toBe(leaf);
				expect(session.getSessionFile()).toBe(file);

				// and it still persists to its own file
				const next = session.appendMessage(userMessage("still here"));
				await session.flush();
				expect(ids(parsedLines(file).slice(1) as SessionEntry[])).toEqual([...ids(entries), next]);
				await session.close();
			},
		);
	});

	describe("empty and missing files", () => {
		it.each([
			["missing", false],
			["empty", true],
		])("a %s file starts a new session at that exact path", async (_name, create) => {
			const file = join(tmp.root, "nested", "dir", "chosen.jsonl");
			if (create) {
				mkdirSync(dirname(file), { recursive: true });
				writeFileSync(file, "");
			}
			const session = await SessionManager.open(file);
			expect(session.getSessionFile()).toBe(file);
			expect(session.getEntries()).toEqual([]);
			expect(session.getLeafId()).toBeNull();
			expect(session.getLoadReport()).toEqual({ skippedLines: [], tornTail: false, unresolvedBlobs: [] });

			session.appendMessage(userMessage("q"));
			await session.flush();
			expect(existsSync(file) ? readFileSync(file, "utf8") : undefined).toBe(create ? "" : undefined);

			session.appendMessage(assistantMessage("a"));
			await session.flush();
			const lines = parsedLines(file);
			expect(lines[0]).toMatchObject({ type: "session", id: session.getSessionId() });
			expect(lines.slice(1)).toEqual(session.getEntries());
			await session.close();
		});
	});

	describe("unparseable lines in the middle", () => {
		it("are skipped and reported with 1-based line numbers; the rest loads", async () => {
			const { session, file } = await persistedSession();
			const entries = session.getEntries();
			await session.close();
			const [header, e1, e2, e3, e4] = fileLines(file);
			const lines = [
				header, // 1
				e1, // 2
				"{not json", // 3
				e2, // 4
				"", // 5 (blank: ignored, but still counted)
				"[1,2]", // 6
				e3, // 7
				'{"type":"custom","parentId":null}', // 8: no id
				'{"id":"zz"}', // 9: no type
				e1, // 10: duplicate id
				"   ", // 11 (blank)
				e4, // 12
			];
			writeFileSync(file, `${lines.join("\n")}\n`);

			const reopened = await SessionManager.open(file);
			const report = reopened.getLoadReport();
			expect(report.skippedLines.map((s) => s.line)).toEqual([3, 6, 8, 9, 10]);
			for (const skipped of report.skippedLines) expect(skipped.message.length).toBeGreaterThan(0);
			expect(report.tornTail).toBe(false);
			expect(reopened.getEntries()).toEqual(entries);
			expect(reopened.buildSessionContext().messages).toHaveLength(3);
			await reopened.close();
		});
	});

	describe("write failures", () => {
		it("surfaces, latches and logs once when the session directory is a regular file", async () => {
			const logs = captureLogs();
			const dir = join(tmp.root, "not-a-dir");
			writeFileSync(dir, "i am a file");
			const session = await SessionManager.create(CWD, { sessionDir: dir });
			const file = requireFile(session);

			session.appendMessage(userMessage("question"));
			session.appendMessage(assistantMessage("answer"));
			const error = await session.flush().catch((e: unknown) => e);
			expect(error).toBeInstanceOf(Error);
			expect(["EEXIST", "ENOTDIR"]).toContain((error as NodeJS.ErrnoException).code);
			expect(session.getPersistError()).toBe(error);

			let thrown: unknown;
			try {
				session.appendMessage(userMessage("after the failure"));
			} catch (e) {
				thrown = e;
			}
			expect(thrown).toBe(error);
			// that append also started a retry in the background; let it finish (the disk is still broken)
			expect(await session.retryPersistence()).toBe(false);
			expect(session.getEntries()).toHaveLength(3);
			expect(session.getEntries()[2]).toMatchObject({ type: "message", message: { role: "user" } });
			const messages = session.buildSessionContext().messages;
			expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);

			// the retry failed the same way: a new error object with the same message and file
			const again = await session.flush().catch((e: unknown) => e);
			expect(again).toMatchObject({ message: (error as Error).message, file });
			expect(() => session.appendCustomEntry("x", 1)).toThrow((error as Error).message);
			expect(session.getEntries()).toHaveLength(4);

			expect(logs).toHaveLength(1);
			expect(logs[0]!.level).toBe("error");
			expect(logs[0]!.message).toContain(file);
			expect(readFileSync(dir, "utf8")).toBe("i am a file");
		});

		it("surfaces EISDIR when the session file path is a directory, and leaves no temp file", async () => {
			const logs = captureLogs();
			const dir = sessionDir();
			const session = await SessionManager.create(CWD, { sessionDir: dir });
			const file = requireFile(session);
			mkdirSync(file, { recursive: true });

			session.appendMessage(userMessage("question"));
			session.appendMessage(assistantMessage("answer"));
			const error = await session.flush().catch((e: unknown) => e);
			expect((error as NodeJS.ErrnoException).code).toBe("EISDIR");
			expect(() => session.appendMessage(userMessage("more"))).toThrow(error as Error);
			let thrown: unknown;
			try {
				session.appendMessage(userMessage("even more"));
			} catch (e) {
				thrown = e;
			}
			expect(thrown).toBe(error);
			// that append also started a retry in the background; let it finish (the disk is still broken)
			expect(await session.retryPersistence()).toBe(false);

			expect(ids(session.getEntries())).toHaveLength(4);
			expect(session.buildSessionContext().messages).toHaveLength(4);
			expect(logs).toHaveLength(1);
			expect(logs[0]!.message).toContain(file);
			expect(readdirSync(dir).filter((name) => !name.endsWith(".lock"))).toEqual([file.slice(dir.length + 1)]);
			expect(statSync(file).isDirectory()).toBe(true);
		});

		it("surfaces a failing incremental append (the directory was replaced by a file)", async () => {
			const logs = captureLogs();
			const dir = sessionDir();
			const session = await SessionManager.create(CWD, { sessionDir: dir });
			const file = requireFile(session);
			session.appendMessage(userMessage("question"));
			session.appendMessage(assistantMessage("answer"));
			await session.flush();
			expect(parsedLines(file)).toHaveLength(3);

			rmSync(dir, { recursive: true, force: true });
			writeFileSync(dir, "now a file");
			session.appendMessage(toolResultMessage("lost on disk, kept in memory"));
			const error = await session.flush().catch((e: unknown) => e);
			expect((error as NodeJS.ErrnoException).code).toBe("ENOTDIR");
			let thrown: unknown;
			try {
				session.appendMessage(userMessage("next"));
			} catch (e) {
				thrown = e;
			}
			expect(thrown).toBe(error);
			// that append also started a retry in the background; let it finish (the disk is still broken)
			expect(await session.retryPersistence()).toBe(false);
			expect(session.getEntries().map((e) => (e as SessionEntry & { type: "message" }).message.role)).toEqual([
				"user",
				"assistant",
				"toolResult",
				"user",
			]);
			expect(session.buildSessionContext().messages).toHaveLength(4);
			expect(logs).toHaveLength(1);
			expect(logs[0]!.message).toContain(file);
			// close() tries once more to save everything; the disk is still broken, so it fails the same way
			await expect(session.close()).rejects.toMatchObject({
				file,
				message: expect.stringContaining(`Could not save ${file}`),
			});
			expect(logs).toHaveLength(1);
		});
	});

	type Child = ChildProcessByStdio<null, Readable, Readable>;

	/** Runs the append child until it reports ≥ minFlushed flushed entries, then SIGKILLs it. */
	async function runAndKill(file: string, minFlushed: number): Promise<{ flushed: number; ids: string[] }> {
		const child: Child = spawn(process.execPath, ["--import", "tsx", "test/helpers/append-child.ts", file], {
			cwd: "/work/main",
			env: process.env,
			stdio: ["ignore", "pipe", "pipe"],
		});
		const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
		let stderr = "";
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (chunk: string) => {
			stderr += chunk;
		});
		const reported: string[] = [];
		let flushed = 0;
		const lines = createInterface({ input: child.stdout });
		for await (const line of lines) {
			if (line.startsWith("ids ")) {
				reported.push(...line.slice(4).split(","));
			} else if (line.startsWith("flushed ")) {
				flushed = Number(line.slice(8));
				expect(reported).toHaveLength(flushed);
				if (flushed >= minFlushed) {
					child.kill("SIGKILL");
					break;
				}
			}
		}
		lines.close();
		const [code, signal] = await exited;
		if (flushed < minFlushed) throw new Error(`child exited early (code ${code}, signal ${signal}): ${stderr}`);
		expect(signal).toBe("SIGKILL");
		return { flushed, ids: reported };
	}

	describe("crash", () => {
		it("a SIGKILLed writer leaves a file that opens and holds every flushed entry", async () => {
			for (let run = 0; run < 3; run++) {
				const file = join(tmp.root, `crash-${run}`, "session.jsonl");
				const { flushed, ids: expectedIds } = await runAndKill(file, 500);
				expect(flushed % CRASH_BATCH).toBe(0);

				const text = readFileSync(file, "utf8");
				const raw = text.split("\n");
				const tail = raw.pop();
				for (const line of raw) expect(() => JSON.parse(line)).not.toThrow();
				const tornTail = tail !== undefined && tail !== "";

				const session = await SessionManager.open(file);
				const report = session.getLoadReport();
				expect(report.skippedLines.map((s) => s.line)).toEqual(tornTail && !isJson(tail) ? [raw.length + 1] : []);
				const entries = session.getEntries();
				expect(entries.length).toBeGreaterThanOrEqual(flushed);
				for (let i = 0; i < flushed; i++) {
					const entry = entries[i]!;
					expect(entry.id).toBe(expectedIds[i]);
					expect(entry.parentId).toBe(i === 0 ? null : expectedIds[i - 1]);
					const content = crashEntryContent(i);
					if (content.kind === "message") {
						expect(entry).toMatchObject({ type: "message", message: content.message });
					} else {
						expect(entry).toMatchObject({ type: "custom", customType: content.customType, data: content.data });
					}
				}
				// entries past the last reported flush are whatever else reached the disk, still in order
				for (let i = flushed; i < entries.length; i++) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id);
				await session.close();
			}
		}, 120_000);
	});

	function isJson(text: string): boolean {
		try {
			JSON.parse(text);
			return true;
		} catch {
			return false;
		}
	}

	describe("atomic rewrites", () => {
		it("setSessionName rewrites via a temp file + rename and keeps every entry", async () => {
			const { session, file } = await persistedSession();
			const dir = dirname(file);
			session.appendCustomEntry("unflushed", { n: 1 });
			session.appendCustomEntry("unflushed", { n: 2 });
			const inode = statSync(file).ino;

			await session.setSessionName("x");
			expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
			// the session file and its single-writer lock
			expect(readdirSync(dir).sort()).toEqual([file.slice(dir.length + 1), `${file.slice(dir.length + 1)}.lock`]);
			expect(statSync(file).ino).not.toBe(inode);
			const lines = parsedLines(file);
			expect(lines[0]).toMatchObject({ type: "session", id: session.getSessionId(), title: "x" });
			expect(lines.slice(1)).toEqual(session.getEntries());
			expect(lines).toHaveLength(7);

			const next = session.appendMessage(userMessage("after rename"));
			await session.flush();
			expect(ids(parsedLines(file).slice(1) as SessionEntry[])).toEqual(ids(session.getEntries()));
			expect(session.getEntries().at(-1)!.id).toBe(next);
			await session.close();

			const reopened = await SessionManager.open(file);
			expect(reopened.getSessionName()).toBe("x");
			expect(reopened.getEntries()).toEqual(session.getEntries());
			await reopened.close();
		});
	});
});
