import type { AgentTool, ThinkingLevel } from "@mariozechner/pi-agent-core";
import type { Api, Model } from "@mariozechner/pi-ai";
import type { ExtensionRunner } from "../agent/extensions/runner.js";
import type { CompactionOptions } from "./compactor.js";
import type { ModelResolver } from "./model-resolver.js";
import type { SessionManager } from "./session-manager.js";
import type { ReadOnlyReason } from "./session-manager-types.js";

/** Why a prompt is refused in a session opened read-only. */
const READ_ONLY_MESSAGE = "This session is open read-only (another xcsh has it): /fork to continue in a copy";

/** Why a prompt is refused, for each reason a session can be read-only. */
export function readOnlyMessage(reason: ReadOnlyReason, sessionFile: string | undefined): string {
	switch (reason) {
		case "held-elsewhere":
			return READ_ONLY_MESSAGE;
		case "damaged-header":
			return `This session's header is damaged, so it is open read-only: run xcsh doctor --fix ${sessionFile ?? "<file>"}, or /fork to continue in a copy`;
	}
}

/**
 * Work around a prompt's run (file checkpoints). `beforeTurn` starts what must precede the turn's
 * changes without holding up the model's request; every tool call waits for `beforeTool` first;
 * `afterTool` says a tool ended (work on its changes may start while the model answers).
 */
export interface TurnHooks {
	beforeTurn(): Promise<void>;
	beforeTool(): Promise<void>;
	afterTool(): void;
	afterTurn(): Promise<void>;
}

/** What an AgentSession is built from. */
export interface AgentSessionOptions {
	sessionManager: SessionManager;
	models: ModelResolver;
	model: Model<Api>;
	thinkingLevel?: ThinkingLevel;
	tools?: AgentTool[];
	extensions?: ExtensionRunner;
	systemPrompt?: string;
	compaction?: CompactionOptions;
	/** Called around each prompt's run (file checkpoints); must not throw. */
	turnHooks?: TurnHooks;
}
