import type { AgentEvent } from "@mariozechner/pi-agent-core";
import type { CompactionStep } from "../agent/compaction/streamed-summary.js";
import type { SessionSwitchReason } from "../agent/extensions/types.js";

/** Where a reported error came from. */
export type AgentSessionErrorSource = "persistence" | "extension" | "compaction" | "branch-summary" | "agent";

/** Everything `AgentSession.subscribe` delivers: the agent's own events plus the session's. */
export type AgentSessionEvent =
	| AgentEvent
	| {
			type: "session_switch";
			reason: SessionSwitchReason;
			previousSessionFile: string | undefined;
			sessionFile: string | undefined;
	  }
	| { type: "session_tree"; oldLeafId: string | null; newLeafId: string | null; summaryEntryId?: string }
	/** The prompt's run is over and the agent accepts a new prompt (after agent_end and any auto-compaction). */
	| { type: "agent_idle" }
	| { type: "compaction_start"; reason: "manual" | "auto" }
	| {
			type: "session_compact";
			reason: "manual" | "auto";
			entryId: string;
			tokensBefore: number;
			summary: string;
	  }
	/** How far a compaction is: the older part read from disk, or the piece the model is summarising. */
	| { type: "compaction_progress"; reason: "manual" | "auto"; step: CompactionStep }
	| { type: "compaction_end"; reason: "manual" | "auto"; error?: string }
	| { type: "model_change"; model: string }
	| { type: "thinking_level_change"; thinkingLevel: string }
	| { type: "error"; source: AgentSessionErrorSource; message: string };

/** A subscriber to session events. */
export type AgentSessionListener = (event: AgentSessionEvent) => void;
