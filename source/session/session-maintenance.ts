import type { Agent } from "@mariozechner/pi-agent-core";
import {
	abandonedBranchMessages,
	type CompactionSettings,
	compactionSettingsFor,
	DEFAULT_COMPACTION_SETTINGS,
	planCompaction,
	shouldCompact,
} from "../agent/compaction/compaction.js";
import { collectFileOperations } from "../agent/compaction/file-operations.js";
import { summarize } from "../agent/compaction/summarizer.js";
import { estimateContextTokens } from "../agent/compaction/token-estimate.js";
import type { AgentSessionEvent } from "./agent-session-events.js";
import { userMessageText } from "./session-discovery.js";
import type { SessionManager } from "./session-manager.js";

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

/** Options of `navigateTree`. */
export interface NavigateTreeOptions {
	/** Summarise the branch being left into a `branch_summary` entry. */
	summarize?: boolean;
	customInstructions?: string;
}

/** What `navigateTree` did. */
export interface NavigateTreeResult {
	/** The summary was cancelled (Escape): nothing changed. */
	cancelled: boolean;
	/** Text of the user message navigated to, for the editor (that message is not re-sent). */
	editorText?: string;
	oldLeafId: string | null;
	newLeafId: string | null;
	summaryEntryId?: string;
}

interface MaintenanceDeps {
	sessionManager: SessionManager;
	agent: Agent;
	apiKey: (provider: string) => string | undefined | Promise<string | undefined>;
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

/** Compaction and tree navigation: the work that rewrites the model's context from the session. */
export class SessionMaintenance {
	readonly #deps: MaintenanceDeps;
	readonly #settings: CompactionSettings;
	#controller: AbortController | undefined;

	constructor(deps: MaintenanceDeps) {
		this.#deps = deps;
		this.#settings = { ...DEFAULT_COMPACTION_SETTINGS, ...deps.settings };
	}

	/** The settings scaled to the current model's window (the model can change between turns). */
	#settingsForModel(): CompactionSettings {
		return compactionSettingsFor(this.#deps.agent.state.model.contextWindow, this.#settings);
	}

	/** Cancels a running summary. */
	abort(): void {
		this.#controller?.abort();
	}

	async #summaryRequestBase(): Promise<{ model: Agent["state"]["model"]; apiKey?: string; signal: AbortSignal }> {
		this.#controller?.abort();
		this.#controller = new AbortController();
		const model = this.#deps.agent.state.model;
		const apiKey = await this.#deps.apiKey(model.provider);
		return apiKey ? { model, apiKey, signal: this.#controller.signal } : { model, signal: this.#controller.signal };
	}

	/** Summarises everything before the recent context into a compaction entry. */
	async compact(instructions: string | undefined, reason: "manual" | "auto"): Promise<CompactionResult> {
		const { sessionManager, emit } = this.#deps;
		const planning = planCompaction(sessionManager.getBranch(), this.#settingsForModel());
		if (planning.kind === "nothing") throw new Error(`Nothing to compact yet: ${planning.reason}`);
		const { plan } = planning;
		emit({ type: "compaction_start", reason });
		try {
			const request = await this.#summaryRequestBase();
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

	/**
	 * Moves the leaf: to a user message's parent (its text goes back to the editor), otherwise to
	 * the target itself; with `summarize`, the branch left behind is summarised first.
	 */
	async navigateTree(targetId: string, options: NavigateTreeOptions): Promise<NavigateTreeResult> {
		const { sessionManager } = this.#deps;
		const target = sessionManager.getEntry(targetId);
		if (!target) throw new Error(`Entry ${targetId} not found`);
		const oldLeafId = sessionManager.getLeafId();
		let newLeafId: string | null = target.id;
		let editorText: string | undefined;
		if (target.type === "message") {
			const text = userMessageText((target as { message?: { role?: unknown; content?: unknown } }).message);
			if (text !== undefined) {
				newLeafId = target.parentId;
				editorText = text;
			}
		}
		const base = editorText !== undefined ? { editorText } : {};
		if (newLeafId === oldLeafId) return { cancelled: false, oldLeafId, newLeafId, ...base };

		let summaryEntryId: string | undefined;
		const abandoned = abandonedBranchMessages(
			sessionManager.getBranch(),
			newLeafId === null ? [] : sessionManager.getBranch(newLeafId),
		);
		if (options.summarize && abandoned.length > 0) {
			let summary: string;
			try {
				summary = await summarize({
					...(await this.#summaryRequestBase()),
					kind: "branch",
					messages: abandoned,
					...(options.customInstructions ? { instructions: options.customInstructions } : {}),
				});
			} catch (error) {
				if (this.#controller?.signal.aborted) return { cancelled: true, oldLeafId, newLeafId: oldLeafId };
				throw error;
			}
			summaryEntryId = sessionManager.branchWithSummary(newLeafId, summary, collectFileOperations(abandoned));
		} else if (newLeafId === null) {
			sessionManager.resetLeaf();
		} else {
			sessionManager.branch(newLeafId);
		}
		this.#deps.rebuild();
		return {
			cancelled: false,
			oldLeafId,
			newLeafId: summaryEntryId ?? newLeafId,
			...base,
			...(summaryEntryId ? { summaryEntryId } : {}),
		};
	}
}
