import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import Database from "better-sqlite3";

/*
 * opencode databases built in tests, with the tables and columns of opencode 1.2's schema (see
 * source/import/opencode-db.ts for where it is published) and `workspace_id`, which a later
 * 1.2.x migration added. Rows are written as opencode writes them: a message's and a part's
 * `data` is its JSON without the ids the columns hold.
 */

type Json = Record<string, unknown>;

const SCHEMA = `
CREATE TABLE project (
	id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text, icon_color text,
	time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer, sandboxes text NOT NULL
);
CREATE TABLE session (
	id text PRIMARY KEY, project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE, parent_id text,
	slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, share_url text,
	summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text,
	revert text, permission text, time_created integer NOT NULL, time_updated integer NOT NULL,
	time_compacting integer, time_archived integer, workspace_id text
);
CREATE TABLE message (
	id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,
	time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL
);
CREATE TABLE part (
	id text PRIMARY KEY, message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE,
	session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL
);
CREATE TABLE todo (
	session_id text NOT NULL, content text NOT NULL, status text NOT NULL, priority text NOT NULL,
	position integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL,
	PRIMARY KEY (session_id, position)
);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);
CREATE INDEX session_parent_idx ON session (parent_id);
`;

/** A 48×48 PNG of noise (large enough for the blob store), base64, as opencode keeps it in a data URL. */
export const PNG = noisePng(48).toString("base64");

function noisePng(size: number): Buffer {
	const chunk = (type: string, body: Buffer) => {
		const head = Buffer.alloc(4);
		head.writeUInt32BE(body.length);
		const crc = Buffer.alloc(4);
		crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), body])));
		return Buffer.concat([head, Buffer.from(type), body, crc]);
	};
	const header = Buffer.alloc(13);
	header.writeUInt32BE(size, 0);
	header.writeUInt32BE(size, 4);
	header.set([8, 2, 0, 0, 0], 8);
	// Each row: filter byte 0, then RGB bytes from a fixed sequence.
	const rows = Buffer.alloc(size * (1 + size * 3));
	for (let i = 0, x = 7; i < rows.length; i++)
		if (i % (1 + size * 3) !== 0) rows[i] = x = (x * 1103515245 + 12345) >>> 16;
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", header),
		chunk("IDAT", deflateSync(rows)),
		chunk("IEND", Buffer.alloc(0)),
	]);
}

export const PROJECT = "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750";
export const PARENT = "ses_4a00aa01affeAb1Cd2Ef3Gh4Ij";
export const CHILD = "ses_4a00aa02affeKl5Mn6Op7Qr8St";
export const OTHER = "ses_4a00aa03affeUv9Wx0Yz1Ab2Cd";
export const T0 = 1770000000000;

/** Creates an opencode database at `path` (WAL, as opencode keeps it) and returns it open. */
export function createOpencodeDb(path: string): Database.Database {
	const db = new Database(path);
	db.pragma("journal_mode = WAL");
	db.exec(SCHEMA);
	db.prepare(
		"INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, 'git', ?, ?, '[]')",
	).run(PROJECT, "/home/dana/work/todo-api", T0, T0);
	return db;
}

/** Adds a session row from opencode's session info shape. */
export function addSession(db: Database.Database, info: Json): void {
	const time = info.time as { created: number; updated?: number };
	db.prepare(
		`INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, revert, time_created, time_updated)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	).run(
		info.id,
		info.projectID ?? PROJECT,
		info.parentID ?? null,
		info.slug ?? "brave-falcon",
		info.directory,
		info.title,
		info.version ?? "1.2.6",
		info.revert ? JSON.stringify(info.revert) : null,
		time.created,
		time.updated ?? time.created,
	);
}

/** Adds a message (its info, ids included) and its parts, as opencode stores them. */
export function addMessage(db: Database.Database, info: Json, parts: Json[]): void {
	const { id, sessionID, ...data } = info;
	const created = (info.time as { created: number }).created;
	db.prepare("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)").run(
		id,
		sessionID,
		created,
		created,
		JSON.stringify(data),
	);
	for (const part of parts) {
		const { id: partId, sessionID: _s, messageID: _m, ...partData } = part;
		db.prepare(
			"INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
		).run(partId, id, sessionID, created, created, JSON.stringify(partData));
	}
}

const assistantBase = (sessionID: string, parentID: string, created: number) => ({
	sessionID,
	role: "assistant",
	time: { created, completed: created + 900 },
	parentID,
	mode: "build",
	agent: "build",
	path: { cwd: "/home/dana/work/todo-api", root: "/home/dana/work/todo-api" },
	cost: 0.004,
	tokens: { input: 1200, output: 80, reasoning: 10, cache: { read: 0, write: 0 } },
	finish: "stop",
});

const userBase = (sessionID: string, created: number) => ({
	sessionID,
	role: "user",
	time: { created },
	agent: "build",
	model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" },
});

/**
 * Three sessions: a parent (a prompt with an image; thinking, a bash call and its output, a task
 * call that started a subagent; a second turn on another model), the subagent session it started,
 * and a later session in another project whose last exchange was reverted in opencode.
 */
export function fillOpencodeDb(db: Database.Database): void {
	addSession(db, {
		id: PARENT,
		directory: "/home/dana/work/todo-api",
		title: "Fix leap-day parsing",
		time: { created: T0, updated: T0 + 60_000 },
	});
	const m = (n: number) => `msg_c0aa00${String(n).padStart(2, "0")}f001Zx4Cv6Bn8Mq1We`;
	const p = (n: number, k: number) => `prt_c0aa00${String(n).padStart(2, "0")}f00${k}Qa2Ws4Ed6Rf8Tg`;
	addMessage(db, { id: m(1), ...userBase(PARENT, T0 + 1000) }, [
		{ id: p(1, 0), type: "text", text: "parseDueDate fails on Feb 29; see the screenshot" },
		{ id: p(1, 1), type: "file", mime: "image/png", filename: "fail.png", url: `data:image/png;base64,${PNG}` },
	]);
	addMessage(
		db,
		{ id: m(2), ...assistantBase(PARENT, m(1), T0 + 2000), providerID: "anthropic", modelID: "claude-sonnet-4-5" },
		[
			{ id: p(2, 0), type: "step-start" },
			{ id: p(2, 1), type: "reasoning", text: "The regex probably rejects day 29.", time: { start: T0 + 2000 } },
			{ id: p(2, 2), type: "text", text: "Let me run the date tests." },
			{
				id: p(2, 3),
				type: "tool",
				callID: "toolu_01Bash",
				tool: "bash",
				state: {
					status: "completed",
					input: { command: "npm test -- dates", description: "Run the date tests" },
					output: "1 failing: leap day",
					title: "npm test -- dates",
					metadata: {},
					time: { start: T0 + 2100, end: T0 + 2400 },
				},
			},
			{
				id: p(2, 4),
				type: "step-finish",
				reason: "tool-calls",
				cost: 0.002,
				tokens: { input: 600, output: 40, reasoning: 10, cache: { read: 0, write: 0 } },
			},
			{ id: p(2, 5), type: "step-start" },
			{
				id: p(2, 6),
				type: "tool",
				callID: "toolu_02Task",
				tool: "task",
				state: {
					status: "completed",
					input: { description: "Find the parser", prompt: "Where are due dates parsed?", subagent_type: "general" },
					output: "src/dates.ts parses them.",
					title: "Find the parser",
					metadata: { sessionId: CHILD },
					time: { start: T0 + 2500, end: T0 + 9000 },
				},
			},
			{ id: p(2, 7), type: "text", text: "Fixed: the day check now allows 29 in leap years." },
			{
				id: p(2, 8),
				type: "step-finish",
				reason: "stop",
				cost: 0.002,
				tokens: { input: 600, output: 40, reasoning: 0, cache: { read: 0, write: 0 } },
			},
		],
	);
	addMessage(db, { id: m(3), ...userBase(PARENT, T0 + 20_000) }, [
		{ id: p(3, 0), type: "text", text: "Now run the linter." },
	]);
	addMessage(db, { id: m(4), ...assistantBase(PARENT, m(3), T0 + 21_000), providerID: "openai", modelID: "gpt-5.1" }, [
		{ id: p(4, 0), type: "text", text: "Lint passes." },
	]);

	addSession(db, {
		id: CHILD,
		parentID: PARENT,
		directory: "/home/dana/work/todo-api",
		title: "Find the parser (@general subagent)",
		time: { created: T0 + 2500, updated: T0 + 9000 },
	});
	addMessage(db, { id: m(5), ...userBase(CHILD, T0 + 2600) }, [
		{ id: p(5, 0), type: "text", text: "Where are due dates parsed?" },
	]);
	addMessage(
		db,
		{ id: m(6), ...assistantBase(CHILD, m(5), T0 + 2700), providerID: "anthropic", modelID: "claude-haiku-4-5" },
		[{ id: p(6, 0), type: "text", text: "src/dates.ts parses them." }],
	);

	addSession(db, {
		id: OTHER,
		directory: "/home/dana/work/blog",
		title: "Rename the draft",
		time: { created: T0 + 100_000, updated: T0 + 130_000 },
		revert: { messageID: m(9), snapshot: "5e1b7a3c44" },
	});
	addMessage(db, { id: m(7), ...userBase(OTHER, T0 + 101_000) }, [
		{ id: p(7, 0), type: "text", text: "Rename draft.md to hello.md" },
	]);
	addMessage(db, { id: m(8), ...assistantBase(OTHER, m(7), T0 + 102_000), providerID: "openai", modelID: "gpt-5.1" }, [
		{ id: p(8, 0), type: "text", text: "Renamed." },
	]);
	addMessage(db, { id: m(9), ...userBase(OTHER, T0 + 120_000) }, [
		{ id: p(9, 0), type: "text", text: "Delete hello.md" },
	]);
	addMessage(db, { id: m(10), ...assistantBase(OTHER, m(9), T0 + 121_000), providerID: "openai", modelID: "gpt-5.1" }, [
		{ id: p(10, 0), type: "text", text: "Deleted." },
	]);
}

/** A message and its parts added to the parent session later (the session grew in opencode). */
export function growParent(db: Database.Database): void {
	addMessage(db, { id: "msg_c0aa0050f001Zx4Cv6Bn8Mq1We", ...userBase(PARENT, T0 + 40_000) }, [
		{ id: "prt_c0aa0050f000Qa2Ws4Ed6Rf8Tg", type: "text", text: "And the changelog?" },
	]);
	addMessage(
		db,
		{
			id: "msg_c0aa0051f001Zx4Cv6Bn8Mq1We",
			...assistantBase(PARENT, "msg_c0aa0050f001Zx4Cv6Bn8Mq1We", T0 + 41_000),
			providerID: "openai",
			modelID: "gpt-5.1",
		},
		[{ id: "prt_c0aa0051f000Qa2Ws4Ed6Rf8Tg", type: "text", text: "Added a line to CHANGELOG.md." }],
	);
}

function jsonFiles(dir: string): Json[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((name) => name.endsWith(".json"))
		.sort()
		.map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")) as Json);
}

/** Moves a storage tree into the database, as opencode 1.2 does on its first start. */
export function migrateStorage(db: Database.Database, storage: string): void {
	for (const project of readdirSync(join(storage, "session")))
		for (const session of jsonFiles(join(storage, "session", project))) {
			addSession(db, session);
			for (const message of jsonFiles(join(storage, "message", String(session.id))))
				addMessage(db, message, jsonFiles(join(storage, "part", String(message.id))));
		}
}
