import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { estimateTokens } from "../../source/agent/compaction/token-estimate.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { CompactionEntry } from "../../source/session/types.js";
import { writeBigSession } from "../helpers/big-session.js";
import { type LoopbackLlmServer, startLoopbackLlmServer, writeLoopModels } from "../helpers/loopback-llm-server.js";
import { runMeasured } from "../helpers/peak-rss.js";
import { runCliAsync } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const NO_KEYS: NodeJS.ProcessEnv = {
	ANTHROPIC_API_KEY: "",
	OPENAI_API_KEY: "",
	GEMINI_API_KEY: "",
	OPENROUTER_API_KEY: "",
	// Read as a big session is (bodies on disk), at a size a test writes in a moment.
	XCSH_LAZY_ABOVE_BYTES: String(1 << 20),
};

const LOOP_WINDOW = 32_000;
const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");
const MIB = 2 ** 20;

/** Tokens of a request as the compaction's estimate counts them: its characters over four. */
const requestTokens = (body: unknown): number => Math.ceil(JSON.stringify(body).length / 4);

describe("xcsh --resume <a path bigger than the model's window> -p", () => {
	const temp = useTempAgentDir();
	let project: string;
	let server: LoopbackLlmServer;

	beforeEach(async () => {
		project = join(temp.root, "project");
		mkdirSync(project);
		server = await startLoopbackLlmServer();
	});
	afterEach(async () => {
		await server.close();
	});

	const run = (args: string[]) => runCliAsync(args, { agentDir: temp.agentDir, cwd: project, env: NO_KEYS });

	function writeLoopModel(): void {
		writeLoopModels(temp.agentDir, `${server.baseUrl}/v1`, [{ id: "loop-model", contextWindow: LOOP_WINDOW }]);
	}

	it("with the offline model, compacts first (a summary by rule of the older part), then answers", {
		timeout: 60_000,
	}, async () => {
		const file = join(temp.root, "big.jsonl");
		// ~1,000 turns of ~1,000 tokens: some 8 times the offline model's 128k window, on one path.
		writeBigSession(file, 1000, 4000, { cwd: project });
		const result = await run(["--resume", file, "-p", "what next?"]);
		expect(result.stderr).toContain("xcsh: Compacting the context…");
		expect(result.stderr).toMatch(/xcsh: Compacted [\d,]+ tokens into a summary/);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain('You said: "what next?"');

		const reopened = await SessionManager.open(file, { breadcrumb: false });
		const branch = reopened.getBranch();
		// The compaction came before the prompt, so the prompt went out with the compacted context.
		const at = branch.findLastIndex((entry) => entry.type === "compaction");
		const prompt = branch.findLastIndex((entry) => JSON.stringify(entry).includes("what next?"));
		expect(at).toBeGreaterThan(0);
		expect(prompt).toBeGreaterThan(at);
		expect(branch.slice(at, -1).filter((entry) => entry.type === "message")).toHaveLength(1);
		const compaction = branch[at] as CompactionEntry;
		expect(compaction.summary).toContain("1. question 0");
		expect(compaction.summary).toContain("(Written by rule");
		expect(compaction.tokensBefore).toBeGreaterThan(128_000);
		const context = reopened.buildSessionContext().messages;
		expect(context[0]?.role).toBe("compactionSummary");
		expect(context.reduce((sum, message) => sum + estimateTokens(message), 0)).toBeLessThan(128_000);
		await reopened.close();
	});

	it("with a model server, every request it gets is within the model's window, the prompt's after the summary", {
		timeout: 60_000,
	}, async () => {
		writeLoopModel();
		const file = join(temp.root, "big.jsonl");
		// ~200 turns of ~1,000 tokens: 200k tokens against a 32k window.
		writeBigSession(file, 200, 4000, { cwd: project });
		for (let i = 0; i < 20; i++) server.enqueue({ text: `Summary or answer ${i}.` });
		const result = await run(["--resume", file, "--model", "loop/loop-model", "-p", "what next?"]);
		expect(result.stderr).toContain("xcsh: Compacting the context…");
		expect(result.status).toBe(0);
		expect(server.requests.length).toBeGreaterThan(1);
		for (const request of server.requests) expect(requestTokens(request.body)).toBeLessThan(LOOP_WINDOW);
		const last = JSON.stringify(server.requests.at(-1)!.body);
		expect(last).toContain("what next?");
		// The prompt's request carries the last summary the model wrote, and no question of the summarised part.
		expect(last).toContain(`Summary or answer ${server.requests.length - 2}.`);
		expect(last).not.toContain("question 0");
		for (const request of server.requests.slice(0, -1))
			expect(JSON.stringify(request.body)).not.toContain("what next?");
	});

	it("when the summary fails, says so in one line and sends no prompt", { timeout: 60_000 }, async () => {
		writeLoopModel();
		const file = join(temp.root, "big.jsonl");
		writeBigSession(file, 200, 4000, { cwd: project });
		server.enqueue({ status: 400 });
		const result = await run(["--resume", file, "--model", "loop/loop-model", "-p", "what next?"]);
		expect(result.status).toBe(1);
		expect(result.stderr.trimEnd().split("\n").at(-1)).toMatch(
			/^xcsh: Automatic compaction failed \(.+\), so the prompt was not sent: the context since the last compaction \(~[\d,]+ tokens\) is bigger than loop-model's window \(32,000 tokens\); \/compact to try again, or \/model to pick a model with a bigger window$/,
		);
		for (const request of server.requests) {
			expect(requestTokens(request.body)).toBeLessThan(LOOP_WINDOW);
			expect(JSON.stringify(request.body)).not.toContain("what next?");
		}
		const reopened = await SessionManager.open(file, { breadcrumb: false });
		expect(reopened.getBranch().some((entry) => entry.type === "compaction")).toBe(false);
		await reopened.close();
	});

	it("a 200 MB path compacts and answers in bounded memory (peak RSS under 300 MiB, the file read as big)", {
		timeout: 120_000,
	}, async () => {
		const file = join(temp.root, "big.jsonl");
		const written = writeBigSession(file, 2500, 80_000, { cwd: project });
		expect(written.bytes).toBeGreaterThan(200e6);
		// Read at the default size threshold, as a person's 200 MB session is.
		const { XCSH_LAZY_ABOVE_BYTES: _, ...keys } = NO_KEYS;
		const env: NodeJS.ProcessEnv = { ...keys, XCSH_AGENT_DIR: temp.agentDir };
		const result = await runMeasured([BIN, "--resume", file, "-p", "what next?"], { cwd: project, env });
		expect(result.stderr).toMatch(/xcsh: Compacted [\d,]+ tokens into a summary/);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain('You said: "what next?"');
		expect(result.peakRssBytes / MIB).toBeLessThan(300);
	});
});
