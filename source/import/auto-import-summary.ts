import type { SourceTool } from "./import-plan.js";
import type { ImportResult } from "./import-run.js";

/** Each tool as its users name it. */
export const TOOL_NAMES: Record<SourceTool, string> = {
	"claude-code": "Claude Code",
	codex: "Codex",
	gemini: "Gemini CLI",
	opencode: "opencode",
	pi: "pi",
};

/** What one background import brought in, per tool (only tools with something in them). */
export interface ImportArrivals {
	/** Sessions new to xcsh (imported, or imported again as a new session). */
	readonly added: Partial<Record<SourceTool, number>>;
	/** Sessions that grew: their new entries were appended. */
	readonly updated: Partial<Record<SourceTool, number>>;
	/** Sources that could not be imported (their reasons are in the log). */
	readonly skipped: number;
}

/** Counts the results of an import by what happened and by tool. */
export function arrivalsOf(results: readonly ImportResult[]): ImportArrivals {
	const added: Partial<Record<SourceTool, number>> = {};
	const updated: Partial<Record<SourceTool, number>> = {};
	let skipped = 0;
	for (const result of results) {
		switch (result.status) {
			case "imported":
			case "reimported":
				added[result.tool] = (added[result.tool] ?? 0) + 1;
				break;
			case "appended":
				updated[result.tool] = (updated[result.tool] ?? 0) + 1;
				break;
			case "skipped":
				skipped++;
				break;
			case "unchanged":
				break;
		}
	}
	return { added, updated, skipped };
}

function sessions(n: number): string {
	return `${n} session${n === 1 ? "" : "s"}`;
}

/**
 * "1 session from Claude Code", or "4 sessions: 3 from Claude Code, 1 from Codex": the total comes
 * first, so a status line too narrow for the note cuts the tools, never the count.
 */
function perTool(counts: Partial<Record<SourceTool, number>>): string | undefined {
	const tools = (Object.keys(TOOL_NAMES) as SourceTool[]).filter((tool) => (counts[tool] ?? 0) > 0);
	if (tools.length === 0) return undefined;
	if (tools.length === 1) return `${sessions(counts[tools[0]!]!)} from ${TOOL_NAMES[tools[0]!]}`;
	const total = tools.reduce((sum, tool) => sum + counts[tool]!, 0);
	return `${sessions(total)}: ${tools.map((tool) => `${counts[tool]} from ${TOOL_NAMES[tool]}`).join(", ")}`;
}

/**
 * The status line's note of what came in ("imported 4 sessions: 3 from Claude Code, 1 from Codex;
 * updated 1 session from pi"), or undefined when nothing did.
 */
export function describeArrivals(arrivals: ImportArrivals): string | undefined {
	const added = perTool(arrivals.added);
	const updated = perTool(arrivals.updated);
	const parts = [added && `imported ${added}`, updated && `updated ${updated}`].filter(Boolean);
	return parts.length > 0 ? parts.join("; ") : undefined;
}
