import type { Usage } from "@mariozechner/pi-ai";
import { usageOf } from "./message-build.js";
import { isRecord } from "./source-lines.js";

/*
 * Codex's `token_count` events: after each model response Codex adds the response's usage
 * (`info.last_token_usage`) to `info.total_token_usage` and writes both; it often writes the same
 * event again, unchanged, after the tool outputs. A new total is a new response's usage.
 */

function tokens(value: unknown, key: string): number {
	return isRecord(value) && typeof value[key] === "number" ? value[key] : 0;
}

/** Reads a rollout's `token_count` events into each response's usage. */
export class CodexUsage {
	#lastTotal: string | undefined;

	/**
	 * The usage of the response a `token_count` payload reports, in pi-ai's terms (OpenAI counts
	 * the cached input inside `input_tokens`: it becomes `cacheRead`); undefined for a repeat or
	 * an event without counts.
	 */
	read(payload: Record<string, unknown>): Usage | undefined {
		const info = payload.info;
		if (!isRecord(info) || !isRecord(info.last_token_usage)) return undefined;
		const total = JSON.stringify(info.total_token_usage ?? null);
		if (total !== "null" && total === this.#lastTotal) return undefined;
		this.#lastTotal = total;
		const last = info.last_token_usage;
		const cached = tokens(last, "cached_input_tokens");
		return usageOf({
			input: tokens(last, "input_tokens") - cached,
			cacheRead: cached,
			output: tokens(last, "output_tokens"),
		});
	}
}
