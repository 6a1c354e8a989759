import type { AssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import type { SessionMessageEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture, fixtureBytes, importAndOpen } from "./import-helpers.js";

/*
 * Codex writes a response's usage as a `token_count` event (`last_token_usage`, OpenAI's counts:
 * input includes the cached part), before the response's items (0.39, 0.58) or after them
 * (0.104), and often once more unchanged after the tool outputs. Codex adds each new one to
 * `total_token_usage`; the imported assistant messages carry the same figures.
 */

const FILES = [
	"codex-01-cli-0.58-shell-reasoning.jsonl",
	"codex-02-desktop-0.104-compacted-images-redacted.jsonl",
	"codex-03-desktop-0.104-custom-tool-websearch-redacted.jsonl",
	"codex-05-vscode-0.39-patch-apply.jsonl",
] as const;

type Tokens = { input_tokens: number; cached_input_tokens: number; output_tokens: number };

/** The session's total as Codex's last `token_count` gives it. */
function codexTotal(name: string): Tokens {
	let total: Tokens | undefined;
	for (const raw of fixtureBytes(name).toString("utf8").trimEnd().split("\n")) {
		const line = JSON.parse(raw) as {
			type?: string;
			payload?: { type?: string; info?: { total_token_usage?: Tokens } };
		};
		if (line.type === "event_msg" && line.payload?.type === "token_count" && line.payload.info?.total_token_usage)
			total = line.payload.info.total_token_usage;
	}
	if (!total) throw new Error(`no token_count in ${name}`);
	return total;
}

function assistants(entries: readonly unknown[]): AssistantMessage[] {
	return (entries as SessionMessageEntry[]).flatMap((e) =>
		e.type === "message" && e.message.role === "assistant" ? [e.message as AssistantMessage] : [],
	);
}

describe("Codex usage", () => {
	useTempAgentDir();

	it.each(FILES)("%s: the assistant messages add up to Codex's total", async (name) => {
		const { entries } = await importAndOpen(fixture(name));
		const messages = assistants(entries);
		const sum = (pick: (m: AssistantMessage) => number) => messages.reduce((n, m) => n + pick(m), 0);
		const total = codexTotal(name);
		expect(total.output_tokens).toBeGreaterThan(0);
		expect(sum((m) => m.usage.output)).toBe(total.output_tokens);
		expect(sum((m) => m.usage.cacheRead)).toBe(total.cached_input_tokens);
		expect(sum((m) => m.usage.input + m.usage.cacheRead)).toBe(total.input_tokens);
	});

	it("codex-03: a response's usage is its own token_count, the cached part as cache reads", async () => {
		const { entries } = await importAndOpen(fixture(FILES[2]));
		const response = assistants(entries).find((m) =>
			m.content.some((b) => b.type === "toolCall" && b.id === "call_zC8Bb98Ju4Ft4evnpeMpIu85"),
		);
		expect(response?.usage).toMatchObject({
			input: 17203 - 3456,
			cacheRead: 3456,
			output: 358,
			cacheWrite: 0,
			totalTokens: 17203 + 358,
		});
	});
});
