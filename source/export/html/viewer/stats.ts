/// <reference lib="dom" />
import { messageOf } from "./content.js";
import { num, rec, str, type ViewEntry } from "./data.js";
import { modelName } from "./preview.js";

/** Totals over every entry of the session (all branches). */
export interface SessionStats {
	readonly models: readonly string[];
	/** Message role → count, in first-seen order. */
	readonly roles: ReadonlyMap<string, number>;
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly cacheReadTokens: number;
	readonly cacheWriteTokens: number;
	readonly cost: number;
}

/** Sums usage and counts messages by role. */
export function computeStats(entries: readonly ViewEntry[]): SessionStats {
	const models = new Set<string>();
	const roles = new Map<string, number>();
	let [inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cost] = [0, 0, 0, 0, 0];
	for (const entry of entries) {
		if (entry.type === "model_change") models.add(modelName(entry));
		const message = messageOf(entry);
		if (!message) continue;
		const role = str(message.role) ?? "unknown";
		roles.set(role, (roles.get(role) ?? 0) + 1);
		if (role !== "assistant") continue;
		const model = str(message.model);
		if (model) models.add(str(message.provider) ? `${str(message.provider)}/${model}` : model);
		const usage = rec(message.usage);
		if (!usage) continue;
		inputTokens += num(usage.input) ?? 0;
		outputTokens += num(usage.output) ?? 0;
		cacheReadTokens += num(usage.cacheRead) ?? 0;
		cacheWriteTokens += num(usage.cacheWrite) ?? 0;
		cost += num(rec(usage.cost)?.total) ?? 0;
	}
	models.delete("?");
	return { models: [...models], roles, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cost };
}
