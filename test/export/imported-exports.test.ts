import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonlFormat } from "../../source/export/export-target.js";
import { jsonlExportFromFile } from "../../source/export/jsonl-export.js";
import { importFile } from "../../source/import/import-run.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

// Sessions imported from real files of other agents, exported: a cost the source never gave is
// left out (not written as 0), and a fine-tuning example ends with the assistant message it trains.

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, read field by field in assertions
type Json = Record<string, any>;

const FOREIGN = join(import.meta.dirname, "../fixtures/foreign");

describe("exports of imported sessions", () => {
	const temp = useTempAgentDir();

	async function exported(name: string, format: JsonlFormat): Promise<Json[]> {
		const result = await importFile(join(FOREIGN, name), {
			from: "auto",
			dryRun: false,
			cwd: temp.root,
			cwdGiven: true,
		});
		if (result.status === "skipped") throw new Error(result.reason);
		const out = join(temp.root, `out.${format}.jsonl`);
		await jsonlExportFromFile(result.sessionFile, out, temp.root, { format, scope: { kind: "tree" } });
		return readFileSync(out, "utf8")
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line) as Json);
	}

	it("ATIF of a Codex rollout: token counts, and no cost where Codex gives none", async () => {
		const [trajectory] = await exported("codex-01-cli-0.58-shell-reasoning.jsonl", "atif");
		const metrics = (trajectory!.steps as Json[]).flatMap((s) => (s.metrics ? [s.metrics as Json] : []));
		expect(metrics.length).toBeGreaterThan(30);
		expect(metrics.every((m) => !("cost_usd" in m))).toBe(true);
		expect(trajectory!.final_metrics.total_completion_tokens).toBe(22305);
		expect("total_cost_usd" in trajectory!.final_metrics).toBe(false);
	});

	it("ATIF of a pi session keeps the costs pi wrote", async () => {
		const [trajectory] = await exported("pi-01-v1-large-session-compaction-fixture.jsonl", "atif");
		const costs = (trajectory!.steps as Json[]).flatMap((s) => (s.metrics?.cost_usd ? [s.metrics.cost_usd] : []));
		expect(costs.length).toBeGreaterThan(100);
		expect(trajectory!.final_metrics.total_cost_usd).toBeGreaterThan(0);
	});

	it("openai-sft of the interrupted codex-01: the example ends at its last assistant message", async () => {
		const [example] = await exported("codex-01-cli-0.58-shell-reasoning.jsonl", "openai-sft");
		const messages = example!.messages as Json[];
		expect(messages.at(-1)!.role).toBe("assistant");
		expect(messages.filter((m) => m.role === "tool").length).toBeGreaterThan(30);
	});
});
