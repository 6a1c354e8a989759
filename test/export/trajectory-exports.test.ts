import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonlFormat } from "../../source/export/export-target.js";
import { jsonlExportFromFile } from "../../source/export/jsonl-export.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { atifErrors } from "../helpers/atif-validator.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { agentTurn, resultOf, storySession, TOKEN } from "./trajectory-sessions.js";

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, read field by field in assertions
type Json = Record<string, any>;

const FIXTURES = join(import.meta.dirname, "../fixtures");

function jsonLines(path: string): Json[] {
	return readFileSync(path, "utf8")
		.trimEnd()
		.split("\n")
		.map((line) => JSON.parse(line) as Json);
}

/**
 * The example ends with an assistant message, and every tool call but the last message's (the
 * target, as in OpenAI's function-calling examples) is answered by exactly one tool message right
 * after its assistant message, with no other tool message.
 */
function sftPairingErrors(example: Json): string[] {
	const errors: string[] = [];
	const messages = example.messages as Json[];
	if (messages.at(-1)?.role !== "assistant") errors.push(`the last message is ${messages.at(-1)?.role}`);
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i]!;
		if (message.role === "tool") errors.push(`message ${i}: a tool message no assistant call asked for`);
		if (message.role !== "assistant") continue;
		if (message.content === undefined && message.tool_calls === undefined) errors.push(`message ${i}: empty`);
		const calls = (message.tool_calls ?? []) as Json[];
		for (const [k, call] of calls.entries()) {
			const answer = messages[i + 1 + k];
			if (i < messages.length - 1 && (answer?.role !== "tool" || answer.tool_call_id !== call.id))
				errors.push(`message ${i}: call ${call.id} has no tool message`);
			if (typeof call.function.arguments !== "string") errors.push(`call ${call.id}: arguments must be a string`);
			else JSON.parse(call.function.arguments);
		}
		i += calls.length;
	}
	const names = new Set(((example.tools ?? []) as Json[]).map((tool) => tool.function.name));
	for (const message of messages)
		for (const call of (message.tool_calls ?? []) as Json[])
			if (!names.has(call.function.name)) errors.push(`tool ${call.function.name} is not in tools`);
	return errors;
}

describe("--format atif: one ATIF trajectory per branch, valid against the published field list", () => {
	const temp = useTempAgentDir();

	async function story(): Promise<{ file: string; ids: Awaited<ReturnType<typeof storySession>>["ids"] }> {
		const { session, ids } = await storySession(temp.root);
		await session.close();
		return { file: session.getSessionFile()!, ids };
	}

	it("the validator refuses what the RFC refuses (so passing it means something)", () => {
		const good = {
			schema_version: "ATIF-v1.4",
			session_id: "s",
			agent: { name: "a", version: "1" },
			steps: [
				{ step_id: 1, source: "user", message: "hi", timestamp: "2025-10-11T10:30:00Z" },
				{
					step_id: 2,
					source: "agent",
					message: "",
					tool_calls: [{ tool_call_id: "c", function_name: "f", arguments: {} }],
					observation: { results: [{ source_call_id: "c", content: "x" }] },
				},
			],
		};
		expect(atifErrors(good)).toEqual([]);
		const broken = structuredClone(good) as Json;
		broken.steps[0].step_id = 3;
		broken.steps[0].metrics = { prompt_tokens: 1 };
		broken.steps[0].timestamp = "yesterday";
		broken.steps[1].observation.results[0].source_call_id = "nope";
		broken.steps[1].tool_calls[0].arguments = "[]";
		broken.agent.version = undefined;
		broken.surprise = 1;
		expect(atifErrors(broken)).toEqual([
			"trajectory.surprise: not an ATIF field",
			"agent.version: required",
			"steps[0].step_id: expected ordinal 1, got 3",
			"steps[0].metrics: only applicable when source is 'agent'",
			"steps[0].timestamp: invalid ISO 8601 (yesterday)",
			"steps[1].tool_calls[0].arguments: must be object",
			"steps[1].observation.results[0].source_call_id: nope is not a tool call of this step",
		]);
	});

	it("a tree becomes one line per branch: steps, tool calls with their observations, metrics, models, summaries and labels", async () => {
		const { file, ids } = await story();
		const out = join(temp.root, "story.jsonl");
		const result = runCli(["--export", file, out, "--format", "atif"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(result).toMatchObject({ status: 0, stderr: "" });
		expect(result.stdout).toBe(
			`Exported to: ${out}\n2 trajectories, one per branch\n1 secret redacted (1 github-token)\n`,
		);
		const trajectories = jsonLines(out);
		expect(trajectories.map((t) => t.extra.xcsh.leaf_id)).toEqual([ids.sideLeaf, ids.mainLeaf]);
		for (const trajectory of trajectories) expect(atifErrors(trajectory)).toEqual([]);
		const [side, main] = trajectories as [Json, Json];
		expect(main.schema_version).toBe("ATIF-v1.4");
		expect(main.session_id).toMatch(new RegExp(`:${ids.mainLeaf}$`));
		expect(main.agent).toEqual({
			name: "xcsh",
			version: JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")).version,
			model_name: "claude-sonnet-4-5",
			extra: { provider: "anthropic" },
		});
		const steps = main.steps as Json[];
		expect(steps.map((s) => s.source)).toEqual([
			"user",
			"agent",
			"agent",
			"system",
			"user",
			"agent",
			"agent",
			"user",
			"agent",
		]);
		expect(steps[0]).toMatchObject({ message: "Why does the build fail? FIRSTPROMPT", extra: { label: "start" } });
		expect(steps[1]).toMatchObject({
			message: "Let me look.",
			model_name: "claude-sonnet-4-5",
			reasoning_effort: "high",
			reasoning_content: "thinking about Let me look.",
			tool_calls: [{ tool_call_id: "call_1", function_name: "bash", arguments: { command: "npm test", timeout: 60 } }],
			observation: { results: [{ source_call_id: "call_1", content: expect.stringContaining("1 failing test") }] },
			metrics: { prompt_tokens: 1600, completion_tokens: 200, cached_tokens: 500, cost_usd: 0.0066 },
		});
		expect(JSON.stringify(steps[1])).not.toContain(TOKEN);
		expect(steps[1]!.observation.results[0].content).toContain("[REDACTED:github-token]");
		expect(steps[1]!.observation.results[0].content).toContain("[image: image/png]");
		expect(steps[3]).toMatchObject({ message: "An extension note CUSTOMNOTE", extra: { kind: "custom_message" } });
		expect(steps[4]!.message).toBe("And this screenshot? IMAGEPROMPT\n[image: image/png]");
		// call_3 was aborted: the call stays, with no observation for it.
		expect(steps[5]!.observation.results.map((r: Json) => r.source_call_id)).toEqual(["call_2"]);
		expect(steps[6]).toMatchObject({ model_name: "gpt-5", extra: { provider: "openai" } });
		expect(main.final_metrics).toMatchObject({ total_steps: 9, total_prompt_tokens: 3 * 1600 + 2 * 100 });
		expect(main.extra.labels).toEqual({ [ids.prompt]: "start" });
		expect(main.extra.branch_summaries).toEqual([]);
		const sideSteps = side.steps as Json[];
		expect(sideSteps[2]).toMatchObject({
			source: "system",
			message: "Tried to skip the test SUMMARYTEXT",
			extra: { kind: "branch_summary", from_id: ids.firstTurn },
		});
		expect(side.extra.branch_summaries).toEqual([{ step_id: 3, entry_id: ids.summary, from_id: ids.firstTurn }]);
		expect(JSON.stringify(side)).not.toContain("FINALPROMPT");
	});

	it("--branch writes the last entry's path; a .json name holds one trajectory, and refuses several", async () => {
		const { file, ids } = await story();
		const one = join(temp.root, "one.json");
		expect(
			runCli(["--export", file, one, "--format", "atif", "--branch"], { agentDir: temp.agentDir, cwd: temp.root })
				.stdout,
		).toBe(`Exported to: ${one}\n1 trajectory\n1 secret redacted (1 github-token)\n`);
		const trajectory = JSON.parse(readFileSync(one, "utf8")) as Json;
		expect(atifErrors(trajectory)).toEqual([]);
		expect(trajectory.session_id).toBe(trajectory.extra.xcsh.session_id);
		expect(trajectory.extra.xcsh.leaf_id).toBe(ids.mainLeaf);
		expect(readFileSync(one, "utf8").split("\n").length).toBeGreaterThan(trajectory.steps.length);
		expect(
			runCli(["--export", file, join(temp.root, "two.json"), "--format", "atif"], {
				agentDir: temp.agentDir,
				cwd: temp.root,
			}),
		).toMatchObject({
			status: 1,
			stderr: "2 branches do not fit in one ATIF .json file: use a .jsonl name (one trajectory per line) or --branch\n",
		});
		expect(readdirSync(temp.root)).not.toContain("two.json");
	});

	it("every session imported from the real foreign fixtures exports as valid ATIF and OpenAI lines", async () => {
		const imported = runCli(["import", join(FIXTURES, "foreign"), "--cwd", temp.root], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		expect(imported.status === 0 || imported.status === 1).toBe(true);
		const sessions = readdirSync(join(temp.agentDir, "sessions"), { recursive: true, encoding: "utf8" })
			.filter((name) => name.endsWith(".jsonl"))
			.map((name) => join(temp.agentDir, "sessions", name));
		expect(sessions.length).toBeGreaterThanOrEqual(10);
		let trajectories = 0;
		let examples = 0;
		for (const [n, session] of sessions.entries()) {
			for (const format of ["atif", "openai-sft"] as JsonlFormat[]) {
				const out = join(temp.root, `out-${n}.${format}.jsonl`);
				await jsonlExportFromFile(session, out, temp.root, { format, scope: { kind: "tree" } });
				for (const record of jsonLines(out)) {
					if (format === "atif") {
						expect(atifErrors(record), session).toEqual([]);
						trajectories++;
					} else {
						expect(sftPairingErrors(record), session).toEqual([]);
						examples++;
					}
				}
			}
		}
		expect(trajectories).toBeGreaterThanOrEqual(sessions.length);
		expect(examples).toBe(trajectories);
	});
});

describe("--format openai-sft: chat fine-tuning lines", () => {
	const temp = useTempAgentDir();

	it("one line per branch; calls and tool messages match by tool_call_id; tools listed; no thinking, no system prompt", async () => {
		const { session } = await storySession(temp.root);
		await session.close();
		const out = join(temp.root, "sft.jsonl");
		const result = runCli(["--export", session.getSessionFile()!, out, "--format", "openai-sft"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		expect(result.stdout).toBe(`Exported to: ${out}\n2 examples, one per branch\n1 secret redacted (1 github-token)\n`);
		const [side, main] = jsonLines(out) as [Json, Json];
		for (const example of [side, main]) expect(sftPairingErrors(example)).toEqual([]);
		const messages = main.messages as Json[];
		expect(messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"tool",
			"assistant",
			"user",
			"user",
			"assistant",
			"tool",
			"assistant",
			"user",
			"assistant",
		]);
		expect(messages[1]).toEqual({
			role: "assistant",
			content: "Let me look.",
			tool_calls: [
				{
					id: "call_1",
					type: "function",
					function: { name: "bash", arguments: '{"command":"npm test","timeout":60}' },
				},
			],
		});
		expect(messages[2]).toMatchObject({ role: "tool", tool_call_id: "call_1" });
		expect(messages[2]!.content).toContain("[REDACTED:github-token]");
		// The extension's note reaches the model as a user message.
		expect(messages[4]).toEqual({ role: "user", content: "An extension note CUSTOMNOTE" });
		expect(messages[5]!.content).toEqual([
			{ type: "text", text: "And this screenshot? IMAGEPROMPT" },
			{
				type: "image_url",
				image_url: { url: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/]{3000,}=*$/) },
			},
		]);
		// call_3 was aborted with no result: it is left out, so every call has its answer.
		expect(messages[6]!.tool_calls.map((c: Json) => c.id)).toEqual(["call_2"]);
		const tools = new Map((main.tools as Json[]).map((tool) => [tool.function.name, tool.function]));
		expect([...tools.keys()].sort()).toEqual(["Grep", "bash"]);
		expect(tools.get("bash")!.parameters).toMatchObject({ type: "object", required: ["command"] });
		expect(tools.get("Grep")!.parameters).toEqual({
			type: "object",
			properties: { pattern: { type: "string" }, path: { type: "string" }, "-n": { type: "boolean" } },
		});
		expect(readFileSync(out, "utf8")).not.toContain("thinking about");
		expect(readFileSync(out, "utf8")).not.toContain('"role":"system"');
		// On the side branch call_1 has no result (the branch left before it): the call is left out, the text kept.
		expect(side.messages).toEqual([
			{ role: "user", content: "Why does the build fail? FIRSTPROMPT" },
			{ role: "assistant", content: "Let me look." },
			{ role: "user", content: expect.stringContaining("Tried to skip the test SUMMARYTEXT") },
			{ role: "user", content: "Try another way SIDEPROMPT" },
			{ role: "assistant", content: "Another way SIDEANSWER" },
		]);
	});

	it("--system puts the session's system prompt first, --thinking keeps the reasoning; --branch writes one line", async () => {
		const session = await SessionManager.create(temp.root);
		session.appendSessionInit({ systemPrompt: `You are a test agent. Key ${TOKEN}`, tools: ["read", "bash"] });
		session.appendMessage(userMessage("hello"));
		session.appendMessage(agentTurn("hi", [{ id: "c1", name: "read", args: { path: "x" } }]));
		session.appendMessage(resultOf("c1", "read", "contents"));
		session.appendMessage(assistantMessage("done"));
		await session.close();
		const out = join(temp.root, "sys.jsonl");
		const result = runCli(
			["export", session.getSessionFile()!, "--format", "openai-sft", "--system", "--branch", "--thinking", out],
			{ agentDir: temp.agentDir, cwd: temp.root },
		);
		expect(result).toMatchObject({ status: 0, stderr: "" });
		expect(result.stdout).toBe(`Exported to: ${out}\n1 example\n1 secret redacted (1 github-token)\n`);
		const [example] = jsonLines(out) as [Json];
		expect(example.messages[0]).toEqual({
			role: "system",
			content: "You are a test agent. Key [REDACTED:github-token]",
		});
		expect(example.messages[2]).toMatchObject({ role: "assistant", reasoning_content: "thinking about hi" });
		expect(example.tools.map((t: Json) => t.function.name)).toEqual(["read", "bash"]);
		expect(sftPairingErrors(example)).toEqual([]);
	});

	it("without a session_init, --system is the prompt xcsh builds for the session's folder", async () => {
		const session = await SessionManager.create(temp.root);
		session.appendMessage(userMessage("hello"));
		session.appendMessage(assistantMessage("hi"));
		await session.close();
		const out = join(temp.root, "default.jsonl");
		runCli(["--export", session.getSessionFile()!, out, "--format", "openai-sft", "--system"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		const [example] = jsonLines(out) as [Json];
		expect(example.messages[0].role).toBe("system");
		expect(example.messages[0].content).toContain("You are xcsh, a coding agent");
		expect(example.messages[0].content).toContain(`Working directory: ${temp.root}`);
	});
});
