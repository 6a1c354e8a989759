import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { estimateContextTokens } from "../source/agent/compaction/token-estimate.js";
import { describeCompaction } from "../source/render/compaction-progress.js";
import { safeDeep, safeText } from "../source/render/safe-text.js";
import type { AgentSession } from "../source/session/agent-session.js";
import type { AgentSessionEvent } from "../source/session/agent-session-events.js";
import { entryMessage } from "../source/session/message-shape.js";
import { modelRef } from "../source/session/model-resolver.js";
import { ChatItems } from "./chat-items.js";
import { OnDiskItem, ResidentItem, TRANSCRIPT_TYPES } from "./history-items.js";

/** One finished thing in the chat history (a block of the transcript viewport). */
export type ChatItem =
	| { kind: "welcome"; id: string; model: string; cwd: string; session: string; hint?: string }
	| { kind: "message"; id: string; message: AgentMessage }
	| { kind: "notice"; id: string; level: "info" | "warning" | "error"; text: string };

/** A tool that is running now, with its output so far. */
export interface RunningTool {
	id: string;
	name: string;
	args: Record<string, unknown>;
	output: string;
}

/** What the status line shows. */
export interface ChatStatus {
	model: string;
	offline: boolean;
	thinking: string;
	session: string;
	inputTokens: number;
	outputTokens: number;
	cost: number;
	contextPercent: number | undefined;
}

/** Everything the chat screen renders. */
export interface ChatSnapshot {
	items: ChatItems;
	pending: AgentMessage | undefined;
	/** The id the streaming message's item will have once finished (the viewport keeps its place across). */
	pendingId: string;
	running: readonly RunningTool[];
	activity: { label: string; startedAt: number } | undefined;
	/** True from the start of a prompt until the agent accepts the next one. */
	streaming: boolean;
	status: ChatStatus;
	/** Thinking blocks are shown in full (Ctrl+T), in the history and the streaming message. */
	showThinking: boolean;
	/** Tool output is shown in full (Ctrl+O), not clipped to its first rows. */
	expandTools: boolean;
	/** A passing hint ("Press Ctrl+C again to quit"): shown above the editor, never in the history. */
	transient: string | undefined;
}

/**
 * A streaming message is redrawn at most this often: a delta arrives every few milliseconds and a
 * frame costs more than that on a loaded machine, so drawing each one made the answer lag seconds
 * behind the stream (the last line "never came").
 */
const STREAM_FRAME_MS = 40;

/** Options for the chat controller. */
export interface ChatControllerOptions {
	session: AgentSession;
	isOffline: (model: AgentSession["model"]) => boolean;
	hint?: string;
}

/**
 * Turns AgentSession events into the chat screen's state: finished items, the streaming message,
 * running tools, the current activity and the status line. No React: components bind with
 * useSyncExternalStore. Every text in the snapshot is made safe here (`safe-text.ts`): messages,
 * tool output and notices come from the model, tools and files, and must not reach the terminal raw.
 */
export class ChatController {
	readonly #session: AgentSession;
	readonly #options: ChatControllerOptions;
	readonly #listeners = new Set<() => void>();
	#snapshot: ChatSnapshot;
	#nextId = 0;
	#unsubscribe: () => void;
	#transientTimer: NodeJS.Timeout | undefined;
	#streamTimer: NodeJS.Timeout | undefined;
	#streamed: AgentMessage | undefined;

	constructor(options: ChatControllerOptions) {
		this.#session = options.session;
		this.#options = options;
		this.#snapshot = {
			items: ChatItems.of([]),
			pending: undefined,
			pendingId: "",
			running: [],
			activity: undefined,
			streaming: false,
			status: this.#status(),
			showThinking: false,
			expandTools: false,
			transient: undefined,
		};
		this.#snapshot = { ...this.#snapshot, items: this.#historyItems(), pendingId: this.#id() };
		this.#unsubscribe = options.session.subscribe((event) => this.#onEvent(event));
	}

	/** Hears every change. */
	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** The current state (a new object after every change). */
	getSnapshot = (): ChatSnapshot => this.#snapshot;

	/** Adds a notice line to the history. */
	notice(level: "info" | "warning" | "error", text: string): void {
		this.#update({
			items: this.#snapshot.items.with({ kind: "notice", id: this.#id(), level, text: safeText(text) }),
		});
	}

	/** Shows a passing hint above the editor for `ms` milliseconds; it is never written into the history. */
	flash(text: string, ms: number): void {
		clearTimeout(this.#transientTimer);
		this.#update({ transient: safeText(text) });
		this.#transientTimer = setTimeout(() => this.#update({ transient: undefined }), ms);
		this.#transientTimer.unref();
	}

	/** Shows or hides thinking across the whole transcript (Ctrl+T). */
	toggleThinking(): void {
		this.#update({ showThinking: !this.#snapshot.showThinking });
	}

	/** Shows tool output in full, or clipped to its first rows, across the whole transcript (Ctrl+O). */
	toggleToolOutput(): void {
		this.#update({ expandTools: !this.#snapshot.expandTools });
	}

	/** Shows (or clears) what the app is busy with besides the agent (sharing, summarising…). */
	setActivity(label: string | undefined): void {
		this.#update({ activity: label ? { label, startedAt: Date.now() } : undefined });
	}

	/** Rebuilds the history from the session (after resume, tree navigation, fork, compaction). */
	rebuild(): void {
		this.#update({ items: this.#historyItems(), pending: undefined, running: [] });
	}

	/** Stops listening to the session. */
	dispose(): void {
		clearTimeout(this.#transientTimer);
		clearTimeout(this.#streamTimer);
		this.#unsubscribe();
	}

	#id(): string {
		this.#nextId += 1;
		return `i${this.#nextId}`;
	}

	#historyItems(): ChatItems {
		const session = this.#session;
		const manager = session.sessionManager;
		const welcome: ChatItem = safeDeep({
			kind: "welcome",
			id: this.#id(),
			model: this.#options.isOffline(session.model) ? "offline model" : modelRef(session.model),
			cwd: manager.getCwd(),
			session: manager.getSessionName() ?? manager.getSessionId(),
			...(this.#options.hint ? { hint: this.#options.hint } : {}),
		});
		// The whole active path, compacted turns included (the summary box marks where compaction
		// happened): a person can scroll to any part of the conversation, not only what the model sees.
		// Only which entries are shown is worked out here; an item is made when it is drawn, and a big
		// session's bodies stay on disk until then. Items are keyed by their entry's id (unique in a
		// session, never "i…"): no string is made per item.
		const path = manager.getBranchSkeleton();
		const shown = new Int32Array(path.length);
		let count = 0;
		for (let i = 0; i < path.length; i++) {
			const resident = path.resident(i);
			if (resident ? entryMessage(resident) : TRANSCRIPT_TYPES.has(path.type(i))) shown[count++] = i;
		}
		return ChatItems.history([welcome], count, (index) => {
			const shape = path.at(shown[index]!)!;
			const resident = manager.residentOf(shape);
			const message = resident && entryMessage(resident);
			return message ? new ResidentItem(shape, message) : new OnDiskItem(shape, manager);
		});
	}

	#status(): ChatStatus {
		const session = this.#session;
		const usage = session.sessionManager.getUsageTotals();
		const input = usage.input + usage.cacheRead;
		const output = usage.output;
		const cost = usage.cost;
		const window = session.model.contextWindow;
		const manager = session.sessionManager;
		return {
			model: this.#options.isOffline(session.model) ? "offline model" : modelRef(session.model),
			offline: this.#options.isOffline(session.model),
			thinking: session.thinkingLevel,
			session: `${manager.getSessionName() ?? manager.getSessionId().slice(0, 8)}${manager.isReadOnly() ? " (read-only)" : ""}`,
			inputTokens: input,
			outputTokens: output,
			cost,
			contextPercent:
				window <= 0
					? undefined
					: // A context read back only to the window (the rest left on disk) fills it.
						session.omittedContext.messages > 0
						? 100
						: Math.min(100, Math.round((estimateContextTokens(session.messages) / window) * 100)),
		};
	}

	#update(patch: Partial<ChatSnapshot>): void {
		this.#snapshot = { ...this.#snapshot, ...patch };
		for (const listener of this.#listeners) listener();
	}

	#flushStreamed(): void {
		this.#streamTimer = undefined;
		const message = this.#streamed;
		if (!message) return;
		this.#streamed = undefined;
		this.#update({
			pending: safeDeep(message),
			activity: this.#snapshot.activity && { ...this.#snapshot.activity, label: "Streaming" },
		});
	}

	#dropStreamed(): void {
		clearTimeout(this.#streamTimer);
		this.#streamTimer = undefined;
		this.#streamed = undefined;
	}

	#onEvent(event: AgentSessionEvent): void {
		switch (event.type) {
			case "agent_start":
				this.#update({ activity: { label: "Thinking", startedAt: Date.now() }, streaming: true });
				break;
			case "agent_idle":
				this.#update({ activity: undefined, streaming: false, status: this.#status() });
				break;
			case "agent_end":
				this.#dropStreamed();
				this.#update({ activity: undefined, pending: undefined, running: [], status: this.#status() });
				break;
			case "message_start":
			case "message_update":
				if (event.message.role === "assistant") {
					this.#streamed = event.message;
					this.#streamTimer ??= setTimeout(() => this.#flushStreamed(), STREAM_FRAME_MS);
				}
				break;
			case "message_end":
				this.#dropStreamed();
				this.#update({
					items: this.#snapshot.items.with({
						kind: "message",
						id: this.#snapshot.pendingId,
						message: safeDeep(event.message),
					}),
					pending: undefined,
					pendingId: this.#id(),
					status: this.#status(),
				});
				break;
			case "tool_execution_start":
				this.#update({
					running: [
						...this.#snapshot.running,
						{
							id: event.toolCallId,
							name: safeText(event.toolName),
							args: safeDeep(event.args as Record<string, unknown>),
							output: "",
						},
					],
					activity: { label: `Running ${event.toolName}`, startedAt: this.#snapshot.activity?.startedAt ?? Date.now() },
				});
				break;
			case "tool_execution_update": {
				const text = safeText(textOfPartial(event.partialResult));
				this.#update({
					running: this.#snapshot.running.map((t) => (t.id === event.toolCallId ? { ...t, output: text } : t)),
				});
				break;
			}
			case "tool_execution_end":
				this.#update({ running: this.#snapshot.running.filter((t) => t.id !== event.toolCallId) });
				break;
			case "compaction_start":
				this.#update({
					activity: { label: describeCompaction(compactionLabel(event.reason), undefined), startedAt: Date.now() },
				});
				break;
			case "compaction_progress":
				this.#update({
					activity: {
						label: describeCompaction(compactionLabel(event.reason), event.step),
						startedAt: this.#snapshot.activity?.startedAt ?? Date.now(),
					},
				});
				break;
			case "compaction_end":
				// A failure is said by whoever asked for the compaction (/compact, the prompt it held
				// back, the automatic one's error event): a notice here said it twice.
				this.#update({ activity: undefined });
				break;
			case "session_compact":
				this.rebuild();
				this.#update({ status: this.#status() });
				this.notice("info", `Compacted ${event.tokensBefore.toLocaleString("en-US")} tokens into a summary`);
				break;
			case "session_switch":
			case "session_tree":
				this.rebuild();
				this.#update({ status: this.#status() });
				break;
			case "model_change":
			case "thinking_level_change":
				this.#update({ status: this.#status() });
				break;
			case "error":
				this.notice("error", event.message);
				break;
			default:
				break;
		}
	}
}

function compactionLabel(reason: "manual" | "auto"): string {
	return reason === "auto" ? "Compacting the context" : "Summarising";
}

function textOfPartial(partial: unknown): string {
	const content = (partial as { content?: { type: string; text?: string }[] } | undefined)?.content;
	if (!Array.isArray(content)) return "";
	return content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("");
}
