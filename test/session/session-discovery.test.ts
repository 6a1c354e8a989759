import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	unlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type IndexedSessionInfo, SessionIndex } from "../../source/index/session-index.js";
import { listAllSessions, listProjectSessions, newestSessionPaths } from "../../source/index/session-listing.js";
import { createSessionId } from "../../source/session/ids.js";
import { MemorySessionStorage } from "../../source/session/memory-session-storage.js";
import { findMostRecentSession, getRecentSessions } from "../../source/session/session-discovery.js";
import { SessionManager } from "../../source/session/session-manager.js";
import {
	encodeCwd,
	getDefaultSessionDir,
	getTerminalSessionsDir,
	sessionFileName,
} from "../../source/session/session-paths.js";
import { FileSessionStorage } from "../../source/session/session-storage.js";
import { getTerminalId, TERMINAL_ENV_KEYS } from "../../source/session/terminal-breadcrumb.js";
import type { SessionInfo } from "../../source/session/types.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("session discovery", () => {
	const tmp = useTempAgentDir();

	let savedEnv: Record<string, string | undefined> = {};

	// Tests start with no terminal id from the environment; whatever a test sets is restored.
	beforeEach(() => {
		savedEnv = {};
		for (const key of TERMINAL_ENV_KEYS) {
			savedEnv[key] = process.env[key];
			delete process.env[key];
		}
	});

	afterEach(() => {
		for (const key of TERMINAL_ENV_KEYS) {
			const value = savedEnv[key];
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
	});

	const CWD = "/work/alpha";
	const BASE_SECONDS = 1_750_000_000;

	interface Made {
		id: string;
		file: string;
		created: string;
	}

	interface MakeOptions {
		dir?: string;
		cwd?: string;
		firstUser?: string;
		title?: string;
		/** Appended after the first exchange. */
		more?: (session: SessionManager) => void;
		/** Appended before the first user message. */
		before?: (session: SessionManager) => void;
	}

	/** A persisted session: [before], user message, assistant reply, [more]; closed. */
	async function makeSession(options: MakeOptions = {}): Promise<Made> {
		const cwd = options.cwd ?? CWD;
		const session = await SessionManager.create(cwd, { sessionDir: options.dir });
		options.before?.(session);
		session.appendMessage(userMessage(options.firstUser ?? "first question"));
		session.appendMessage(assistantMessage("an answer"));
		options.more?.(session);
		if (options.title !== undefined) await session.setSessionName(options.title);
		await session.close();
		const file = session.getSessionFile();
		if (!file) throw new Error("no session file");
		return { id: session.getSessionId(), file, created: session.getHeader().timestamp };
	}

	function setMtime(path: string, secondsAfterBase: number): void {
		const seconds = BASE_SECONDS + secondsAfterBase;
		utimesSync(path, seconds, seconds);
	}

	/** Real files, but the whole-file read is forbidden and prefix reads are recorded. */
	class PrefixOnlyStorage extends FileSessionStorage {
		readonly prefixRequests: number[] = [];
		readTextCalls = 0;

		override async readText(path: string): Promise<string> {
			this.readTextCalls++;
			throw new Error(`readText is not allowed here: ${path}`);
		}

		override readTextPrefix(path: string, bytes: number): Promise<string> {
			this.prefixRequests.push(bytes);
			return super.readTextPrefix(path, bytes);
		}
	}

	describe("getRecentSessions", () => {
		it("returns metadata newest-by-mtime first, honours the limit, skips non-sessions, reads ≤ 4 KB", async () => {
			const dir = join(tmp.root, "sessions");
			const a = await makeSession({ dir, firstUser: "question  A\n\twith   whitespace" });
			const b = await makeSession({
				dir,
				firstUser: "question B",
				// a big session: far more than the 4 KB prefix
				more: (s) => {
					for (let i = 0; i < 20; i++) s.appendMessage(toolResultMessage("y".repeat(1000)));
				},
			});
			const c = await makeSession({ dir, firstUser: "question C", title: "Named C" });
			const long = await makeSession({
				dir,
				firstUser: "z".repeat(500),
				before: (s) => s.appendSessionInit({ systemPrompt: "sys", tools: ["read"] }),
			});
			expect(statSync(b.file).size).toBeGreaterThan(4096 * 4);

			const garbage = join(dir, "garbage.jsonl");
			writeFileSync(garbage, "not a session\n");
			const empty = join(dir, "empty.jsonl");
			writeFileSync(empty, "");
			const foreignJson = join(dir, "foreign.jsonl");
			writeFileSync(foreignJson, '{"type":"message","id":"a1b2c3d4"}\n');
			mkdirSync(join(dir, "a-directory.jsonl"));
			writeFileSync(join(dir, "notes.txt"), `${readFileSync(a.file, "utf8")}`);

			setMtime(a.file, 100);
			setMtime(long.file, 150);
			setMtime(c.file, 200);
			setMtime(b.file, 300);
			setMtime(garbage, 400);
			setMtime(empty, 500);
			setMtime(foreignJson, 600);
			setMtime(join(dir, "notes.txt"), 700);

			const storage = new PrefixOnlyStorage();
			const recent = await getRecentSessions(dir, 10, storage);
			expect(recent.map((r) => r.path)).toEqual([b.file, c.file, long.file, a.file]);
			expect(recent).toEqual([
				{
					id: b.id,
					path: b.file,
					cwd: CWD,
					created: new Date(b.created),
					modified: new Date((BASE_SECONDS + 300) * 1000),
					firstMessage: "question B",
				},
				{
					id: c.id,
					path: c.file,
					cwd: CWD,
					title: "Named C",
					created: new Date(c.created),
					modified: new Date((BASE_SECONDS + 200) * 1000),
					firstMessage: "question C",
				},
				{
					id: long.id,
					path: long.file,
					cwd: CWD,
					created: new Date(long.created),
					modified: new Date((BASE_SECONDS + 150) * 1000),
					firstMessage: "z".repeat(200),
				},
				{
					id: a.id,
					path: a.file,
					cwd: CWD,
					created: new Date(a.created),
					modified: new Date((BASE_SECONDS + 100) * 1000),
					firstMessage: "question A with whitespace",
				},
			]);
			expect(storage.readTextCalls).toBe(0);
			expect(storage.prefixRequests.length).toBeGreaterThan(0);
			for (const bytes of storage.prefixRequests) expect(bytes).toBeLessThanOrEqual(4096);

			const limited = new PrefixOnlyStorage();
			expect((await getRecentSessions(dir, 2, limited)).map((r) => r.id)).toEqual([b.id, c.id]);
			for (const bytes of limited.prefixRequests) expect(bytes).toBeLessThanOrEqual(4096);
			// the newer non-session files were read (and skipped) but do not count towards the limit
			expect((await getRecentSessions(dir, 1, limited)).map((r) => r.id)).toEqual([b.id]);
			expect(await getRecentSessions(dir, 0, limited)).toEqual([]);
			expect(await getRecentSessions(join(tmp.root, "missing"), 5, limited)).toEqual([]);
			expect(limited.readTextCalls).toBe(0);
		});

		it("only sees what is in the first 4 KB", async () => {
			const dir = join(tmp.root, "sessions");
			// the first user message starts after 4 KB of other entries: the prefix does not reach it
			const late = await makeSession({
				dir,
				firstUser: "too late to be seen",
				before: (s) => s.appendCustomEntry("bulk", { text: "q".repeat(5000) }),
			});
			const storage = new PrefixOnlyStorage();
			const [info] = await getRecentSessions(dir, 5, storage);
			expect(info).toMatchObject({ id: late.id, path: late.file, firstMessage: "" });
			// the full listing reads the whole file and finds it
			const [full] = await SessionManager.list(CWD, dir);
			expect(full?.firstMessage).toBe("too late to be seen");
		});
		it("reads past 4 KB only when the header line alone is longer (a huge title)", async () => {
			const dir = join(tmp.root, "sessions");
			const titled = await makeSession({ dir });
			const manager = await SessionManager.open(titled.file);
			await manager.setSessionName("t".repeat(6000));
			const storage = new PrefixOnlyStorage();
			const [info] = await getRecentSessions(dir, 5, storage);
			expect(info?.id).toBe(titled.id);
			expect(info?.title).toHaveLength(6000);
			expect(storage.prefixRequests[0]).toBe(4096);
		});
	});

	describe("findMostRecentSession", () => {
		it("picks the newest valid session and ignores a newer garbage .jsonl", async () => {
			const dir = join(tmp.root, "sessions");
			const older = await makeSession({ dir });
			const newer = await makeSession({ dir });
			const newest = await makeSession({ dir });
			const garbage = join(dir, "zzz.jsonl");
			writeFileSync(garbage, "{ definitely not json\n");
			setMtime(newest.file, 10);
			setMtime(older.file, 20);
			setMtime(newer.file, 30);
			setMtime(garbage, 40);
			const storage = new FileSessionStorage();
			expect(await findMostRecentSession(dir, storage)).toBe(newer.file);

			setMtime(older.file, 50);
			expect(await findMostRecentSession(dir, storage)).toBe(older.file);
			expect(await findMostRecentSession(join(tmp.root, "nothing-here"), storage)).toBeUndefined();
		});

		it("takes its storage as an optional last argument, as the spec's signatures do (the files by default)", async () => {
			const dir = join(tmp.root, "sessions");
			const older = await makeSession({ dir });
			const newer = await makeSession({ dir });
			setMtime(older.file, 10);
			setMtime(newer.file, 20);
			expect(await findMostRecentSession(dir)).toBe(newer.file);
			expect((await getRecentSessions(dir, 5)).map((r) => r.path)).toEqual([newer.file, older.file]);
			const memory = new MemorySessionStorage();
			expect(await findMostRecentSession(dir, memory)).toBeUndefined();
			expect(await getRecentSessions(dir, 5, memory)).toEqual([]);
		});
	});

	describe("SessionManager.list / listAll", () => {
		it("lists sessions of one project and of every project with exact metadata", async () => {
			const beta = "/work/beta";
			const s1 = await makeSession({
				firstUser: "alpha one",
				more: (s) => {
					s.appendMessage(toolResultMessage("out"));
					s.appendModelChange("openai/gpt-4o");
					s.appendThinkingLevelChange("high");
					s.appendCustomEntry("ext", { role: "user" });
					s.appendCustomMessageEntry("ext", '{"type":"message"} injected', true);
					s.appendMessage(userMessage("alpha two"));
				},
			});
			const s2 = await makeSession({ firstUser: "alpha named", title: "Alpha title" });
			const s3 = await makeSession({ cwd: beta, firstUser: "beta one" });
			const alphaDir = getDefaultSessionDir(CWD);
			expect(dirname(s1.file)).toBe(alphaDir);
			expect(dirname(s3.file)).toBe(getDefaultSessionDir(beta));
			writeFileSync(join(alphaDir, "garbage.jsonl"), "garbage\n");
			setMtime(join(alphaDir, "garbage.jsonl"), 999);
			setMtime(s1.file, 10);
			setMtime(s2.file, 30);
			setMtime(s3.file, 20);

			const info = (made: Made, cwd: string, messageCount: number, firstMessage: string, title?: string) => {
				const stat = statSync(made.file);
				const expected: SessionInfo = {
					id: made.id,
					path: made.file,
					cwd,
					created: new Date(made.created),
					modified: new Date(stat.mtimeMs),
					size: stat.size,
					messageCount,
					firstMessage,
				};
				if (title !== undefined) expected.title = title;
				return expected;
			};
			const i1 = info(s1, CWD, 4, "alpha one");
			const i2 = info(s2, CWD, 2, "alpha named", "Alpha title");
			const i3 = info(s3, beta, 2, "beta one");

			// The index adds the time of the newest entry; the rest must match what the files say.
			const plain = (infos: SessionInfo[]) => infos.map(({ lastActivity: _, ...rest }: IndexedSessionInfo) => rest);
			expect(plain(await listProjectSessions(CWD))).toEqual([i2, i1]);
			expect(plain(await listProjectSessions(CWD, alphaDir))).toEqual([i2, i1]);
			expect(plain(await listProjectSessions(beta))).toEqual([i3]);
			expect(await listProjectSessions("/work/none")).toEqual([]);
			expect(plain(await listAllSessions())).toEqual([i2, i3, i1]);
			expect(i1.size).toBe(Buffer.byteLength(readFileSync(s1.file)));
			// SessionManager's own listing reads the files: the same sessions.
			expect(await SessionManager.list(CWD)).toEqual([i2, i1]);
			expect(await SessionManager.list(CWD, alphaDir)).toEqual([i2, i1]);
			expect(await SessionManager.list("/work/none")).toEqual([]);
			expect(await SessionManager.listAll()).toEqual([i2, i3, i1]);
			// Without a usable index the same listing comes from the files.
			vi.spyOn(SessionIndex, "open").mockImplementation(() => {
				throw new Error("no sqlite here");
			});
			expect(await listProjectSessions(CWD)).toEqual([i2, i1]);
			expect(await listAllSessions()).toEqual([i2, i3, i1]);
			vi.restoreAllMocks();
		});
	});

	describe("terminal breadcrumbs", () => {
		function crumbPath(id: string): string {
			return join(tmp.agentDir, "terminal-sessions", id);
		}

		it("create and open write <agentDir>/terminal-sessions/<XCSH_TERMINAL_ID>: cwd, then the session path", async () => {
			process.env.XCSH_TERMINAL_ID = "term-abc";
			expect(getTerminalSessionsDir()).toBe(join(tmp.agentDir, "terminal-sessions"));
			const dir = join(tmp.root, "sessions");
			const session = await SessionManager.create(CWD, { sessionDir: dir });
			const file = session.getSessionFile()!;
			expect(readFileSync(crumbPath("term-abc"), "utf8")).toBe(`${CWD}\n${file}\n`);
			session.appendMessage(userMessage("q"));
			session.appendMessage(assistantMessage("a"));
			await session.close();

			const other = await makeSession({ dir: join(tmp.root, "other"), cwd: "/work/other" });
			expect(readFileSync(crumbPath("term-abc"), "utf8")).toBe(`/work/other\n${other.file}\n`);

			const reopened = await SessionManager.open(file);
			const text = readFileSync(crumbPath("term-abc"), "utf8");
			expect(text).toBe(`${CWD}\n${file}\n`);
			expect(text.split("\n")).toEqual([CWD, file, ""]);
			expect(readdirSync(join(tmp.agentDir, "terminal-sessions"))).toEqual(["term-abc"]);
			await reopened.close();
		});

		it("uses TMUX_PANE when XCSH_TERMINAL_ID is not set", async () => {
			process.env.TMUX_PANE = "%7";
			const id = getTerminalId();
			expect(id).toBeDefined();
			const session = await SessionManager.create(CWD, { sessionDir: join(tmp.root, "sessions") });
			expect(readdirSync(join(tmp.agentDir, "terminal-sessions"))).toEqual([id]);
			expect(readFileSync(crumbPath(id!), "utf8")).toBe(`${CWD}\n${session.getSessionFile()}\n`);

			const file = join(tmp.root, "sessions", "explicit.jsonl");
			const opened = await SessionManager.open(file);
			expect(readFileSync(crumbPath(id!), "utf8")).toBe(`${process.cwd()}\n${file}\n`);
			await opened.close();
			await session.close();
		});

		it("open with breadcrumb: false leaves this terminal's breadcrumb as it was (a rename from the picker)", async () => {
			process.env.XCSH_TERMINAL_ID = "term-keep";
			const other = await makeSession({ dir: join(tmp.root, "other"), cwd: "/work/other" });
			const target = await makeSession({ dir: join(tmp.root, "sessions") });
			writeFileSync(crumbPath("term-keep"), `/work/other\n${other.file}\n`);

			const opened = await SessionManager.open(target.file, { breadcrumb: false });
			await opened.setSessionName("renamed");
			await opened.close();
			expect(readFileSync(crumbPath("term-keep"), "utf8")).toBe(`/work/other\n${other.file}\n`);

			// Without a breadcrumb yet, none is written either.
			rmSync(crumbPath("term-keep"));
			const again = await SessionManager.open(target.file, { breadcrumb: false });
			await again.close();
			expect(existsSync(crumbPath("term-keep"))).toBe(false);
		});

		it("open with mustExist: true refuses a missing file in one line and creates nothing", async () => {
			process.env.XCSH_TERMINAL_ID = "term-missing";
			const missing = join(tmp.root, "sessions", "gone.jsonl");
			await expect(SessionManager.open(missing, { mustExist: true })).rejects.toThrow(
				`Session file not found: ${missing}`,
			);
			expect(existsSync(missing)).toBe(false);
			expect(existsSync(crumbPath("term-missing"))).toBe(false);
		});

		it("writes no breadcrumb without a terminal id", async () => {
			expect(getTerminalId()).toBeUndefined();
			await makeSession({ dir: join(tmp.root, "sessions") });
			expect(existsSync(join(tmp.agentDir, "terminal-sessions"))).toBe(false);
		});

		it("getTerminalId derives file-name-safe ids from the terminal's env", () => {
			const noTty = () => undefined;
			expect(getTerminalId({ XCSH_TERMINAL_ID: "mine" }, noTty)).toBe("mine");
			expect(getTerminalId({ XCSH_TERMINAL_ID: "my term/1" }, noTty)).toBe("my-term-1");
			const pane3 = getTerminalId({ TMUX_PANE: "%3" }, noTty);
			const pane4 = getTerminalId({ TMUX_PANE: "%4" }, noTty);
			expect(pane3).toMatch(/^tmux_pane-+3$/);
			expect(pane4).toMatch(/^tmux_pane-+4$/);
			expect(getTerminalId({ KITTY_WINDOW_ID: "12" }, noTty)).toBe("kitty_window_id-12");
			for (const id of [pane3, pane4]) expect(id).toMatch(/^[A-Za-z0-9._-]+$/);
			// order of preference
			expect(getTerminalId({ KITTY_WINDOW_ID: "12", TMUX_PANE: "%3" }, noTty)).toBe(pane3);
			expect(getTerminalId({ KITTY_WINDOW_ID: "12", TMUX_PANE: "%3", XCSH_TERMINAL_ID: "x" }, noTty)).toBe("x");
			expect(getTerminalId({ TMUX_PANE: "", KITTY_WINDOW_ID: "12" }, noTty)).toBe("kitty_window_id-12");
			// no env: the tty, else nothing
			expect(getTerminalId({}, () => "/dev/pts/4")).toBe("dev-pts-4");
			expect(getTerminalId({}, noTty)).toBeUndefined();
		});
	});

	describe("continueRecent", () => {
		beforeEach(() => {
			process.env.XCSH_TERMINAL_ID = "term-continue";
		});

		async function threeSessions(dir: string): Promise<{ a: Made; b: Made; c: Made }> {
			const a = await makeSession({ dir, firstUser: "a" });
			const b = await makeSession({ dir, firstUser: "b" });
			const c = await makeSession({ dir, firstUser: "c" });
			setMtime(a.file, 10);
			setMtime(b.file, 30);
			setMtime(c.file, 20);
			return { a, b, c };
		}

		it("prefers this terminal's breadcrumb over a newer session", async () => {
			const dir = join(tmp.root, "sessions");
			const { a, b } = await threeSessions(dir);
			// the terminal last had `a` open
			const opened = await SessionManager.open(a.file);
			await opened.close();
			expect(readFileSync(join(tmp.agentDir, "terminal-sessions", "term-continue"), "utf8")).toBe(
				`${CWD}\n${a.file}\n`,
			);

			const resumed = await SessionManager.continueRecent(CWD, { sessionDir: dir });
			expect(resumed.getSessionFile()).toBe(a.file);
			expect(resumed.getSessionId()).toBe(a.id);
			expect(resumed.getEntries()).toHaveLength(2);
			expect(resumed.getCwd()).toBe(CWD);
			await resumed.close();
			expect(b.file).not.toBe(a.file);
		});

		it("falls back to the newest by mtime when the breadcrumb's file is gone", async () => {
			const dir = join(tmp.root, "sessions");
			const { a, b } = await threeSessions(dir);
			await (await SessionManager.open(a.file)).close();
			unlinkSync(a.file);
			const resumed = await SessionManager.continueRecent(CWD, { sessionDir: dir });
			expect(resumed.getSessionFile()).toBe(b.file);
			expect(resumed.getSessionId()).toBe(b.id);
			await resumed.close();
		});

		it("takes the newest from the listing it is given (the CLI's prefers the session index)", async () => {
			const dir = join(tmp.root, "sessions");
			const { a, b, c } = await threeSessions(dir);
			unlinkSync(join(tmp.agentDir, "terminal-sessions", "term-continue"));
			const indexed = await SessionManager.continueRecent(CWD, { sessionDir: dir, newestFirst: newestSessionPaths });
			expect(indexed.getSessionFile()).toBe(b.file);
			await indexed.close();
			unlinkSync(join(tmp.agentDir, "terminal-sessions", "term-continue"));
			const listed: string[] = [];
			const given = await SessionManager.continueRecent(CWD, {
				sessionDir: dir,
				newestFirst: async (sessionDir) => {
					listed.push(sessionDir);
					return [c.file, a.file];
				},
			});
			expect(listed).toEqual([dir]);
			expect(given.getSessionFile()).toBe(c.file);
			await given.close();
		});

		it("falls back to the newest by mtime when the breadcrumb names another cwd", async () => {
			const dir = join(tmp.root, "sessions");
			const { a, b } = await threeSessions(dir);
			const crumb = join(tmp.agentDir, "terminal-sessions", "term-continue");
			writeFileSync(crumb, `/work/elsewhere\n${a.file}\n`);
			const resumed = await SessionManager.continueRecent(CWD, { sessionDir: dir });
			expect(resumed.getSessionFile()).toBe(b.file);
			await resumed.close();

			// the terminal's last session belongs to another project (and lives in its dir)
			const other = await makeSession({ dir: join(tmp.root, "other-project"), cwd: "/work/elsewhere" });
			expect(readFileSync(crumb, "utf8")).toBe(`/work/elsewhere\n${other.file}\n`);
			const again = await SessionManager.continueRecent(CWD, { sessionDir: dir });
			expect(again.getSessionFile()).toBe(b.file);
			await again.close();
		});

		it("ignores a breadcrumb for the same cwd that points outside the session dir", async () => {
			const dir = join(tmp.root, "sessions");
			const { b } = await threeSessions(dir);
			const outside = await makeSession({ dir: join(tmp.root, "elsewhere") });
			expect(readFileSync(join(tmp.agentDir, "terminal-sessions", "term-continue"), "utf8")).toBe(
				`${CWD}\n${outside.file}\n`,
			);
			const resumed = await SessionManager.continueRecent(CWD, { sessionDir: dir });
			expect(resumed.getSessionFile()).toBe(b.file);
			await resumed.close();
		});

		it("creates a new session when the dir holds no session", async () => {
			const dir = join(tmp.root, "empty-sessions");
			mkdirSync(dir);
			writeFileSync(join(dir, "garbage.jsonl"), "nope\n");
			const fresh = await SessionManager.continueRecent(CWD, { sessionDir: dir });
			const file = fresh.getSessionFile()!;
			expect(dirname(file)).toBe(dir);
			expect(existsSync(file)).toBe(false);
			expect(fresh.getEntries()).toEqual([]);
			expect(fresh.getCwd()).toBe(CWD);
			expect(fresh.getHeader()).toMatchObject({ type: "session", cwd: CWD });

			const missing = await SessionManager.continueRecent(CWD, { sessionDir: join(tmp.root, "no-such-dir") });
			expect(missing.getEntries()).toEqual([]);
			expect(missing.getSessionId()).not.toBe(fresh.getSessionId());
			await fresh.close();
			await missing.close();
		});
	});

	describe("paths and ids", () => {
		it("encodes cwds: leading slash dropped, / \\ : replaced by -", () => {
			expect(encodeCwd("/work/pi")).toBe("--work-pi--");
			expect(encodeCwd("/")).toBe("----");
			expect(encodeCwd("C:\\Users\\me")).toBe("--C--Users-me--");
			expect(encodeCwd("\\srv\\share")).toBe("--srv-share--");
			expect(encodeCwd("/a:b\\c/d")).toBe("--a-b-c-d--");
		});

		it("names session files <timestamp with : and . as ->_<id>.jsonl under the default dir", async () => {
			expect(sessionFileName("2026-02-16T10:20:30.000Z", "1f9d2a6b9c0d1234")).toBe(
				"2026-02-16T10-20-30-000Z_1f9d2a6b9c0d1234.jsonl",
			);
			expect(getDefaultSessionDir("/work/pi")).toBe(join(tmp.agentDir, "sessions", "--work-pi--"));
			const session = await SessionManager.create("/work/pi");
			const { id, timestamp } = session.getHeader();
			expect(session.getSessionFile()).toBe(
				join(tmp.agentDir, "sessions", "--work-pi--", `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`),
			);
			expect(session.getSessionFile()).toMatch(
				/\/sessions\/--work-pi--\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_[0-9a-f]{16}\.jsonl$/,
			);
			expect(session.getSessionDir()).toBe(getDefaultSessionDir("/work/pi"));
			await session.close();
		});

		it("session ids are 16 hex chars, unique, and sort by creation time", () => {
			const created: string[] = [];
			for (let i = 0; i < 1000; i++) created.push(createSessionId());
			for (const id of created) expect(id).toMatch(/^[0-9a-f]{16}$/);
			expect([...created].sort()).toEqual(created);
			expect(new Set(created).size).toBe(created.length);

			const managers: string[] = [];
			for (let i = 0; i < 50; i++) managers.push(SessionManager.inMemory(CWD).getSessionId());
			expect([...managers].sort()).toEqual(managers);
			expect(managers[0]! > created[created.length - 1]!).toBe(true);
		});

		it("entry ids are 8 hex chars and unique within a session of 10,000 entries", () => {
			const session = SessionManager.inMemory(CWD);
			const entryIds: string[] = [];
			for (let i = 0; i < 10_000; i++) entryIds.push(session.appendCustomEntry("bulk", { i }));
			for (const id of entryIds) expect(id).toMatch(/^[0-9a-f]{8}$/);
			expect(new Set(entryIds).size).toBe(10_000);
			expect(session.getEntries().map((e) => e.id)).toEqual(entryIds);
		});
	});
});
