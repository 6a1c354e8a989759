import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIG_SESSION_LAST_ANSWER, type BigSession, writeBigSession } from "../helpers/big-session.js";
import { runMeasured } from "../helpers/peak-rss.js";

const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");
const CHILD = resolve(import.meta.dirname, "../helpers/big-session-child.mjs");
/** Longer than V8's longest string (0x1fffffe8 characters): no whole-file read can hold it. */
const TURNS = 600;
const TOOL_RESULT_BYTES = 1 << 20;
const MB = 1024 * 1024;

describe("a session bigger than the longest string", () => {
	let root: string;
	let agentDir: string;
	let file: string;
	let written: BigSession;

	beforeAll(() => {
		root = mkdtempSync(join(tmpdir(), "xcsh-big-"));
		agentDir = join(root, "agent");
		mkdirSync(agentDir, { recursive: true, mode: 0o700 });
		file = join(root, "big.jsonl");
		written = writeBigSession(file, TURNS, TOOL_RESULT_BYTES, { compactBeforeLast: 3 });
		expect(written.bytes).toBeGreaterThan(0x1fffffe8);
	});
	afterAll(() => rmSync(root, { recursive: true, force: true }));

	it("sessions info reads it, in a fraction of its size in memory", async () => {
		const run = await runMeasured([BIN, "sessions", "info", file, "--json"], {
			cwd: root,
			env: { XCSH_AGENT_DIR: agentDir },
		});
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
		const info = JSON.parse(run.stdout) as {
			messages: Record<string, number>;
			version: number;
			skippedLines: unknown[];
			context: { messages: number };
		};
		expect(info.version).toBe(3);
		// The summary, then the three kept turns.
		expect(info.context.messages).toBe(1 + 3 * 4);
		expect(info.messages).toEqual({ user: TURNS, assistant: 2 * TURNS, toolResult: TURNS });
		expect(info.skippedLines).toEqual([]);
		expect(run.peakRssBytes).toBeLessThan(250 * MB);
	});

	it("opens, continues (the append lands and reloads) and forks through the API in bounded memory", async () => {
		const run = await runMeasured([CHILD, file], { cwd: root, env: { XCSH_AGENT_DIR: agentDir } });
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
		const seen = JSON.parse(run.stdout) as {
			lastText: string;
			entriesOnDisk: number;
			reloaded: string;
			entries: number;
			fork: { sessionFile: string; previousSessionFile: string };
			forkedEntries: number;
			forkedLast: string;
		};
		expect(seen.lastText).toBe(BIG_SESSION_LAST_ANSWER);
		expect(seen.entriesOnDisk).toBeGreaterThanOrEqual(TURNS);
		expect(seen.reloaded).toBe("appended");
		expect(seen.entries).toBe(written.entries + 1);
		expect(seen.fork.previousSessionFile).toBe(file);
		expect(seen.forkedEntries).toBe(written.entries + 1);
		expect(seen.forkedLast).toBe("appended");
		// The fork is a full copy: one more header, the same entries.
		expect(Math.abs(statSync(seen.fork.sessionFile).size - statSync(file).size)).toBeLessThan(1024);
		expect(run.peakRssBytes).toBeLessThan(250 * MB);
	});

	it("passes the doctor, which says it is big and that --slim would shrink it, in bounded memory", async () => {
		const run = await runMeasured([BIN, "doctor", file], { cwd: root, env: { XCSH_AGENT_DIR: agentDir } });
		expect(run.status).toBe(0);
		expect(run.stdout).toContain("try: xcsh doctor --slim");
		expect(run.peakRssBytes).toBeLessThan(250 * MB);
	});
});
