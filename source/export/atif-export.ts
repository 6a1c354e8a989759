import { type BashExecutionMessage, bashExecutionToText } from "../session/messages.js";
import type { SessionHeader, StoredEntry } from "../session/types.js";
import { assistantParts, contentParts, numberOf, partsText, recordOf } from "./message-parts.js";

/**
 * The ATIF version written: the Harbor RFC's v1.4 field list (later versions only add optional
 * fields, so v1.4 readers and newer ones both accept it).
 */
export const ATIF_SCHEMA_VERSION = "ATIF-v1.4";

/** A tool call of an agent step. */
export interface AtifToolCall {
	tool_call_id: string;
	function_name: string;
	arguments: Record<string, unknown>;
}

/** One result in a step's observation; `source_call_id` names a tool call of the same step. */
export interface AtifObservationResult {
	source_call_id?: string;
	content?: string;
}

/** Per-step LLM figures (prompt tokens include the cached ones, as the RFC counts them). */
export interface AtifMetrics {
	prompt_tokens?: number;
	completion_tokens?: number;
	cached_tokens?: number;
	cost_usd?: number;
	extra?: Record<string, unknown>;
}

/** A step: the system prompt or a system event, a user message, or an agent turn with what its tools returned. */
export interface AtifStep {
	step_id: number;
	timestamp?: string;
	source: "system" | "user" | "agent";
	model_name?: string;
	reasoning_effort?: string;
	message: string;
	reasoning_content?: string;
	tool_calls?: AtifToolCall[];
	observation?: { results: AtifObservationResult[] };
	metrics?: AtifMetrics;
	extra?: Record<string, unknown>;
}

/** What one trajectory is written about. */
export interface AtifContext {
	/** The (redacted) session header. */
	header: SessionHeader;
	/** The trajectory's `session_id`: the session's id, with the leaf's when a file holds several paths. */
	sessionId: string;
	leafId: string;
	/** Every label of the session by target id; those on the path are written. */
	labels: ReadonlyMap<string, string>;
	agentVersion: string;
}

/** What the walk over a path gathered for the trajectory's root. */
interface Totals {
	steps: number;
	prompt: number;
	completion: number;
	cached: number;
	/** The sum of the costs known, undefined while no step had one. */
	cost: number | undefined;
	/** The model of the first agent step, else the last `model_change`. */
	model: string | undefined;
	provider: string | undefined;
	labels: Record<string, string>;
	branchSummaries: { step_id: number; entry_id: string; from_id: string }[];
}

type Draft = Omit<AtifStep, "step_id">;

// ISO 8601 as Python's datetime.fromisoformat reads it (Harbor's validator): date, time, zone.
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;

function stamp(entry: StoredEntry): { timestamp?: string } {
	return typeof entry.timestamp === "string" && ISO.test(entry.timestamp) ? { timestamp: entry.timestamp } : {};
}

function metricsOf(usage: unknown): AtifMetrics | undefined {
	const record = recordOf(usage);
	if (!record) return undefined;
	const input = numberOf(record, "input");
	const cacheRead = numberOf(record, "cacheRead");
	const cacheWrite = numberOf(record, "cacheWrite");
	const output = numberOf(record, "output");
	const cost = numberOf(record.cost, "total");
	if (input + cacheRead + cacheWrite + output + cost === 0) return undefined;
	return {
		prompt_tokens: input + cacheRead + cacheWrite,
		completion_tokens: output,
		cached_tokens: cacheRead,
		// A cost of 0 is one the source never gave (imported sessions, local models): left out, not claimed.
		...(cost > 0 ? { cost_usd: cost } : {}),
		...(cacheWrite > 0 ? { extra: { cache_creation_input_tokens: cacheWrite } } : {}),
	};
}

/** Walks a path and drafts its steps; an agent step is held until its tool results have come. */
class StepDrafter {
	#effort: string | undefined;
	#defaultModel: string | undefined;
	#pending: { draft: Draft; calls: Set<string>; errors: string[] } | undefined;

	constructor(
		private readonly labels: ReadonlyMap<string, string>,
		private readonly totals: Totals,
	) {}

	/** The steps the entry completes (the held agent step first, when the entry ends its turn). */
	*add(entry: StoredEntry): Generator<Draft> {
		const label = this.labels.get(entry.id);
		if (label !== undefined) this.totals.labels[entry.id] = label;
		const extra = { entry_id: entry.id, ...(label !== undefined ? { label } : {}) };
		const record = entry as Record<string, unknown>;
		switch (entry.type) {
			case "message": {
				const message = recordOf(record.message) ?? {};
				if (message.role === "toolResult" && this.#attach(message)) return;
				yield* this.flush();
				const draft = this.#messageDraft(entry, message, extra);
				if (draft && message.role === "assistant") {
					const calls = new Set((draft.tool_calls ?? []).map((call) => call.tool_call_id));
					this.#pending = { draft, calls, errors: [] };
				} else if (draft) yield draft;
				return;
			}
			case "custom_message":
				yield* this.flush();
				yield {
					...stamp(entry),
					source: "system",
					message: partsText(contentParts(record.content)),
					extra: { ...extra, kind: "custom_message", custom_type: record.customType },
				};
				return;
			case "branch_summary":
				yield* this.flush();
				yield {
					...stamp(entry),
					source: "system",
					message: String(record.summary ?? ""),
					extra: { ...extra, kind: "branch_summary", from_id: record.fromId },
				};
				return;
			case "compaction":
				yield* this.flush();
				yield {
					...stamp(entry),
					source: "system",
					message: String(record.summary ?? ""),
					extra: {
						...extra,
						kind: "compaction",
						tokens_before: record.tokensBefore,
						first_kept_entry_id: record.firstKeptEntryId,
					},
				};
				return;
			case "session_init":
				yield* this.flush();
				yield {
					...stamp(entry),
					source: "system",
					message: String(record.systemPrompt ?? ""),
					extra: { ...extra, kind: "system_prompt", tools: record.tools, task: record.task },
				};
				return;
			case "thinking_level_change":
				this.#effort = typeof record.thinkingLevel === "string" ? record.thinkingLevel : undefined;
				return;
			case "model_change":
				if (record.role === undefined || record.role === "default")
					this.#defaultModel = typeof record.model === "string" ? record.model : undefined;
				return;
			default:
				return;
		}
	}

	/** The held agent step, if any. */
	*flush(): Generator<Draft> {
		const pending = this.#pending;
		if (!pending) return;
		this.#pending = undefined;
		if (pending.errors.length > 0) pending.draft.extra = { ...pending.draft.extra, tool_errors: pending.errors };
		yield pending.draft;
	}

	/** The model to name when no agent step did. */
	get defaultModel(): string | undefined {
		return this.#defaultModel;
	}

	/** Adds a tool result to the held agent step that called it; false when no held step did. */
	#attach(message: Record<string, unknown>): boolean {
		const pending = this.#pending;
		const id = message.toolCallId;
		if (!pending || typeof id !== "string" || !pending.calls.has(id)) return false;
		const results = pending.draft.observation?.results ?? [];
		results.push({ source_call_id: id, content: partsText(contentParts(message.content)) });
		pending.draft.observation = { results };
		if (message.isError === true) pending.errors.push(id);
		return true;
	}

	#messageDraft(
		entry: StoredEntry,
		message: Record<string, unknown>,
		extra: Record<string, unknown>,
	): Draft | undefined {
		switch (message.role) {
			case "user":
				return { ...stamp(entry), source: "user", message: partsText(contentParts(message.content)), extra };
			case "assistant":
				return this.#agentDraft(entry, message, extra);
			case "toolResult":
				// A result whose call is not in the step before it (a damaged or cut path): a system event.
				return {
					...stamp(entry),
					source: "system",
					message: "",
					observation: { results: [{ content: partsText(contentParts(message.content)) }] },
					extra: { ...extra, kind: "tool_result", tool_call_id: message.toolCallId, tool_name: message.toolName },
				};
			case "bashExecution":
				return {
					...stamp(entry),
					source: "user",
					message: bashExecutionToText(message as unknown as BashExecutionMessage),
					extra: { ...extra, kind: "bash_execution", exit_code: message.exitCode },
				};
			case "custom":
				return {
					...stamp(entry),
					source: "system",
					message: partsText(contentParts(message.content)),
					extra: { ...extra, kind: "custom_message", custom_type: message.customType },
				};
			default:
				return undefined;
		}
	}

	#agentDraft(entry: StoredEntry, message: Record<string, unknown>, extra: Record<string, unknown>): Draft {
		const parts = assistantParts(message.content);
		const model = typeof message.model === "string" ? message.model : undefined;
		const provider = typeof message.provider === "string" ? message.provider : undefined;
		if (this.totals.model === undefined && model !== undefined) {
			this.totals.model = model;
			this.totals.provider = provider;
		}
		const metrics = metricsOf(message.usage);
		if (metrics) {
			this.totals.prompt += metrics.prompt_tokens ?? 0;
			this.totals.completion += metrics.completion_tokens ?? 0;
			this.totals.cached += metrics.cached_tokens ?? 0;
			if (metrics.cost_usd !== undefined) this.totals.cost = (this.totals.cost ?? 0) + metrics.cost_usd;
		}
		return {
			...stamp(entry),
			source: "agent",
			...(model !== undefined ? { model_name: model } : {}),
			...(this.#effort !== undefined && this.#effort !== "off" ? { reasoning_effort: this.#effort } : {}),
			message: parts.text,
			...(parts.thinking ? { reasoning_content: parts.thinking } : {}),
			...(parts.calls.length > 0
				? {
						tool_calls: parts.calls.map((call) => ({
							tool_call_id: call.id,
							function_name: call.name,
							arguments: call.arguments,
						})),
					}
				: {}),
			...(metrics ? { metrics } : {}),
			extra: {
				...extra,
				...(provider !== undefined ? { provider } : {}),
				stop_reason: message.stopReason,
				...(typeof message.errorMessage === "string" ? { error_message: message.errorMessage } : {}),
			},
		};
	}
}

/** The steps of a path in order, numbered from 1. */
function* numberedSteps(entries: Iterable<StoredEntry>, drafter: StepDrafter, totals: Totals): Generator<AtifStep> {
	const number = (draft: Draft): AtifStep => {
		const step = { step_id: ++totals.steps, ...draft };
		if (step.extra?.kind === "branch_summary")
			totals.branchSummaries.push({
				step_id: step.step_id,
				entry_id: String(step.extra.entry_id),
				from_id: String(step.extra.from_id),
			});
		return step;
	};
	for (const entry of entries) for (const draft of drafter.add(entry)) yield number(draft);
	for (const draft of drafter.flush()) yield number(draft);
}

/**
 * One path as an ATIF trajectory, streamed: the steps one at a time (an agent step holds only its
 * turn's tool results), then the agent, the totals and the extras they add up to. `layout: "line"`
 * writes it on one line (JSONL), `"file"` one step per line (a `.json` file).
 */
export function* atifTrajectory(
	context: AtifContext,
	entries: Iterable<StoredEntry>,
	layout: "line" | "file",
): Generator<string> {
	const totals: Totals = {
		steps: 0,
		prompt: 0,
		completion: 0,
		cached: 0,
		cost: undefined,
		model: undefined,
		provider: undefined,
		labels: {},
		branchSummaries: [],
	};
	const drafter = new StepDrafter(context.labels, totals);
	const nl = layout === "file" ? "\n" : "";
	yield `{"schema_version":${JSON.stringify(ATIF_SCHEMA_VERSION)},"session_id":${JSON.stringify(context.sessionId)},"steps":[${nl}`;
	for (const step of numberedSteps(entries, drafter, totals))
		yield `${step.step_id === 1 ? "" : `,${nl}`}${JSON.stringify(step)}`;
	const model = totals.model ?? drafter.defaultModel;
	const { header } = context;
	const tail = {
		agent: {
			name: "xcsh",
			version: context.agentVersion,
			...(model !== undefined ? { model_name: model } : {}),
			...(totals.provider !== undefined ? { extra: { provider: totals.provider } } : {}),
		},
		final_metrics: {
			total_prompt_tokens: totals.prompt,
			total_completion_tokens: totals.completion,
			total_cached_tokens: totals.cached,
			...(totals.cost !== undefined ? { total_cost_usd: totals.cost } : {}),
			total_steps: totals.steps,
		},
		extra: {
			xcsh: {
				session_id: header.id,
				leaf_id: context.leafId,
				session_version: header.version,
				cwd: header.cwd,
				...(typeof header.title === "string" ? { title: header.title } : {}),
				...(typeof header.parentSession === "string" ? { parent_session: header.parentSession } : {}),
			},
			labels: totals.labels,
			branch_summaries: totals.branchSummaries,
		},
	};
	yield `${nl}],${JSON.stringify(tail).slice(1)}\n`;
}
