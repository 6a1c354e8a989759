import type { Agent } from "@mariozechner/pi-agent-core";
import {
	type CompactionSettings,
	compactionSettingsFor,
	DEFAULT_COMPACTION_SETTINGS,
	planCompaction,
	shouldCompact,
} from "../agent/compaction/compaction.js";
import { summarize } from "../agent/compaction/summarizer.js";
import { estimateContextTokens } from "../agent/compaction/token-estimate.js";
import type { AgentSessionEvent } from "./agent-session-events.js";
import type { SessionManager } from "./session-manager.js";
import type { SummaryRequests } from "./summary-requests.js";

/** Compaction settings plus whether it runs on its own near the context window. */
export interface CompactionOptions extends Partial<CompactionSettings> {
	auto?: boolean;
}

/** What `compact` did. */
export interface CompactionResult {
	entryId: string;
	summary: string;
	tokensBefore: number;
	firstKeptEntryId: string;
}

/** What the compactor works on. */
export interface CompactorDeps {
	sessionManager: SessionManager;
	agent: Agent;
	requests: SummaryRequests;
	emit: (event: AgentSessionEvent) => void;
	settings: CompactionOptions;
	/**
	 * Rebuilds the agent from the session's path (messages, model, thinking level): the one path
	 * switch, tree and compaction share, so none of them can leave a model from another branch.
	 */
	rebuild: () => void;
}

const SHORT_SUMMARY_CHARS = 120;

function shortSummaryOf(summary: string): string {
	const line = summary.split("\n").find((l) => l.trim().length > 0) ?? "";
	const clean = line.replace(/^#+\s*/, "").trim();
	return clean.length <= SHORT_SUMMARY_CHARS ? clean : `${clean.slice(0, SHORT_SUMMARY_CHARS - 1)}…`;
}

/** Compaction: summarises older context into a `compaction` entry, by hand or near the context window. */
export class Compactor {
	readonly #deps: CompactorDeps;
	readonly #settings: CompactionSettings;

	constructor(deps: CompactorDeps) {
		this.#deps = deps;
		this.#settings = { ...DEFAULT_COMPACTION_SETTINGS, ...deps.settings };
	}

	/** The settings scaled to the current model's window (the model can change between turns). */
	#settingsForModel(): CompactionSettings {
		return compactionSettingsFor(this.#deps.agent.state.model.contextWindow, this.#settings);
	}

	/** Summarises everything before the recent context into a compaction entry. */
	async compact(instructions: string | undefined, reason: "manual" | "auto"): Promise<CompactionResult> {
		const { sessionManager, emit } = this.#deps;
		const planning = planCompaction(sessionManager.buildContextItems(), this.#settingsForModel());
		if (planning.kind === "nothing") throw new Error(`Nothing to compact yet: ${planning.reason}`);
		const { plan } = planning;
		emit({ type: "compaction_start", reason });
		try {
			const request = await this.#deps.requests.next();
			const summary = await summarize({
				...request,
				kind: "compaction",
				messages: plan.messagesToSummarize,
				...(instructions ? { instructions } : {}),
				...(plan.previousSummary ? { previousSummary: plan.previousSummary } : {}),
			});
			const entryId = sessionManager.appendCompaction(
				summary,
				shortSummaryOf(summary),
				plan.firstKeptEntryId,
				plan.tokensBefore,
				plan.fileOperations,
			);
			this.#deps.rebuild();
			emit({ type: "session_compact", reason, entryId, tokensBefore: plan.tokensBefore, summary });
			emit({ type: "compaction_end", reason });
			return { entryId, summary, tokensBefore: plan.tokensBefore, firstKeptEntryId: plan.firstKeptEntryId };
		} catch (error) {
			emit({ type: "compaction_end", reason, error: error instanceof Error ? error.message : String(error) });
			throw error;
		}
	}

	/** Compacts on its own when the context is near the model's window (unless disabled). */
	async compactIfNeeded(): Promise<void> {
		if (this.#deps.settings.auto === false) return;
		const { agent, emit } = this.#deps;
		const tokens = estimateContextTokens(agent.state.messages);
		if (!shouldCompact(tokens, agent.state.model.contextWindow, this.#settingsForModel())) return;
		try {
			await this.compact(undefined, "auto");
		} catch (error) {
			emit({
				type: "error",
				source: "compaction",
				message: `Automatic compaction failed: ${error instanceof Error ? error.message : String(error)}`,
			});
		}
	}
}
