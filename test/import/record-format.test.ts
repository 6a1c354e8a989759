import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../../source/import/detect.js";
import { digestOf, itemHash } from "../../source/import/entry-lines.js";
import type { ImportPlan } from "../../source/import/import-plan.js";
import { type ImportRecordV1, readImportRecord, writeImportRecord } from "../../source/import/import-record.js";
import { importFile } from "../../source/import/import-run.js";
import { appendOrder } from "../../source/import/new-session.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture, importAndOpen, transcript } from "./import-helpers.js";

const options = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };
const NAME = "claude-code-02-tool-heavy.jsonl";

function planOf(path: string): ImportPlan {
	return parseSource(readFileSync(path, "utf8"), path, "auto", { fallbackCwd: options.cwd, cwdGiven: false });
}

/** Rewrites the record of `path`'s import in the first format: an item hash per key. */
function downgrade(path: string): ImportRecordV1 {
	const plan = planOf(path);
	const record = readImportRecord(plan.tool, plan.sourceId)!;
	if (record.version !== 2) throw new Error("expected a v2 record");
	const entries: ImportRecordV1["entries"] = {};
	for (const item of plan.items) entries[item.key] = [record.entries[item.key]!, itemHash(item)];
	const { itemsDigest: _, ...rest } = record;
	const v1: ImportRecordV1 = { ...rest, version: 1, entries };
	writeImportRecord(v1);
	return v1;
}

describe("import records of the first format (a hash per item)", () => {
	const temp = useTempAgentDir();
	const all = readFileSync(fixture(NAME), "utf8")
		.split("\n")
		.filter((line) => line !== "");
	// As in reimport.test.ts: half of this file ends between two turns.
	const cut = Math.floor(all.length / 2);

	it("a source found unchanged against a v1 record stays unchanged", async () => {
		const source = join(temp.root, NAME);
		writeFileSync(source, `${all.join("\n")}\n`);
		const first = await importFile(source, options);
		downgrade(source);
		expect(await importFile(source, options)).toMatchObject({
			status: "unchanged",
			sessionFile: first.status === "imported" ? first.sessionFile : "",
		});
	});

	it("a source that grew is appended to, and its record becomes v2", async () => {
		expect(cut).toBeGreaterThan(0);
		const source = join(temp.root, NAME);
		writeFileSync(source, `${all.slice(0, cut).join("\n")}\n`);
		const first = await importFile(source, options);
		const v1 = downgrade(source);
		writeFileSync(source, `${all.join("\n")}\n`);
		const grown = await importAndOpen(source);
		expect(grown.result.status).toBe("appended");
		expect(grown.result.sessionFile).toBe(first.status === "imported" ? first.sessionFile : "");
		expect(transcript(grown.context)).toEqual(transcript((await importAndOpen(fixture(NAME))).context));
		const plan = planOf(source);
		const now = readImportRecord(plan.tool, plan.sourceId)!;
		expect(now.version).toBe(2);
		expect(now.version === 2 && now.itemsDigest).toBe(digestOf(plan.items));
		// The entries imported first keep their ids.
		for (const [key, [id]] of Object.entries(v1.entries)) expect(now.entries[key]).toBe(id);
	});

	it("a source that changed what a v1 record holds becomes a new session", async () => {
		const source = join(temp.root, NAME);
		writeFileSync(source, `${all.join("\n")}\n`);
		const first = await importFile(source, options);
		downgrade(source);
		const changed = all.join("\n").replace(/"content":"([^"]{4})/, '"content":"changed $1');
		expect(changed).not.toBe(all.join("\n"));
		writeFileSync(source, `${changed}\n`);
		const again = await importFile(source, options);
		expect(again).toMatchObject({
			status: "reimported",
			previousSessionFile: first.status === "imported" ? first.sessionFile : "",
		});
	});
});

describe("import records (one digest of the items)", () => {
	const temp = useTempAgentDir();

	it("a source whose imported items changed only in order is imported anew", async () => {
		const source = join(temp.root, "gemini.json");
		const chat = JSON.parse(readFileSync(fixture("gemini-02-json-2026-03-toolcalls.json"), "utf8"));
		writeFileSync(source, JSON.stringify(chat, null, 2));
		expect((await importFile(source, options)).status).toBe("imported");
		const plan = planOf(source);
		const record = readImportRecord(plan.tool, plan.sourceId)!;
		// The digest binds each key to its item: the same items under swapped keys do not match.
		const keys = Object.keys(record.entries);
		expect(keys.length).toBeGreaterThan(1);
		writeFileSync(source, JSON.stringify({ ...chat, messages: [...chat.messages].reverse() }, null, 2));
		expect((await importFile(source, options)).status).toBe("reimported");
	});
});

describe("import records of a session whose leaf is not its last item", () => {
	const temp = useTempAgentDir();

	it("digest the items in the source's order, so a re-import finds them unchanged", async () => {
		const all = readFileSync(fixture(NAME), "utf8")
			.split("\n")
			.filter((line) => line !== "");
		const first = JSON.parse(all.find((line) => line.includes('"type":"user"'))!) as Record<string, unknown>;
		// A side-chain line last: the main line's leaf is written after it, out of the source's order.
		const side = { ...first, uuid: "side-0001", isSidechain: true, message: { role: "user", content: "aside" } };
		const source = join(temp.root, NAME);
		writeFileSync(source, `${[...all, JSON.stringify(side)].join("\n")}\n`);
		const plan = planOf(source);
		expect(appendOrder(plan)).not.toBe(plan.items);
		const imported = await importFile(source, options);
		expect(imported.status).toBe("imported");
		const record = readImportRecord(plan.tool, plan.sourceId)!;
		expect(record.version === 2 && record.itemsDigest).toBe(digestOf(plan.items));
		expect((await importFile(source, options)).status).toBe("unchanged");
	});
});
