import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BigTool, writeBigSource } from "../../bench/import-big-data.js";
import { parseSource } from "../../source/import/detect.js";
import { readImportRecord } from "../../source/import/import-record.js";
import { importFile } from "../../source/import/import-run.js";
import { buildNewSession, newSession } from "../../source/import/new-session.js";
import { MAX_STREAM_BYTES } from "../../source/import/stream-build.js";
import { entryShape } from "../helpers/entry-shape.js";
import { runMeasured } from "../helpers/peak-rss.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

// A big Claude Code or Codex source is read from its file a chunk at a time and its session built
// to disk: the session and record must be the ones the whole-source plan gives, and the memory a
// small part of the source's size.

const MB = 1024 * 1024;
const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");
const options = { fallbackCwd: "/projects/fallback", cwdGiven: false };

let root: string;
beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "xcsh-bounded-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a big source imported in bounded memory", () => {
	useTempAgentDir();

	it.each<BigTool>(["claude-code", "codex"])("%s: the session and record the whole-source plan gives", async (tool) => {
		const path = join(root, `${tool}-big.jsonl`);
		const size = writeBigSource(tool, path, MAX_STREAM_BYTES + 8 * MB);
		expect(size).toBeGreaterThan(MAX_STREAM_BYTES);
		const result = await importFile(path, { from: "auto", dryRun: false, cwd: options.fallbackCwd, cwdGiven: false });
		if (result.status !== "imported") throw new Error(`not imported: ${JSON.stringify(result)}`);

		const text = readFileSync(path, "utf8");
		const plan = parseSource(text, path, "auto", options);
		const lines: string[] = [];
		const { record } = buildNewSession(plan, newSession(plan), (line) => lines.push(line));
		const written = readFileSync(result.sessionFile, "utf8");
		expect(entryShape(written)).toEqual(entryShape(`${lines.join("\n")}\n`));
		const saved = readImportRecord(plan.tool, plan.sourceId);
		if (saved?.version !== 2) throw new Error("no v2 record");
		expect(saved.itemsDigest).toBe(record.itemsDigest);
		expect(Object.keys(saved.entries)).toEqual(Object.keys(record.entries));
		expect(result.entries).toBe(plan.items.length + 1);
		expect(result.unreadableLines).toEqual(plan.badLines);
		rmSync(path);
	});
});

describe("the built CLI importing a big source", () => {
	it.each<BigTool>(["claude-code", "codex"])(
		"%s: peaks under 1.5 times the source's size above what an empty import takes",
		async (tool) => {
			const agentDir = join(root, `agent-${tool}`);
			mkdirSync(agentDir, { recursive: true, mode: 0o700 });
			const empty = join(root, `empty-${tool}`);
			mkdirSync(empty);
			const path = join(root, `${tool}-rss.jsonl`);
			const size = writeBigSource(tool, path, 96 * MB);
			const env = { XCSH_AGENT_DIR: agentDir };
			const base = await runMeasured([BIN, "import", empty, "--json"], { cwd: root, env });
			const run = await runMeasured([BIN, "import", path, "--json"], { cwd: root, env });
			expect(run.stderr).toBe("");
			expect(run.status).toBe(0);
			expect((JSON.parse(run.stdout) as { status: string }[]).map((r) => r.status)).toEqual(["imported"]);
			expect(run.peakRssBytes - base.peakRssBytes).toBeLessThan(size * 1.5);
			rmSync(path);
		},
	);
});
