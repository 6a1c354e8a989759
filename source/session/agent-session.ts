import type { Agent, AgentEvent, AgentMessage, AgentTool, ThinkingLevel } from "@mariozechner/pi-agent-core";
import type { Api, ImageContent, Model } from "@mariozechner/pi-ai";
import { estimateTokens } from "../agent/compaction/token-estimate.js";
import { ExtensionRunner } from "../agent/extensions/runner.js";
import { nameEndpoint } from "../agent/models/endpoint-error.js";
import { AgentContext } from "./agent-context.js";
import { createAgent } from "./agent-core.js";
import type { AgentSessionEvent, AgentSessionListener } from "./agent-session-events.js";
import { type AgentSessionOptions, readOnlyMessage } from "./agent-session-options.js";
import { copyArtifacts } from "./artifacts.js";
import { type CompactionResult, Compactor } from "./compactor.js";
import type { OmittedContext } from "./context-window.js";
import { formatSessionAsText } from "./format-session-text.js";
import { MessageRecorder } from "./message-recorder.js";
import { createUserMessage } from "./messages.js";
import { ModelChoice } from "./model-choice.js";
import { type ModelResolver, modelRef } from "./model-resolver.js";
import { SessionBroadcast } from "./session-broadcast.js";
import type { SessionManager } from "./session-manager.js";
import type { OpenOptions } from "./session-manager-types.js";
import { SummaryRequests } from "./summary-requests.js";
import { type NavigateTreeOptions, type NavigateTreeResult, navigateTree } from "./tree-navigation.js";

export type { AgentSessionOptions } from "./agent-session-options.js";

export { type ModelResolver, modelRef } from "./model-resolver.js";

/**
 * The one object the UI talks to: runs the agent, persists every finished message through the
 * SessionManager, and owns the session lifecycle (new, resume, fork, tree, compaction).
 */
export class AgentSession {
	readonly #agent: Agent;
	readonly #sessionManager: SessionManager;
	readonly #models: ModelResolver;
	readonly #extensions: ExtensionRunner;
	readonly #listeners = new Set<AgentSessionListener>();
	readonly #requests: SummaryRequests;
	readonly #compactor: Compactor;
	#unsubscribeAgent: (() => void) | undefined;
	#nextTurn: AgentMessage[] = [];
	readonly #choice: ModelChoice;
	readonly #recorder: MessageRecorder;
	readonly #turnHooks: AgentSessionOptions["turnHooks"];
	readonly #context: AgentContext;
	readonly #broadcast: SessionBroadcast;
	/** Set while a prompt's run (its compaction first) is under way. */
	#running = false;

	private constructor(agent: Agent, options: AgentSessionOptions) {
		this.#agent = agent;
		this.#sessionManager = options.sessionManager;
		this.#models = options.models;
		this.#extensions = options.extensions ?? new ExtensionRunner();
		this.#choice = new ModelChoice(agent, options.sessionManager, options.models);
		this.#context = new AgentContext(agent, options.sessionManager, this.#choice);
		this.#broadcast = new SessionBroadcast(this.#extensions, options.sessionManager, (event) => this.#emit(event));
		this.#recorder = new MessageRecorder(options.sessionManager, (event) => this.#emit(event));
		this.#turnHooks = options.turnHooks;
		this.#requests = new SummaryRequests(agent, (provider) => this.#models.getApiKey(provider));
		this.#compactor = new Compactor({
			sessionManager: options.sessionManager,
			agent,
			requests: this.#requests,
			emit: (event) => this.#emit(event),
			settings: options.compaction ?? {},
			rebuild: () => this.#context.restore(),
			omitted: () => this.#context.omitted,
			windowTokens: () => this.#context.windowTokens(),
		});
		this.#extensions.onError((error) =>
			this.#emit({ type: "error", source: "extension", message: `${error.extension}: ${error.message}` }),
		);
	}

	/** Builds a session (and its agent, whose runtime is loaded then, not at import). */
	static async create(options: AgentSessionOptions): Promise<AgentSession> {
		const extensions = options.extensions ?? new ExtensionRunner();
		const agent = await createAgent(options, [...(options.tools ?? []), ...extensions.getTools()]);
		const session = new AgentSession(agent, { ...options, extensions });
		session.#context.restore();
		session.#connect();
		await session.#broadcast.send(
			{ type: "session_start", sessionFile: options.sessionManager.getSessionFile() },
			{ reason: "start" },
		);
		return session;
	}

	// ── state ───────────────────────────────────────────────────────────────

	/** The session store behind this session. */
	get sessionManager(): SessionManager {
		return this.#sessionManager;
	}

	/** True while the agent is running a turn. */
	get isStreaming(): boolean {
		return this.#agent.state.isStreaming;
	}

	/** The messages in the model's context. */
	get messages(): readonly AgentMessage[] {
		return this.#agent.state.messages;
	}

	/** The current model. */
	get model(): Model<Api> {
		return this.#agent.state.model;
	}

	/** The current thinking level. */
	get thinkingLevel(): ThinkingLevel {
		return this.#agent.state.thinkingLevel;
	}

	/** The system prompt sent with every request. */
	get systemPrompt(): string {
		return this.#agent.state.systemPrompt;
	}

	/** The tools the model can call. */
	get tools(): readonly AgentTool[] {
		return this.#agent.state.tools;
	}

	/** Extension problems so far. */
	get extensions(): ExtensionRunner {
		return this.#extensions;
	}

	/** Hears every event; returns the unsubscribe function. */
	subscribe(listener: AgentSessionListener): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	// ── the agent ───────────────────────────────────────────────────────────

	/** Why a prompt would be refused now (the session is open read-only), or undefined. */
	get promptRefusal(): string | undefined {
		const readOnly = this.#sessionManager.getReadOnlyReason();
		return readOnly ? readOnlyMessage(readOnly, this.#sessionManager.getSessionFile()) : undefined;
	}

	/** Sends a prompt and resolves when the agent is done (tools included); may compact afterwards. */
	async prompt(text: string, images: readonly ImageContent[] = []): Promise<void> {
		if (this.isStreaming || this.#running)
			throw new Error("The agent is already working: steer it or queue a follow-up instead");
		const refusal = this.promptRefusal;
		if (refusal) throw new Error(refusal);
		this.#running = true;
		try {
			await this.#run(text, images);
		} finally {
			this.#running = false;
		}
	}

	/** What the model's context window holds after load: some of it may have been left on disk. */
	get omittedContext(): OmittedContext {
		return { ...this.#context.omitted };
	}

	async #run(text: string, images: readonly ImageContent[]): Promise<void> {
		const user = createUserMessage(text, images);
		try {
			await this.#compactor.compactBeforePrompt(
				[...this.#nextTurn, user].reduce((sum, message) => sum + estimateTokens(message), 0),
			);
		} catch (error) {
			this.#emit({ type: "agent_idle" });
			throw error;
		}
		this.#choice.record();
		const messages = [...this.#nextTurn.splice(0), user];
		await this.#turnHooks?.beforeTurn();
		try {
			try {
				await this.#agent.prompt(messages);
			} finally {
				await this.#turnHooks?.afterTurn();
			}
			await this.#compactor.compactIfNeeded();
		} finally {
			this.#emit({ type: "agent_idle" });
		}
	}

	/** Interrupts the current turn with a message (or prompts when idle). */
	async steer(text: string): Promise<void> {
		if (!this.isStreaming) return this.prompt(text);
		this.#agent.steer(createUserMessage(text));
	}

	/** Queues a message for when the agent would otherwise stop (or prompts when idle). */
	async followUp(text: string): Promise<void> {
		if (!this.isStreaming) return this.prompt(text);
		this.#agent.followUp(createUserMessage(text));
	}

	/** Queues a message (an extension's custom message) to go out with the next prompt. */
	queueNextTurn(message: AgentMessage): void {
		this.#nextTurn.push(message);
	}

	/** Stops the current turn, summary or compaction; the partial assistant message is kept. */
	async abort(): Promise<void> {
		this.#requests.abort();
		this.#agent.abort();
		await this.#agent.waitForIdle();
	}

	/** Switches model; recorded as a `model_change` (thinking drops to off if the model cannot think). */
	setModel(model: Model<Api>): void {
		this.#choice.setModel(model);
		if (!this.isStreaming) this.#context.refit(model);
		this.#emit({ type: "model_change", model: modelRef(model) });
		if (!model.reasoning && this.thinkingLevel !== "off") this.setThinkingLevel("off");
	}

	/** Sets the thinking level (off for models without reasoning); recorded as a `thinking_level_change`. */
	setThinkingLevel(level: ThinkingLevel): void {
		this.#emit({ type: "thinking_level_change", thinkingLevel: this.#choice.setThinkingLevel(level) });
	}

	// ── lifecycle (spec: session-operations.txt) ───────────────────────────

	/** Starts a new session. False when an extension cancelled. */
	async newSession(options: { parentSession?: string } = {}): Promise<boolean> {
		const cancelled = await this.#extensions.emitBeforeSwitch({ type: "session_before_switch", reason: "new" });
		if (cancelled.cancel) return false;
		const previousSessionFile = this.#sessionManager.getSessionFile();
		await this.#stopAndDisconnect();
		this.#clearQueues();
		try {
			await this.#sessionManager.flush();
			await this.#sessionManager.newSession(options);
			this.#agent.sessionId = this.#sessionManager.getSessionId();
			this.#context.restore();
			await this.#broadcast.switched("new", previousSessionFile);
		} finally {
			this.#connect();
		}
		return true;
	}

	/**
	 * Switches to another session file, in the spec's 11 steps. False when an extension cancelled;
	 * if anything throws after the switch began, the previous session is restored and the error rethrown.
	 */
	async switchSession(sessionPath: string, options: OpenOptions = {}): Promise<boolean> {
		const before = await this.#extensions.emitBeforeSwitch({
			type: "session_before_switch",
			reason: "resume",
			targetSessionFile: sessionPath,
		});
		if (before.cancel) return false;
		const previous = {
			file: this.#sessionManager.getSessionFile(),
			leafId: this.#sessionManager.getLeafId(),
			messages: this.#agent.state.messages.slice(),
			omitted: this.#context.omitted,
			choice: this.#choice.snapshot(),
			sessionId: this.#agent.sessionId,
		};
		await this.#stopAndDisconnect();
		this.#clearQueues();
		try {
			await this.#sessionManager.flush();
			await this.#sessionManager.setSessionFile(sessionPath, options);
			this.#agent.sessionId = this.#sessionManager.getSessionId();
			await this.#broadcast.switched("resume", previous.file);
			this.#context.restore();
		} catch (error) {
			if (previous.file && this.#sessionManager.getSessionFile() !== previous.file) {
				await this.#sessionManager.setSessionFile(previous.file).catch(() => undefined);
				if (previous.leafId && this.#sessionManager.getEntry(previous.leafId))
					this.#sessionManager.branch(previous.leafId);
			}
			this.#agent.state.messages = previous.messages;
			this.#context.omitted = previous.omitted;
			this.#choice.restore(previous.choice);
			this.#agent.sessionId = previous.sessionId;
			throw error;
		} finally {
			this.#connect();
		}
		return true;
	}

	/** Forks the session into a new file (artifacts copied). False while streaming, when cancelled, or in memory. */
	async fork(): Promise<boolean> {
		if (this.isStreaming) return false;
		const before = await this.#extensions.emitBeforeSwitch({ type: "session_before_switch", reason: "fork" });
		if (before.cancel) return false;
		await this.#sessionManager.flush();
		const result = await this.#sessionManager.fork();
		if (!result) return false;
		if (result.previousSessionFile) await copyArtifacts(result.previousSessionFile, result.sessionFile);
		this.#agent.sessionId = this.#sessionManager.getSessionId();
		await this.#broadcast.switched("fork", result.previousSessionFile);
		return true;
	}

	/** Moves the leaf in the tree, optionally leaving a summary of the branch behind. */
	async navigateTree(targetId: string, options: NavigateTreeOptions = {}): Promise<NavigateTreeResult> {
		if (this.isStreaming) throw new Error("Wait for the agent to finish (or press Escape) before moving in the tree");
		const result = await navigateTree(
			{ sessionManager: this.#sessionManager, requests: this.#requests, rebuild: () => this.#context.restore() },
			targetId,
			options,
		);
		if (!result.cancelled)
			await this.#broadcast.send(
				{
					type: "session_tree",
					oldLeafId: result.oldLeafId,
					newLeafId: result.newLeafId,
					...(result.summaryEntryId ? { summaryEntryId: result.summaryEntryId } : {}),
				},
				{ reason: "tree" },
			);
		return result;
	}

	/** Labels an entry in the tree (undefined clears the label); recorded as a label entry. */
	setLabel(entryId: string, label: string | undefined): void {
		this.#sessionManager.appendLabelChange(entryId, label);
	}

	/** Moves the leaf to an entry (no summary) and tells extensions and custom tools it branched. */
	async branch(entryId: string): Promise<void> {
		if (this.isStreaming) throw new Error("Wait for the agent to finish (or press Escape) before branching");
		this.#sessionManager.branch(entryId);
		this.#context.restore();
		await this.#broadcast.send({ type: "session_branch", leafId: entryId }, { reason: "branch" });
	}

	/** Summarises older context into a `compaction` entry and rebuilds the context from the session. */
	async compact(instructions?: string): Promise<CompactionResult> {
		if (this.isStreaming) throw new Error("Wait for the agent to finish (or press Escape) before compacting");
		return this.#compactor.compact(instructions, "manual");
	}

	/** The session as plain text for /dump; empty when there are no messages yet. */
	formatSessionAsText(): string {
		return formatSessionAsText(this.#sessionManager.getBranch(), {
			systemPrompt: this.systemPrompt,
			model: modelRef(this.model),
			thinkingLevel: this.thinkingLevel,
			tools: this.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
		});
	}

	/** Stops work, tells extensions the app is shutting down, and closes the session file. */
	async dispose(): Promise<void> {
		await this.#stopAndDisconnect();
		await this.#broadcast.send({ type: "session_shutdown" }, { reason: "shutdown" });
		await this.#sessionManager.close();
	}

	// ── internals ───────────────────────────────────────────────────────────

	#emit(event: AgentSessionEvent): void {
		for (const listener of this.#listeners) listener(event);
	}

	#connect(): void {
		this.#unsubscribeAgent ??= this.#agent.subscribe((event) => this.#onAgentEvent(event));
	}

	/** Aborts first, still subscribed, so the partial message lands in the session it belongs to. */
	async #stopAndDisconnect(): Promise<void> {
		if (this.isStreaming) await this.abort();
		this.#requests.abort();
		this.#unsubscribeAgent?.();
		this.#unsubscribeAgent = undefined;
	}

	#clearQueues(): void {
		this.#agent.clearAllQueues();
		this.#nextTurn = [];
	}

	#onAgentEvent(event: AgentEvent): void {
		if (event.type === "message_end") {
			// Before it is stored or shown: every view of the failed request then says where it went.
			if (event.message.role === "assistant" && event.message.errorMessage)
				event.message.errorMessage = nameEndpoint(event.message.errorMessage, this.model);
			this.#recorder.record(event.message);
		}
		this.#emit(event);
	}
}
