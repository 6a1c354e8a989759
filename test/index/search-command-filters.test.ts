import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { describe, expect, it, vi } from "vitest";
import {
	COMPACTED_MARK,
	hitRow,
	runSearchCommand,
	SEARCH_USAGE,
	type SearchFlags,
} from "../../source/cli/search-command.js";
import type { SearchHit } from "../../source/index/session-index.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { writeSession } from "./session-fixtures.js";

const DAY = 86_400_000;

interface Captured {
	out: string;
	err: string;
	code: number;
}

async function run(query: string, flags: Partial<SearchFlags> = {}): Promise<Captured> {
	const captured = { out: "", err: "", code: 0 };
	const io = {
		stdout: (text: string) => {
			captured.out += text;
		},
		stderr: (text: string) => {
			captured.err += text;
		},
		cwd: "/work/alpha",
	};
	captured.code = await runSearchCommand(query, { json: false, limit: 20, all: false, ...flags }, io);
	return captured;
}

/** A session whose entries carry the timestamp `at` (SessionManager stamps entries with `new Date()`). */
async function writeSessionAt(cwd: string, at: Date, messages: readonly AgentMessage[]): Promise<string> {
	vi.useFakeTimers({ toFake: ["Date"], now: at });
	try {
		return await writeSession(cwd, messages);
	} finally {
		vi.useRealTimers();
	}
}

function localDay(ms: number): string {
	const d = new Date(ms);
	return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

async function json(query: string, flags: Partial<SearchFlags> = {}): Promise<SearchHit[]> {
	const { out, err, code } = await run(query, { ...flags, json: true });
	expect(err).toBe("");
	expect(code).toBe(0);
	return JSON.parse(out) as SearchHit[];
}

describe("xcsh search filters", () => {
	const temp = useTempAgentDir();
	const now = Date.now();
	const old = new Date(now - 40 * DAY);
	const recent = new Date(now - 2 * 3_600_000);

	async function sessions(): Promise<void> {
		await writeSessionAt("/work/alpha", old, [userMessage("old kafka question"), assistantMessage("old kafka answer")]);
		await writeSessionAt("/work/alpha", recent, [
			userMessage("new kafka question"),
			assistantMessage("new kafka answer"),
			toolResultMessage("kafka tool output"),
		]);
		await writeSessionAt("/work/beta", recent, [userMessage("beta kafka question"), assistantMessage("Beta.")]);
	}

	it("--role picks user, assistant or tool results", async () => {
		await sessions();
		expect((await json("kafka", { role: "user" })).map((h) => h.snippet).sort()).toEqual([
			"new [kafka] question",
			"old [kafka] question",
		]);
		expect((await json("kafka", { role: "assistant" })).every((h) => h.role === "assistant")).toBe(true);
		const tool = await json("kafka", { role: "tool" });
		expect(tool).toHaveLength(1);
		expect(tool[0]).toMatchObject({ role: "toolResult", snippet: "[kafka] tool output" });
	});

	it("--since and --until take a span ago, a day and an ISO time; --all keeps them", async () => {
		await sessions();
		expect((await json("kafka", { since: "7d" })).map((h) => h.snippet).sort()).toEqual([
			"[kafka] tool output",
			"new [kafka] answer",
			"new [kafka] question",
		]);
		expect((await json("kafka", { until: "1w" })).map((h) => h.snippet).sort()).toEqual([
			"old [kafka] answer",
			"old [kafka] question",
		]);
		// a bare day: since is that day's start, until its end, so one day matches itself
		const day = localDay(old.getTime());
		expect(await json("kafka", { since: day, until: day })).toHaveLength(2);
		expect(await json("kafka", { since: new Date(old.getTime() + 60_000).toISOString() })).toHaveLength(3);
		const everywhere = await json("kafka", { all: true, since: "30m" });
		expect(everywhere).toEqual([]);
		expect((await json("kafka", { all: true, since: "1d", role: "user" })).map((h) => h.cwd).sort()).toEqual([
			"/work/alpha",
			"/work/beta",
		]);
	});

	it("JSON hits carry the compacted flag; the text output marks compacted hits", async () => {
		await sessions();
		const hits = await json("question", { since: "1d" });
		expect(hits[0]).toHaveProperty("compacted", false);
		const { out } = await run("question", { since: "1d" });
		expect(out).not.toContain(COMPACTED_MARK);
		const hit: SearchHit = { ...hits[0]!, compacted: true };
		expect(hitRow(hit, new Date(hit.timestamp))).toEqual([
			"just now",
			"alpha",
			hit.sessionId.slice(0, 8),
			"",
			"user (compacted)",
			"new kafka [question]",
		]);
	});

	it("bad values: one line on stderr, exit code 2, nothing on stdout", async () => {
		await sessions();
		const cases: [Partial<SearchFlags>, string][] = [
			[{ role: "robot" }, '--role takes user, assistant or tool (got "robot")'],
			[
				{ since: "yesterday" },
				'--since takes a day (2026-11-01), an ISO time (2026-11-01T14:30) or a span ago (30m, 12h, 7d, 2w) (got "yesterday")',
			],
			[
				{ until: "2026-02-30" },
				'--until takes a day (2026-11-01), an ISO time (2026-11-01T14:30) or a span ago (30m, 12h, 7d, 2w) (got "2026-02-30")',
			],
			[{ since: "1d", until: "2d" }, "--since is later than --until: nothing can match"],
		];
		for (const [flags, message] of cases) {
			const result = await run("kafka", flags);
			expect(result).toEqual({ out: "", err: `${message}\n`, code: 2 });
		}
	});

	it("the built CLI takes the flags, says what went wrong, and lists them in --help", () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		const bad = runCli(["search", "kafka", "--role", "robot"], { agentDir: temp.agentDir, cwd: project });
		expect(bad).toEqual({ status: 2, stdout: "", stderr: '--role takes user, assistant or tool (got "robot")\n' });
		const none = runCli(["search", "kafka", "--role", "tool", "--since", "7d", "--until", "2099-01-01T00:00Z"], {
			agentDir: temp.agentDir,
			cwd: project,
		});
		expect(none).toEqual({ status: 0, stdout: 'No matches for "kafka" in this project (try --all).\n', stderr: "" });
		const usage = runCli(["search", "--since", "7d"], { agentDir: temp.agentDir, cwd: project });
		expect(usage).toEqual({ status: 2, stdout: "", stderr: `${SEARCH_USAGE}\n` });
		expect(SEARCH_USAGE).toBe(
			"Usage: xcsh search <words…> [--all] [--json] [--limit N] [--role user|assistant|tool] [--since <when>] [--until <when>]",
		);
		const help = runCli(["--help"], { agentDir: temp.agentDir, cwd: project }).stdout;
		expect(help).toContain("--role user|assistant|tool, --since/--until <when>");
		expect(help).toContain("--role <role>        search: only user, assistant or tool messages");
		expect(help).toContain(
			"--since <when>       search: entries from then on: 2026-11-01 (that day's start), an ISO time, or 30m/12h/7d/2w ago",
		);
		expect(help).toContain(
			"--until <when>       search: entries up to then: 2026-11-01 (that day's end), an ISO time, or 30m/12h/7d/2w ago",
		);
	});
});
