import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { FOREIGN, textOf, toolCalls, unpairedResults } from "./import-helpers.js";
import {
	CHILD,
	createOpencodeDb,
	fillOpencodeDb,
	growParent,
	migrateStorage,
	OTHER,
	PARENT,
	PNG,
} from "./opencode-db-fixture.js";

interface Result {
	status: string;
	source: string;
	sourceSession?: string;
	sessionFile?: string;
	entries?: number;
	reason?: string;
}

async function open(file: string) {
	const manager = await SessionManager.open(file, { breadcrumb: false, mustExist: true });
	try {
		return {
			header: manager.getHeader(),
			entries: manager.getEntries(),
			context: manager.buildSessionContext(),
			title: manager.getSessionName(),
		};
	} finally {
		await manager.close();
	}
}

/** Every file of a folder with a hash of its bytes: what "unchanged" means for the source folder. */
function snapshot(dir: string): Record<string, string> {
	const files: Record<string, string> = {};
	for (const name of readdirSync(dir).sort())
		files[name] = createHash("sha256")
			.update(readFileSync(join(dir, name)))
			.digest("hex");
	return files;
}

describe("importing opencode's SQLite database (opencode 1.2+)", () => {
	const temp = useTempAgentDir();
	const open_: Database.Database[] = [];
	afterEach(() => {
		for (const db of open_.splice(0)) db.close();
	});
	/** A database in its own data folder, left open like a running opencode (its WAL not checkpointed). */
	const liveDb = () => {
		const data = join(temp.root, "data", "opencode");
		mkdirSync(data, { recursive: true });
		const path = join(data, "opencode.db");
		const db = createOpencodeDb(path);
		db.pragma("wal_autocheckpoint = 0");
		open_.push(db);
		fillOpencodeDb(db);
		return { data, path, db };
	};
	const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
		runCli(["import", ...args], { agentDir: temp.agentDir, cwd: temp.root, env: { TMPDIR: tmp(), ...env } });
	const tmp = () => {
		const dir = join(temp.root, "tmp");
		mkdirSync(dir, { recursive: true });
		return dir;
	};

	it("imports every session: text, thinking, tool calls with their results, images, models, titles, subagents, reverts", async () => {
		const { data, path } = liveDb();
		const before = snapshot(data);
		expect(Object.keys(before)).toEqual(["opencode.db", "opencode.db-shm", "opencode.db-wal"]);
		// opencode is "running": what it wrote is still in its write-ahead log, not in the database file.
		mkdirSync(join(temp.root, "alone"));
		cpSync(path, join(temp.root, "alone", "opencode.db"));
		const alone = new Database(join(temp.root, "alone", "opencode.db"), { readonly: true });
		expect(alone.prepare("SELECT name FROM sqlite_master WHERE name = 'session'").all()).toEqual([]);
		alone.close();
		const run = cli([path, "--json"]);
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
		const results = JSON.parse(run.stdout) as Result[];
		expect(results.map((r) => [r.status, r.sourceSession, r.source])).toEqual([
			["imported", PARENT, path],
			["imported", CHILD, path],
			["imported", OTHER, path],
		]);
		// The source was read through a copy: its folder holds the same files with the same bytes,
		// and the copy is gone.
		expect(snapshot(data)).toEqual(before);
		expect(readdirSync(tmp())).toEqual([]);

		const [parent, child, other] = await Promise.all(results.map((r) => open(r.sessionFile!)));
		expect(parent!.title).toBe("Fix leap-day parsing");
		expect(parent!.header.cwd).toBe("/home/dana/work/todo-api");
		const messages = parent!.context.messages;
		expect(messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"toolResult",
			"assistant",
			"user",
			"assistant",
		]);
		expect(textOf(messages[0]!)).toBe("parseDueDate fails on Feb 29; see the screenshot");
		const image = (messages[0] as unknown as { content: { type: string; mimeType?: string; data?: string }[] })
			.content[1];
		expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
		// The image went to the blob store: the session file holds a reference, not the bytes.
		expect(readFileSync(results[0]!.sessionFile!, "utf8")).not.toContain(PNG);
		expect(readdirSync(join(temp.agentDir, "blobs"), { recursive: true }).length).toBeGreaterThan(0);
		const first = messages[1] as unknown as { content: { type: string; thinking?: string }[]; model: string };
		expect(first.content[0]).toEqual({ type: "thinking", thinking: "The regex probably rejects day 29." });
		expect(first.model).toBe("claude-sonnet-4-5");
		expect(toolCalls(parent!.context).get("toolu_01Bash")).toMatchObject({
			name: "bash",
			arguments: { command: "npm test -- dates", description: "Run the date tests" },
		});
		expect(unpairedResults(parent!.context)).toEqual([]);
		expect(textOf(messages[2]!)).toBe("1 failing: leap day");
		expect(textOf(messages[5]!)).toBe("Fixed: the day check now allows 29 in leap years.");
		expect((messages[7] as unknown as { provider: string; model: string }).model).toBe("gpt-5.1");
		const models = parent!.entries.filter((e) => e.type === "model_change").map((e) => (e as { model: string }).model);
		expect(models).toEqual(["anthropic/claude-sonnet-4-5", "openai/gpt-5.1"]);
		// The times are opencode's.
		expect(parent!.entries.find((e) => e.type === "message")?.timestamp).toBe("2026-02-02T02:40:01.000Z");

		// The subagent session names its parent, imported in the same run.
		expect(child!.header.parentSession).toBe(results[0]!.sessionFile);
		expect(transcriptOf(child!.context)).toEqual([
			"user:Where are due dates parsed?",
			"assistant:src/dates.ts parses them.",
		]);

		// What opencode reverted stays on a branch; the session goes on from before it.
		expect(other!.header.cwd).toBe("/home/dana/work/blog");
		expect(transcriptOf(other!.context)).toEqual([
			"user:Rename draft.md to hello.md",
			"assistant:Renamed.",
			"branchSummary:",
		]);
		expect(other!.entries.filter((e) => e.type === "message")).toHaveLength(4);
		expect(other!.entries.some((e) => e.type === "branch_summary")).toBe(true);

		// The provenance entry says where each came from.
		const provenance = parent!.entries[0] as unknown as { data: Record<string, unknown> };
		expect(provenance.data).toMatchObject({ tool: "opencode", sourcePath: path, sourceId: PARENT });
	});

	it("says one line per session, imports nothing again, and appends to a session that grew", () => {
		const { path, db } = liveDb();
		const first = cli([path]);
		expect(first.status).toBe(0);
		const lines = first.stdout.trim().split("\n");
		expect(lines).toHaveLength(3);
		expect(lines[0]).toMatch(
			new RegExp(
				`^imported ${reEscape(path)} session ${PARENT} \\(opencode\\) → .+\\.jsonl, project /home/dana/work/todo-api: 1\\d entries$`,
			),
		);
		const again = cli([path]);
		expect(again.status).toBe(0);
		expect(again.stdout.trim().split("\n")).toEqual(
			[PARENT, CHILD, OTHER].map((id) =>
				expect.stringMatching(`^unchanged ${reEscape(path)} session ${id}: already imported into `),
			),
		);
		growParent(db);
		const grown = cli([path, "--json"]);
		expect(grown.status).toBe(0);
		const results = JSON.parse(grown.stdout) as Result[];
		expect(results.map((r) => [r.status, r.sourceSession])).toEqual([
			["appended", PARENT],
			["unchanged", CHILD],
			["unchanged", OTHER],
		]);
		const sessions = readdirSync(join(temp.agentDir, "sessions"), { recursive: true }).filter((f) =>
			String(f).endsWith(".jsonl"),
		);
		expect(sessions).toHaveLength(3);
		expect(cli([path]).stdout).toContain(`unchanged ${path} session ${PARENT}`);
	});

	it("appended messages land after the earlier ones", async () => {
		const { path, db } = liveDb();
		const [first] = JSON.parse(cli([path, "--json"]).stdout) as Result[];
		growParent(db);
		cli([path]);
		const parent = await open(first!.sessionFile!);
		expect(transcriptOf(parent.context).slice(-3)).toEqual([
			"assistant:Lint passes.",
			"user:And the changelog?",
			"assistant:Added a line to CHANGELOG.md.",
		]);
	});

	it("--dry-run says what it would import and writes nothing", () => {
		const { path } = liveDb();
		const run = cli([path, "--dry-run", "--json"]);
		expect(run.status).toBe(0);
		const results = JSON.parse(run.stdout) as Result[];
		expect(results.map((r) => [r.status, r.sourceSession, r.sessionFile])).toEqual([
			["imported", PARENT, "(new session)"],
			["imported", CHILD, "(new session)"],
			["imported", OTHER, "(new session)"],
		]);
		const text = cli([path, "--dry-run"]);
		expect(text.stdout).toContain(
			`would import ${path} session ${OTHER} (opencode) → (new session), project /home/dana/work/blog:`,
		);
		expect(existsSync(join(temp.agentDir, "sessions"))).toBe(false);
		expect(existsSync(join(temp.agentDir, "imports"))).toBe(false);
	});

	it("--scan finds the database in opencode's data folder (and a channel build's)", () => {
		const { data, path } = liveDb();
		createOpencodeDb(join(data, "opencode-beta.db")).close();
		const home = join(temp.root, "home");
		const run = cli(["--scan"], { HOME: home, XDG_DATA_HOME: join(temp.root, "data") });
		expect(run.stderr).toBe("");
		expect(run.stdout).toContain(`opencode: ${path}\nopencode: ${join(data, "opencode-beta.db")}\n`);
		expect(run.stdout).toContain(`would import ${path} session ${PARENT} (opencode) → (new session)`);
		expect(run.stdout).toContain(`Run xcsh import ${path} ${join(data, "opencode-beta.db")} to import them.`);
		expect(run.status).toBe(0);
		expect(existsSync(join(temp.agentDir, "sessions"))).toBe(false);
		// Under HOME when XDG_DATA_HOME is not set.
		const dataHome = join(home, ".local", "share", "opencode");
		mkdirSync(dataHome, { recursive: true });
		cpSync(path, join(dataHome, "opencode.db"));
		const byHome = cli(["--scan"], { HOME: home, XDG_DATA_HOME: "" });
		expect(byHome.stdout).toContain(`opencode: ${join(dataHome, "opencode.db")}\n`);
	});

	it("a database of another schema, or no database at all, is skipped with one line; the rest is imported", () => {
		const { path } = liveDb();
		const odd = join(temp.root, "odd", "opencode.db");
		mkdirSync(join(temp.root, "odd"));
		const other = createOpencodeDb(odd);
		other.exec("ALTER TABLE session DROP COLUMN directory");
		other.close();
		const broken = join(temp.root, "broken.db");
		writeFileSync(broken, "SQLite format 3\u0000 and then nothing");
		const run = cli([odd, broken, path]);
		expect(run.status).toBe(1);
		const lines = run.stdout.trim().split("\n");
		expect(lines[0]).toBe(
			`skipped ${odd}: an opencode database of a schema xcsh does not know (no column session.directory); xcsh reads the session, message and part tables of opencode 1.2 and later`,
		);
		expect(lines[1]).toMatch(new RegExp(`^skipped ${reEscape(broken)}: not a readable SQLite database \\(.+\\)$`));
		expect(lines.slice(2).map((line) => line.split(" ")[0])).toEqual(["imported", "imported", "imported"]);
		const noTable = join(temp.root, "none.db");
		createOpencodeDb(noTable).exec("DROP TABLE part");
		expect(cli([noTable]).stdout).toBe(
			`skipped ${noTable}: an opencode database of a schema xcsh does not know (no table part); xcsh reads the session, message and part tables of opencode 1.2 and later\n`,
		);
	});

	it("a session with unreadable rows keeps the rest and lists them; one without a reply is skipped, naming it", async () => {
		const { path, db } = liveDb();
		db.prepare("UPDATE part SET data = '{torn' WHERE id = ?").run("prt_c0aa0004f000Qa2Ws4Ed6Rf8Tg");
		db.prepare(
			"INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES ('ses_empty', ?, 's', '/p', 't', '1.2.6', 1, 1)",
		).run("4b0ea68d7af9a6031a7ffda7ad66e0cb83315750");
		const run = cli([path, "--json"]);
		expect(run.status).toBe(1);
		const results = JSON.parse(run.stdout) as Result[];
		expect(results[0]).toEqual({
			status: "skipped",
			source: path,
			sourceSession: "ses_empty",
			reason: "no entries in it",
		});
		const parent = await open(results[1]!.sessionFile!);
		expect(transcriptOf(parent.context).at(-1)).toBe("user:Now run the linter.");
		const provenance = parent.entries[0] as unknown as { data: { source: { unreadableFiles: string[] } } };
		expect(provenance.data.source.unreadableFiles).toEqual([`${path}: part prt_c0aa0004f000Qa2Ws4Ed6Rf8Tg`]);
		expect(cli([path]).stdout).toContain(`skipped ${path} session ses_empty: no entries in it\n`);
		// A newer opencode's message table (not read): said, not taken for an empty session.
		db.exec(
			"CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)",
		);
		db.exec(
			"INSERT INTO session_message VALUES ('m1', 'ses_empty', 'user', 1, 1, '{}'), ('m2', 'ses_empty', 'assistant', 2, 2, '{}')",
		);
		expect(cli([path]).stdout).toContain(
			`skipped ${path} session ses_empty: its 2 message(s) are in the session_message table of a newer opencode, which xcsh does not read yet\n`,
		);
	});

	it("beside other sources imported on worker threads, the database is read on the main thread, in order", () => {
		const { data, path } = liveDb();
		for (const name of ["codex-01-cli-0.58-shell-reasoning.jsonl", "pi-02-v3-small-fixture-provider.jsonl"])
			cpSync(join(FOREIGN, name), join(data, name));
		const run = cli([data], { XCSH_IMPORT_THREADS: "2" });
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
		expect(
			run.stdout
				.trim()
				.split("\n")
				.map((line) => line.split(" ").slice(0, 4).join(" ")),
		).toEqual([
			`imported ${join(data, "codex-01-cli-0.58-shell-reasoning.jsonl")} (codex) →`,
			`imported ${path} session ${PARENT}`,
			`imported ${path} session ${CHILD}`,
			`imported ${path} session ${OTHER}`,
			`imported ${join(data, "pi-02-v3-small-fixture-provider.jsonl")} (pi) →`,
		]);
	});

	it("sessions imported from the storage tree before opencode moved them into its database are not imported twice", () => {
		const storage = join(FOREIGN, "opencode", "storage");
		const first = cli([storage]);
		expect(first.status).toBe(0);
		const path = join(temp.root, "opencode.db");
		const db = createOpencodeDb(path);
		migrateStorage(db, storage);
		db.close();
		const run = cli([path]);
		expect(run.status).toBe(0);
		expect(
			run.stdout
				.trim()
				.split("\n")
				.map((line) => line.split(" ")[0]),
		).toEqual(["unchanged", "unchanged"]);
	});
});

function transcriptOf(context: { messages: { role: string }[] }): string[] {
	return context.messages.map((m) => `${m.role}:${textOf(m as never)}`);
}

function reEscape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
