import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { type LoopbackLlmServer, startLoopbackLlmServer, writeLoopModels } from "../helpers/loopback-llm-server.js";
import { runCliAsync } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const NO_KEYS: NodeJS.ProcessEnv = {
	ANTHROPIC_API_KEY: "",
	OPENAI_API_KEY: "",
	GEMINI_API_KEY: "",
	OPENROUTER_API_KEY: "",
};

describe("xcsh -p", () => {
	const temp = useTempAgentDir();
	let project: string;
	let server: LoopbackLlmServer;

	beforeEach(async () => {
		project = join(temp.root, "project");
		mkdirSync(project);
		writeFileSync(join(project, "notes.txt"), "line one\nline two\n");
		server = await startLoopbackLlmServer();
	});
	afterEach(async () => {
		await server.close();
	});

	const run = (args: string[], stdin?: string) =>
		runCliAsync(args, {
			agentDir: temp.agentDir,
			cwd: project,
			env: NO_KEYS,
			...(stdin !== undefined ? { stdin } : {}),
		});

	function writeModels(api: "openai-completions" | "anthropic-messages"): void {
		const baseUrl = api === "openai-completions" ? `${server.baseUrl}/v1` : server.baseUrl;
		writeLoopModels(temp.agentDir, baseUrl, undefined, api);
	}

	it("with no key, the offline model answers, drives a tool and the session is persisted", async () => {
		const result = await run(["-p", "read notes.txt"]);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain("line one");
		expect(result.stderr).toContain("read notes.txt");
		const [session] = await SessionManager.list(project);
		expect(session).toMatchObject({ messageCount: 4, firstMessage: "read notes.txt" });
		const reopened = await SessionManager.open(session!.path);
		expect(reopened.buildSessionContext().messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
		expect(reopened.buildSessionContext().models.default).toBe("xcsh/offline");
	});

	it("an answer holding terminal controls reaches stdout with them made visible", async () => {
		writeFileSync(join(project, "hostile.txt"), "before\u001b]0;PWNED\u0007\u001b[2J\u009b31m after\n");
		const result = await run(["-p", "read hostile.txt"]);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain("before\u241b]0;PWNED\u2407\u241b[2J\\x9b31m after");
		for (const control of ["\u0007", "\u001b", "\u009b"]) expect(result.stdout).not.toContain(control);
	});

	it("reads the prompt from stdin, and --no-session writes nothing", async () => {
		const result = await run(["--no-session"], "hello from a pipe\n");
		expect(result.status).toBe(0);
		expect(result.stdout).toContain('You said: "hello from a pipe"');
		expect(existsSync(join(temp.agentDir, "sessions"))).toBe(false);
	});

	it("an empty prompt, an unknown model and a bad thinking level are one-line errors", async () => {
		expect(await run(["-p"], "")).toMatchObject({
			status: 2,
			stderr: 'Nothing to send: give a prompt (xcsh -p "…") or pipe one on stdin.\n',
		});
		const unknown = await run(["-p", "--model", "nope/model", "hi"]);
		expect(unknown).toMatchObject({ status: 2 });
		expect(unknown.stderr).toBe("Unknown model: nope/model. Run xcsh --list-models to see the available ones.\n");
		const keyless = await run(["-p", "--model", "anthropic/claude-sonnet-4-5", "hi"]);
		expect(keyless).toMatchObject({ status: 2 });
		expect(keyless.stderr).toBe(
			"anthropic/claude-sonnet-4-5 needs ANTHROPIC_API_KEY (or ANTHROPIC_OAUTH_TOKEN). Run xcsh --list-models to see the available ones.\n",
		);
		const thinking = await run(["-p", "--thinking", "huge", "hi"]);
		expect(thinking.status).toBe(2);
		expect(thinking.stderr).toContain('--thinking must be one of off, minimal, low, medium, high, xhigh (got "huge")');
	});

	for (const api of ["openai-completions", "anthropic-messages"] as const) {
		it(`talks to a ${api} endpoint from models.json, with a tool round trip`, async () => {
			writeModels(api);
			server.enqueue(
				{ text: "Let me look.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
				{ text: "The file has two lines.", usage: { input: 120, output: 9, cacheRead: 0, cacheWrite: 0 } },
			);
			const result = await run(["-p", "--model", "loop/loop-model", "what is in notes.txt?"]);
			expect(result.stderr).toContain("read notes.txt");
			expect(result.status).toBe(0);
			expect(result.stdout).toContain("Let me look.");
			expect(result.stdout).toContain("The file has two lines.");
			expect(server.requests).toHaveLength(2);
			const first = server.requests[0]!;
			expect(first.body.model).toBe("loop-model");
			expect(api === "openai-completions" ? first.headers.authorization : first.headers["x-api-key"]).toContain(
				"sk-loop",
			);
			expect(JSON.stringify(server.requests[1]!.body)).toContain("line two");

			const [session] = await SessionManager.list(project);
			const reopened = await SessionManager.open(session!.path);
			const messages = reopened.buildSessionContext().messages;
			expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
			expect(messages.at(-1)).toMatchObject({ role: "assistant", usage: { input: 120, output: 9 } });
			expect(reopened.buildSessionContext().models.default).toBe("loop/loop-model");
		});
	}

	it("a provider error exits 1 with the error, and the session keeps the prompt", async () => {
		writeModels("openai-completions");
		server.enqueue({ status: 500 });
		const result = await run(["-p", "--model", "loop/loop-model", "hello"]);
		expect(result.status).toBe(1);
		expect(result.stderr).toMatch(/^xcsh: .+/m);
		const [session] = await SessionManager.list(project);
		expect(readFileSync(session!.path, "utf8")).toContain('"stopReason":"error"');
	});

	for (const api of ["openai-completions", "anthropic-messages"] as const) {
		it(`${api}: an endpoint that cannot be reached is named with its provider`, async () => {
			// A port that was just free: nothing listens there, so the connection is refused.
			const closed = createServer();
			await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
			const { port } = closed.address() as AddressInfo;
			await new Promise((resolve) => closed.close(resolve));
			const baseUrl = `http://127.0.0.1:${port}/v1`;
			mkdirSync(temp.agentDir, { recursive: true });
			writeFileSync(
				join(temp.agentDir, "models.json"),
				JSON.stringify({
					providers: { loop: { baseUrl, api, apiKey: "k", models: [{ id: "m", contextWindow: 1000 }] } },
				}),
			);
			const result = await run(["-p", "--no-session", "--model", "loop/m", "hello"]);
			expect(result.status).toBe(1);
			expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(
				`xcsh: Cannot reach loop at ${baseUrl} (Connection error.)`,
			);
		});
	}

	it("--continue appends to the newest session of the project", async () => {
		await run(["-p", "first prompt"]);
		await run(["-p", "--continue", "second prompt"]);
		const sessions = await SessionManager.list(project);
		expect(sessions).toHaveLength(1);
		expect(sessions[0]!.messageCount).toBe(4);
	});
});
