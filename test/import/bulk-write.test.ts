import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../../source/import/detect.js";
import { digestOf } from "../../source/import/entry-lines.js";
import { ImportBatch } from "../../source/import/import-batch.js";
import { type ImportRecord, readImportRecord } from "../../source/import/import-record.js";
import { importFile, importPaths } from "../../source/import/import-run.js";
import { appendOrder } from "../../source/import/new-session.js";
import { appendItems } from "../../source/import/session-writer.js";
import { isoTime } from "../../source/import/source-lines.js";
import type { PendingBlob } from "../../source/session/blob-refs.js";
import { prepareForPersistence } from "../../source/session/persist-transform.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { FileEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { FOREIGN, fixture } from "./import-helpers.js";

const options = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };
const FIXTURES = readdirSync(FOREIGN).filter((name) => /\.jsonl?$/.test(name));

/** Entries with ids replaced by their position, so two writings of one plan compare equal. */
function normalised(entries: readonly FileEntry[]): unknown[] {
	const position = new Map<string, string>();
	entries.forEach((entry, i) => {
		if (entry.type !== "session") position.set((entry as { id: string }).id, `#${i}`);
	});
	const text = JSON.stringify(entries, (key, value) => {
		if (key === "importedAt") return "(time)";
		return typeof value === "string" && position.has(value) ? position.get(value) : value;
	});
	return (JSON.parse(text) as Record<string, unknown>[]).map((entry) =>
		entry.type === "session" ? { ...entry, id: "(session)" } : entry,
	);
}

function fileEntries(file: string): FileEntry[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as FileEntry);
}

function record(sourceId: string, file: string): ImportRecord {
	return {
		version: 2,
		tool: "pi",
		sourceId,
		sourcePath: "/src",
		sessionFile: file,
		importer: "t",
		entries: {},
		itemsDigest: "",
	};
}

describe("bulk-written imports", () => {
	const temp = useTempAgentDir();

	it.each(FIXTURES)("%s: the file holds exactly what SessionManager's appends write", async (name) => {
		const result = await importFile(fixture(name), options);
		if (result.status !== "imported") throw new Error(`${result.status}`);
		const written = fileEntries(result.sessionFile);
		const plan = parseSource(readFileSync(fixture(name), "utf8"), fixture(name), "auto", {
			fallbackCwd: options.cwd,
			cwdGiven: false,
		});
		// The reference: the same plan replayed entry by entry through SessionManager.
		let now = plan.startedAt;
		const manager = SessionManager.inMemory(plan.cwd);
		manager.setClock(() => now);
		const root = manager.appendCustomEntry("import", (written[1] as { data: unknown }).data);
		appendItems(manager, appendOrder(plan), new Map(), root, (iso) => {
			now = iso;
		});
		const header = { ...manager.getHeader(), timestamp: plan.startedAt, ...(plan.title ? { title: plan.title } : {}) };
		const blobs: PendingBlob[] = [];
		const expected = [header, ...manager.getEntries()].map((entry) => prepareForPersistence(entry, blobs));
		expect(normalised(written)).toEqual(normalised(expected));
		// The record's digest is the one a re-import makes of the same items, each serialised on its own.
		const kept = readImportRecord(plan.tool, plan.sourceId)!;
		expect(kept.version).toBe(2);
		expect(kept.version === 2 && kept.itemsDigest).toBe(digestOf(plan.items));
		expect(Object.keys(kept.entries).sort()).toEqual(plan.items.map((item) => item.key).sort());
		// Images the lines refer to are in the blob store.
		for (const blob of blobs) expect(existsSync(join(temp.agentDir, "blobs", blob.hash))).toBe(true);
	});

	it("the same source twice in one run is imported once, then found unchanged", async () => {
		const copy = join(temp.root, "copy", "again.jsonl");
		mkdirSync(join(temp.root, "copy"));
		copyFileSync(fixture("claude-code-02-tool-heavy.jsonl"), copy);
		const results = await importPaths([fixture("claude-code-02-tool-heavy.jsonl"), copy], options);
		expect(results.map((r) => r.status)).toEqual(["imported", "unchanged"]);
		expect(await SessionManager.list("/home/marco/projects/spotter")).toHaveLength(1);
	});

	it("never replaces an existing file: the import fails for it and the file keeps its bytes", async () => {
		const dir = join(temp.root, "sessions");
		mkdirSync(dir);
		const taken = join(dir, "taken.jsonl");
		writeFileSync(taken, "precious\n");
		const batch = new ImportBatch();
		await batch.add(taken, 0, (sink) => {
			sink('{"type":"session"}');
			return { record: record("a", taken), blobs: [] };
		});
		const failures = await batch.finish();
		expect((failures.get(taken) as NodeJS.ErrnoException | undefined)?.code).toBe("EEXIST");
		expect(readFileSync(taken, "utf8")).toBe("precious\n");
		expect(readdirSync(dir)).toEqual(["taken.jsonl"]);
		// No record (the folder holds the batch's journal while it links, then nothing).
		expect(readdirSync(join(temp.agentDir, "imports"))).toEqual([]);
	});

	it("a huge session is written as it is built, and appears only once whole", async () => {
		const dir = join(temp.root, "sessions");
		const target = join(dir, "huge.jsonl");
		const line = `{"type":"custom","data":"${"x".repeat(1 << 20)}"}`;
		const batch = new ImportBatch();
		const seenWhileBuilding: string[][] = [];
		await batch.add(target, 0, (sink) => {
			for (let i = 0; i < 40; i++) sink(line);
			// Past 16M characters, lines are on disk already, under a hidden temp name only.
			seenWhileBuilding.push(readdirSync(dir));
			return { record: record("huge", target), blobs: [] };
		});
		await batch.finish();
		expect(seenWhileBuilding[0]).toHaveLength(1);
		expect(seenWhileBuilding[0]![0]).toMatch(/^\.huge\.jsonl\.\d+\.[0-9a-f]+\.tmp$/);
		expect(readdirSync(dir)).toEqual(["huge.jsonl"]);
		const text = readFileSync(target, "utf8");
		expect(text.length).toBe(40 * (line.length + 1));
		expect(text.endsWith(`${line}\n`)).toBe(true);
	});

	it("lines that cannot be built leave nothing behind", async () => {
		const dir = join(temp.root, "sessions");
		const target = join(dir, "broken.jsonl");
		const batch = new ImportBatch();
		await expect(
			batch.add(target, 0, (sink) => {
				sink("{}");
				throw new Error("cannot build");
			}),
		).rejects.toThrow("cannot build");
		expect(await batch.finish()).toEqual(new Map());
		expect(readdirSync(dir)).toEqual([]);
	});

	it("reads source times as before: canonical ones kept, others parsed and formatted", () => {
		const slow = (value: unknown) => {
			const ms = typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : Number.NaN;
			return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
		};
		for (const value of [
			"2025-10-09T12:34:56.789Z",
			"2025-02-28T23:59:59.999Z",
			"2024-02-29T00:00:00.000Z",
			"2025-02-29T00:00:00.000Z",
			"2025-02-31T00:00:00.000Z",
			"2025-13-01T00:00:00.000Z",
			"2025-10-09T12:34:56Z",
			"2025-10-09T14:34:56.789+02:00",
			"not a time",
			1_760_000_000_000,
			undefined,
		])
			expect(isoTime(value)).toBe(slow(value));
	});
});
