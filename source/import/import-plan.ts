import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ImageContent, TextContent } from "@mariozechner/pi-ai";
import type { KeyTable } from "./key-table.js";

/** The tools xcsh imports sessions from. */
export type SourceTool = "claude-code" | "codex" | "gemini" | "opencode" | "pi";

/** Every source tool, in the order `--from` lists them. */
export const SOURCE_TOOLS: readonly SourceTool[] = ["claude-code", "codex", "gemini", "opencode", "pi"];

/**
 * Written into every imported session's provenance entry and import record; bump when the mapping
 * changes. An earlier import whose items the new mapping gives differently is imported again as a
 * new session (the earlier one is left as it was); one it gives the same is unchanged or appended to.
 * 2: Claude Code responses with their parallel calls, compactions, usage, snapshot times, subagents.
 * 3: Codex usage, prompts only in user_message events, rollbacks, <turn_aborted> notes; pi v1 kept entries.
 */
export const IMPORTER_VERSION = "xcsh-import/3";

/** The `customType` of every entry the importer writes that has no native equivalent. */
export const IMPORT_CUSTOM_TYPE = "import";

/** What one imported item becomes in the xcsh session. */
export type PlanBody =
	| { kind: "message"; message: AgentMessage }
	/** Context the source injected without showing it (environment blocks, meta lines): sent, not displayed. */
	| { kind: "hidden"; content: string | (TextContent | ImageContent)[]; details?: unknown }
	| { kind: "model"; model: string }
	| { kind: "thinking"; level: string }
	| { kind: "compaction"; summary: string; firstKeptKey: string | null; tokensBefore: number; details?: unknown }
	| { kind: "branchSummary"; summary: string; details?: unknown }
	| { kind: "label"; targetKey: string; label: string | undefined }
	/** A record with no native equivalent, kept whole (customType "import"), or a pi custom entry as it was. */
	| { kind: "custom"; customType: string; data: unknown };

/**
 * One entry to write. `key` is stable across imports of the same source (a record's id, or its
 * line number in an append-only file), so a re-import adds only the keys it has not seen.
 */
export interface PlanItem {
	readonly key: string;
	/** The key of the parent item, or null for a root. */
	readonly parent: string | null;
	/** ISO time the source recorded (the import time where it has none). */
	readonly timestamp: string;
	readonly body: PlanBody;
}

/** Where the session's working directory came from (Gemini keeps only a hash of it). */
export type CwdOrigin = "source" | "--cwd" | "current directory";

/** A source session read into the entries it becomes. */
export interface ImportPlan {
	readonly tool: SourceTool;
	readonly sourcePath: string;
	/** The source's own session id (plus the subagent for Claude Code subagent files). */
	readonly sourceId: string;
	readonly cwd: string;
	readonly cwdOrigin: CwdOrigin;
	readonly title?: string;
	/** ISO time the source session started. */
	readonly startedAt: string;
	readonly items: readonly PlanItem[];
	/** The item that should be the session's leaf (the main line, not a side chain). */
	readonly leafKey?: string;
	/** Lines that could not be read (torn, not JSON), 1-based. */
	readonly badLines: readonly number[];
	/** The source session this one was started from (an opencode subagent session's parent). */
	readonly parentSourceId?: string;
	/** What the source says about the session as a whole that no entry holds (kept in the provenance entry). */
	readonly sourceInfo?: Record<string, unknown>;
}

/** A plan without its items: what a reader knows of a source once it has sent its items on (see `ItemSink`). */
export type PlanHead = Omit<ImportPlan, "items">;

/** Where a reader sends a source's items as they become final, in the plan's order. */
export interface ItemSink {
	item(item: PlanItem): void;
	/** The source's id, as soon as the reader has one (it may still change before the end: the head has the last word). */
	sourceId?(id: string): void;
	/** The item that is now the main line's leaf (sent now or later): the last one named is the plan's `leafKey`. */
	leaf?(key: string): void;
	/** A table the reader numbers its keys in, shared with the sink (which numbers the same keys): one table, not one per use. */
	readonly keys?: KeyTable;
}

/** A plan from a reader that sends its items to a sink, by collecting them. */
export function collectPlan(read: (sink: ItemSink) => PlanHead): ImportPlan {
	const items: PlanItem[] = [];
	const head = read({
		item: (item) => {
			items.push(item);
		},
	});
	return { ...head, items };
}

/** Why a source file was not imported, as a one-line reason. */
export class SkipError extends Error {}

/** Why a source file was skipped, in one line (a SkipError's own words, or what the file system said). */
export function skipReason(error: unknown): string {
	if (error instanceof SkipError) return error.message;
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT") return "no such file or directory";
	if (code === "EACCES") return "permission denied";
	return error instanceof Error ? error.message : String(error);
}

/** Options every parser takes. */
export interface ParseOptions {
	/** The project for sources without a cwd (`--cwd`), and whether it was given. */
	readonly fallbackCwd: string;
	readonly cwdGiven: boolean;
}
