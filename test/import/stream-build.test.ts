import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../../source/import/detect.js";
import { digestOf, EntryIds } from "../../source/import/entry-lines.js";
import { SkipError } from "../../source/import/import-plan.js";
import { importFile } from "../../source/import/import-run.js";
import { appendOrder, buildNewSession, newSession } from "../../source/import/new-session.js";
import { buildStreamed, streamTool } from "../../source/import/stream-build.js";
import { entryShape } from "../helpers/entry-shape.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { FOREIGN, fixture, fixtureBytes } from "./import-helpers.js";

// A first import of a Claude Code or Codex source is written as the source is read; it must be the
// session, record digest and entry map that building it from the whole plan makes.

const options = { fallbackCwd: "/projects/fallback", cwdGiven: false };

/** Lines as entries, each id replaced by the position of its entry, the import time left out. */
function shape(text: string): unknown[] {
	return entryShape(text);
}

/** The session and record the plan path builds, next to the streamed ones. */
function both(text: string, path: string) {
	const tool = streamTool(text, "auto");
	if (!tool) throw new Error(`${path} is not streamed`);
	const plan = parseSource(text, path, "auto", options);
	const session = newSession(plan);
	const lines: string[] = [];
	const { record } = buildNewSession(plan, session, (line) => lines.push(line));
	const streamed = buildStreamed(text, path, tool, options);
	if (!streamed) throw new Error(`${path} was imported before`);
	const streamedRecord = JSON.parse(streamed.record.json) as typeof record;
	return { plan, session, lines, record, streamed, streamedRecord };
}

describe("a new session written as its source is read", () => {
	useTempAgentDir();

	const names = readdirSync(FOREIGN).filter((name) => /^(claude-code|codex)-.*\.jsonl(\.gz)?$/.test(name));

	it.each(names)("%s: the same lines, record and file time as from the whole plan", (name) => {
		const path = fixture(name);
		const text = fixtureBytes(name).toString("utf8");
		const { plan, session, lines, record, streamed, streamedRecord } = both(text, path);
		expect(shape(Buffer.from(streamed.body).toString("utf8"))).toEqual(shape(`${lines.join("\n")}\n`));
		expect(streamedRecord.itemsDigest).toBe(record.itemsDigest);
		expect(streamedRecord.itemsDigest).toBe(digestOf(plan.items));
		expect(Object.keys(streamedRecord.entries)).toEqual(Object.keys(record.entries));
		// The record's text has the keys in the order JSON.stringify of a record gives them.
		expect(Object.keys(streamedRecord)).toEqual(Object.keys(record));
		expect(streamed.mtimeMs).toBe(session.mtimeMs);
		expect(streamed.entries).toBe(plan.items.length + 1);
		expect(streamed.head.badLines).toEqual(plan.badLines);
	});

	it("moves the main line's leaf last when side-chain lines follow it, as the plan's order does", (ctx) => {
		const name = "claude-code-01-short-thinking-tools.jsonl";
		const all = readFileSync(fixture(name), "utf8")
			.split("\n")
			.filter((line) => line !== "");
		const first = JSON.parse(all.find((line) => line.includes('"type":"user"'))!) as Record<string, unknown>;
		const side = { ...first, uuid: "side-0001", isSidechain: true, message: { role: "user", content: "aside" } };
		const text = `${[...all, JSON.stringify(side), "{torn"].join("\n")}\n`;
		const { plan, lines, record, streamed, streamedRecord } = both(text, join(ctx.task.name, name));
		expect(appendOrder(plan)).not.toBe(plan.items);
		const written = Buffer.from(streamed.body).toString("utf8");
		expect(shape(written)).toEqual(shape(`${lines.join("\n")}\n`));
		expect(JSON.parse(written.trimEnd().split("\n").at(-1)!).id).toBe(streamedRecord.entries[plan.leafKey!]);
		expect(streamedRecord.itemsDigest).toBe(record.itemsDigest);
		expect(streamed.head.badLines).toEqual([all.length + 2]);
	});

	it("says what the plan path says of a source it cannot import", () => {
		const user = {
			type: "user",
			uuid: "u1",
			parentUuid: null,
			sessionId: "s",
			message: { role: "user", content: "hi" },
		};
		expect(() => buildStreamed(`${JSON.stringify(user)}\n`, "a.jsonl", "claude-code", options)).toThrow(
			new SkipError("no assistant reply in it (xcsh keeps only sessions with one)"),
		);
		expect(() => buildStreamed('{"type":"summary","summary":"x"}\n', "b.jsonl", "claude-code", options)).toThrow(
			new SkipError("no Claude Code session id in the file"),
		);
		expect(() => buildStreamed('{"type":"event_msg"}\n', "c.jsonl", "codex", options)).toThrow(
			new SkipError("no Codex session_meta on the first line"),
		);
		expect(streamTool("  \n", "claude-code")).toBeUndefined();
	});

	it("leaves a source imported before to the plan, which compares it with its record", async (ctx) => {
		const temp = join(process.env.XCSH_AGENT_DIR!, "..");
		const path = join(temp, `${ctx.task.id}.jsonl`);
		writeFileSync(path, readFileSync(fixture("codex-05-vscode-0.39-patch-apply.jsonl")));
		const run = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };
		expect((await importFile(path, run)).status).toBe("imported");
		const text = readFileSync(path, "utf8");
		expect(buildStreamed(text, path, "codex", options)).toBeUndefined();
		expect((await importFile(path, run)).status).toBe("unchanged");
	});
});

describe("entry ids", () => {
	it("are 8 hex digits, never the same twice in a session, and differ between sessions", () => {
		const ids = new EntryIds();
		const seen = new Set<string>();
		for (let i = 0; i < 200_000; i++) seen.add(ids.next());
		expect(seen.size).toBe(200_000);
		expect([...seen].every((id) => /^[0-9a-f]{8}$/.test(id))).toBe(true);
		expect(new EntryIds().next()).not.toBe(new EntryIds().next());
	});
});
