import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { describe, expect, it } from "vitest";
import { parseSource } from "../../source/import/detect.js";
import { DATABASE_ALONE, importFile, importPaths } from "../../source/import/import-run.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { StoredEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { FOREIGN, importAndOpen, textOf, toolCalls, transcript, unpairedResults } from "./import-helpers.js";

// The opencode fixtures are hand-made from its published schema (see test/fixtures/foreign/opencode/README.md).
const OPENCODE = join(FOREIGN, "opencode");
const EXPORT = join(OPENCODE, "export-01-tools-compaction-abort.json");
const STORAGE = join(OPENCODE, "storage");
const SESSIONS = join(STORAGE, "session", "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750");
const PARENT = join(SESSIONS, "ses_4f29e0b1affeLk2Mn4Bv6Cx8Za.json");
const CHILD = join(SESSIONS, "ses_4f29df77cffeRt5Yh7Uj9Ik1Ol.json");
const options = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };

function kept(entries: StoredEntry[]): string[] {
	return entries
		.filter((e) => e.type === "custom" && (e as { customType?: string }).customType === "import")
		.map((e) =>
			String(
				(e as { data?: { type?: string; kind?: string } }).data?.type ?? (e as { data?: { kind?: string } }).data?.kind,
			),
		);
}

async function open(file: string) {
	const manager = await SessionManager.open(file, { breadcrumb: false, mustExist: true });
	try {
		return { header: manager.getHeader(), entries: manager.getEntries(), context: manager.buildSessionContext() };
	} finally {
		await manager.close();
	}
}

describe("importing opencode sessions", () => {
	const temp = useTempAgentDir();

	it("an export: prompts with images, thinking, every tool call paired with its result, per-step usage", async () => {
		const opened = await importAndOpen(EXPORT);
		const { result, entries, title } = opened;
		// Every message in the file (the context after the compaction holds only its summary and what follows).
		const messages = entries
			.filter((e) => e.type === "message")
			.map((e) => (e as unknown as { message: AgentMessage }).message);
		const context = { ...opened.context, messages };
		expect(result).toMatchObject({
			tool: "opencode",
			sourceId: "ses_4f2a91c3effeWq8rT2yU6iO0pA",
			cwd: "/home/dana/work/todo-api",
			cwdFrom: "source",
		});
		expect(title).toBe("Fix leap-day parsing in parseDueDate");
		const [first] = context.messages;
		expect(textOf(first!)).toMatch(/^The parseDueDate test fails on leap days/);
		expect((first as unknown as { content: { type: string; mimeType?: string }[] }).content[1]).toMatchObject({
			type: "image",
			mimeType: "image/png",
		});
		expect(toolCalls(context).get("toolu_01HkC2")).toEqual({
			type: "toolCall",
			id: "toolu_01HkC2",
			name: "bash",
			arguments: { command: "npm test -- dates", description: "Run the date tests" },
		});
		expect(unpairedResults(context)).toEqual([]);
		const results = context.messages.filter((m) => m.role === "toolResult");
		expect(results.map((r) => [(r as { toolName: string }).toolName, (r as { isError: boolean }).isError])).toEqual([
			["bash", false],
			["read", false],
			["edit", false],
			["bash", true],
			["write", true],
		]);
		expect(textOf(results[3]!)).toBe("Command timed out after 60000ms");
		expect(textOf(results[4]!)).toBe("[Tool execution was interrupted]");
		// Each step is its own assistant message, with the tokens of its step-finish.
		const assistants = context.messages.filter((m) => m.role === "assistant") as unknown as {
			content: { type: string; thinking?: string }[];
			usage: { input: number; cacheWrite: number };
			stopReason: string;
			errorMessage?: string;
		}[];
		expect(assistants[0]!.content.map((b) => b.type)).toEqual(["thinking", "text", "toolCall"]);
		expect(assistants[0]!.content[0]!.thinking).toBe("I should reproduce the failure before changing anything.");
		expect(assistants[0]!.usage).toMatchObject({ input: 1200, cacheWrite: 1100 });
		expect(assistants.at(-1)).toMatchObject({ stopReason: "aborted", errorMessage: "The operation was aborted." });
		expect(context.models.default).toBe("anthropic/claude-sonnet-4-5");
	});

	it("an export: injected text is sent but not shown, the summary is a compaction, other parts are kept whole", async () => {
		const { context, entries } = await importAndOpen(EXPORT);
		const hidden = entries.find((e) => e.type === "custom_message") as
			| { content: string; display: boolean }
			| undefined;
		expect(hidden).toMatchObject({
			content: "<system-reminder>The user is in build mode.</system-reminder>",
			display: false,
		});
		const compaction = entries.find((e) => e.type === "compaction") as { summary: string } | undefined;
		expect(compaction?.summary).toMatch(/^Summary: fixed parseDueDate/);
		// After the compaction the context starts from its summary.
		expect(transcript(context).at(-3)).toBe("user:Now add a test for 2100-02-28.");
		expect(new Set(kept(entries))).toEqual(new Set(["provenance", "step-start", "step-finish", "patch", "compaction"]));
		const provenance = entries[0] as { data: { source: { session: { slug: string } } } };
		expect(provenance.data.source.session.slug).toBe("quiet-meadow");
	});

	it("the storage tree: parents before subagents, the revert point a branch, the subagent linked to its parent", async () => {
		const results = await importPaths([STORAGE], options);
		expect(results.map((r) => [r.status, r.source])).toEqual([
			["imported", PARENT],
			["imported", CHILD],
		]);
		const [parentResult, childResult] = results as { sessionFile: string }[];
		const parent = await open(parentResult!.sessionFile);
		// Undone by the revert: kept in the file, on a branch the session does not continue from.
		expect(transcript(parent.context)).toEqual([
			"user:Find where due dates are parsed.",
			"assistant:",
			"toolResult:parseDueDate in src/dates.ts parses YYYY-MM-DD.",
			"assistant:Due dates are parsed by `parseDueDate` in src/dates.ts.",
			"branchSummary:",
		]);
		expect(parent.entries.at(-1)).toMatchObject({
			type: "branch_summary",
			summary: "Reverted in opencode: the messages after this point were undone, and are kept on a branch.",
		});
		expect(
			parent.entries.some(
				(e) =>
					e.type === "message" && textOf((e as unknown as { message: never }).message) === "Rewrite it with a regex.",
			),
		).toBe(true);
		const child = await open(childResult!.sessionFile);
		expect(child.header.parentSession).toBe(parentResult!.sessionFile);
		expect((child.entries[0] as { data: { parentSourceId: string } }).data.parentSourceId).toBe(
			"ses_4f29e0b1affeLk2Mn4Bv6Cx8Za",
		);
		expect(child.context.models.default).toBe("openai/gpt-5.1-mini");
		expect(unpairedResults(child.context)).toEqual([]);
		// Importing again finds nothing new.
		expect((await importPaths([STORAGE], options)).map((r) => r.status)).toEqual(["unchanged", "unchanged"]);
	});

	it("one session file of the tree imports on its own; a parent imported later is still named in the provenance", async () => {
		const result = await importFile(CHILD, options);
		expect(result).toMatchObject({ status: "imported", tool: "opencode", sourceId: "ses_4f29df77cffeRt5Yh7Uj9Ik1Ol" });
		if (result.status !== "imported") return;
		const child = await open(result.sessionFile);
		expect(child.header.parentSession).toBeUndefined();
		expect((child.entries[0] as { data: { parentSourceId: string } }).data.parentSourceId).toBe(
			"ses_4f29e0b1affeLk2Mn4Bv6Cx8Za",
		);
	});

	it("an export that grew is appended to", async () => {
		const whole = JSON.parse(readFileSync(EXPORT, "utf8"));
		const source = join(temp.root, "session.json");
		writeFileSync(source, JSON.stringify({ ...whole, messages: whole.messages.slice(0, 4) }, null, 2));
		const first = await importFile(source, options);
		expect(first.status).toBe("imported");
		writeFileSync(source, JSON.stringify(whole, null, 2));
		const grown = await importAndOpen(source);
		expect(grown.result).toMatchObject({
			status: "appended",
			sessionFile: first.status === "imported" ? first.sessionFile : "",
		});
		expect(transcript(grown.context)).toEqual(transcript((await importAndOpen(EXPORT)).context));
	});

	it("a database is left to importPaths, never read as text; a storage tree whose messages moved into it names it", async () => {
		const db = join(temp.root, "opencode.db");
		writeFileSync(db, "SQLite format 3\u0000");
		expect(await importFile(db, options)).toEqual({ status: "skipped", source: db, reason: DATABASE_ALONE });
		// By its first bytes, whatever its name.
		const renamed = join(temp.root, "backup.sqlite");
		writeFileSync(renamed, "SQLite format 3\u0000");
		expect(await importFile(renamed, { ...options, from: "opencode" })).toMatchObject({ reason: DATABASE_ALONE });
		expect(() =>
			parseSource("SQLite format 3\u0000", renamed, "opencode", { fallbackCwd: "/p", cwdGiven: false }),
		).toThrow("an SQLite database, not an opencode export or session file");
		const data = join(temp.root, "data");
		mkdirSync(data);
		cpSync(STORAGE, join(data, "storage"), { recursive: true });
		rmSync(join(data, "storage", "message"), { recursive: true });
		writeFileSync(join(data, "opencode.db"), "SQLite format 3\u0000");
		const moved = join(
			data,
			"storage",
			"session",
			"4b0ea68d7af9a6031a7ffda7ad66e0cb83315750",
			"ses_4f29e0b1affeLk2Mn4Bv6Cx8Za.json",
		);
		const reason = `no messages of this opencode session in its storage tree: opencode 1.2 moved them into ${join(data, "storage", "..", "opencode.db")}, import that`;
		expect(await importFile(moved, options)).toMatchObject({ status: "skipped", reason });
		expect(await importFile(moved, { ...options, from: "opencode" })).toMatchObject({ status: "skipped", reason });
	});

	it("other files given as opencode's are skipped with their reasons", async () => {
		const other = join(temp.root, "other.json");
		writeFileSync(other, '{"sessionId": "x", "messages": []}');
		expect(await importFile(other, { ...options, from: "opencode" })).toMatchObject({
			reason: "not an opencode export or session file",
		});
		writeFileSync(other, '{"info": {"title": "no id"}, "messages": []}');
		expect(await importFile(other, { ...options, from: "opencode" })).toMatchObject({
			reason: "an opencode session without an id",
		});
		// A session file whose storage has no messages for it (and no database beside it).
		const tree = join(temp.root, "tree");
		cpSync(join(STORAGE, "session"), join(tree, "storage", "session"), { recursive: true });
		const lone = join(
			tree,
			"storage",
			"session",
			"4b0ea68d7af9a6031a7ffda7ad66e0cb83315750",
			"ses_4f29e0b1affeLk2Mn4Bv6Cx8Za.json",
		);
		expect(await importFile(lone, options)).toMatchObject({
			reason: `no messages of this opencode session under ${join(tree, "storage", "message")}`,
		});
	});

	it("a broken export is skipped with its reason", async () => {
		const bad = join(temp.root, "bad.json");
		writeFileSync(bad, '{\n  "info": {"id": "ses_x"},\n  "parts": [');
		expect(await importFile(bad, { ...options, from: "opencode" })).toEqual({
			status: "skipped",
			source: bad,
			reason: "not JSON (an opencode export is one JSON object)",
		});
	});
});
