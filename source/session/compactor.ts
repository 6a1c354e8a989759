import type { Agent } from "@mariozechner/pi-agent-core";
import {
	type CompactionSettings,
	compactionSettingsFor,
	DEFAULT_COMPACTION_SETTINGS,
	planCompaction,
	shouldCompact,
} from "../agent/compaction/compaction.js";
import { isFileOperations } from "../agent/compaction/file-operations.js";
import { SummaryStoppedError, summarizeStream } from "../agent/compaction/streamed-summary.js";
import { estimateContextTokens, estimateTokens } from "../agent/compaction/token-estimate.js";
import type { AgentSessionEvent } from "./agent-session-events.js";
import type { OmittedContext } from "./context-window.js";
import type { ContextItem } from "./session-context.js";
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
	/** What of the context the agent was not given at load (its path is bigger than the model's window). */
	omitted: () => OmittedContext;
	/** The token budget a context is read back to for the current model. */
	windowTokens: () => number;
}

const SHORT_SUMMARY_CHARS = 120;

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Where a kept tail starts when the planner found no cut: its first prompt, else its first message. */
function keptFromTail(items: readonly ContextItem[]): string | undefined {
	const start = items.find((item) => item.message.role === "user" || item.message.role === "bashExecution");
	return (start ?? items[0])?.entryId;
}

/** Estimated tokens of the items from the entry `id` on. */
function tokensFrom(items: readonly ContextItem[], id: string): number {
	const at = items.findIndex((item) => item.entryId === id);
	let tokens = 0;
	for (let i = Math.max(0, at); i < items.length; i++) tokens += estimateTokens(items[i]!.message);
	return tokens;
}

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

	/**
	 * Summarises everything before the recent context into a compaction entry. The context is read
	 * back from its end up to the model's window; what is older is streamed from disk into the
	 * summary, so a path of any size compacts in bounded memory.
	 */
	async compact(instructions: string | undefined, reason: "manual" | "auto"): Promise<CompactionResult> {
		const { sessionManager, emit } = this.#deps;
		const windowed = sessionManager.buildSessionContextWithin(this.#deps.windowTokens());
		const previous = windowed.compaction;
		const context = previous
			? { items: windowed.items, compaction: { summary: previous.summary, details: previous.details } }
			: { items: windowed.items };
		const planning = planCompaction(context, this.#settingsForModel());
		const cut = windowed.omitted.messages > 0;
		let firstKeptEntryId: string;
		if (planning.kind === "plan") firstKeptEntryId = planning.plan.firstKeptEntryId;
		else if (cut) firstKeptEntryId = keptFromTail(windowed.items) ?? "";
		else throw new Error(`Nothing to compact yet: ${planning.reason}`);
		if (!firstKeptEntryId)
			throw new Error("Nothing to compact yet: the last message alone is bigger than the model's window");
		emit({ type: "compaction_start", reason });
		try {
			const request = await this.#deps.requests.next();
			const keptTokens = tokensFrom(windowed.items, firstKeptEntryId);
			const streamed = await summarizeStream({
				...request,
				items: sessionManager.streamContext(firstKeptEntryId),
				totalBytes: sessionManager.streamedContextBytes(firstKeptEntryId),
				...(instructions ? { instructions } : {}),
				...(previous ? { previousSummary: previous.summary } : {}),
				...(previous && isFileOperations(previous.details) ? { previousFileOperations: previous.details } : {}),
				onProgress: (step) => emit({ type: "compaction_progress", reason, step }),
			});
			const tokensBefore =
				planning.kind === "plan" && !cut
					? planning.plan.tokensBefore
					: streamed.tokens + keptTokens + (previous ? Math.ceil(previous.summary.length / 4) : 0);
			const summary = streamed.summary;
			const entryId = sessionManager.appendCompaction(
				summary,
				shortSummaryOf(summary),
				firstKeptEntryId,
				tokensBefore,
				streamed.fileOperations,
			);
			this.#deps.rebuild();
			emit({ type: "session_compact", reason, entryId, tokensBefore, summary });
			emit({ type: "compaction_end", reason });
			return { entryId, summary, tokensBefore, firstKeptEntryId };
		} catch (error) {
			const message = error instanceof SummaryStoppedError ? error.message : errorText(error);
			emit({ type: "compaction_end", reason, error: message });
			throw error;
		}
	}

	/**
	 * Before a prompt goes out: a context the model cannot take (bigger than its window, or left
	 * partly on disk at load) is compacted first, and so is one near the window's end when automatic
	 * compaction is on. Throws, with what to do, when the context still would not fit: the request
	 * is never sent over-long.
	 */
	async compactBeforePrompt(promptTokens: number): Promise<void> {
		const { agent } = this.#deps;
		const window = agent.state.model.contextWindow;
		const auto = this.#deps.settings.auto !== false;
		const over = () => {
			const omitted = this.#deps.omitted();
			const tokens = estimateContextTokens(agent.state.messages) + promptTokens;
			return omitted.messages > 0 || (window > 0 && tokens > window)
				? { tokens: tokens + Math.ceil(omitted.bytes / 4) }
				: undefined;
		};
		const tooBig = over();
		const near = shouldCompact(
			estimateContextTokens(agent.state.messages) + promptTokens,
			window,
			this.#settingsForModel(),
		);
		if (!tooBig && !(auto && near)) return;
		const model = agent.state.model;
		const size = (tokens: number) =>
			`The context since the last compaction (~${tokens.toLocaleString("en-US")} tokens) is bigger than ${model.name || model.id}'s window (${window.toLocaleString("en-US")} tokens)`;
		if (!auto) {
			if (tooBig) throw new Error(`${size(tooBig.tokens)}: run /compact, then send the prompt again`);
			return;
		}
		try {
			await this.compact(undefined, "auto");
		} catch (error) {
			if (!tooBig) {
				this.#deps.emit({
					type: "error",
					source: "compaction",
					message: `Automatic compaction failed: ${errorText(error)}`,
				});
				return;
			}
			if (error instanceof SummaryStoppedError || this.#deps.requests.aborted)
				throw new Error(
					`Compaction stopped, so the prompt was not sent: ${lowerFirst(size(tooBig.tokens))}; send it again to compact first`,
				);
			throw new Error(
				`Automatic compaction failed (${errorText(error)}), so the prompt was not sent: ${lowerFirst(size(tooBig.tokens))}; /compact to try again, or /model to pick a model with a bigger window`,
			);
		}
		const still = over();
		if (still)
			throw new Error(`${size(still.tokens)} even after compacting it: /model to pick a model with a bigger window`);
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
