import type { ModelInfo } from "../agent/models/model-registry.js";
import type { AgentSession } from "../session/agent-session.js";

/** What a slash command needs from the app. */
export interface CommandContext {
	session: AgentSession;
	models: {
		list(): ModelInfo[];
		find(ref: string): AgentSession["model"] | undefined;
		/** `<provider/id> needs <VARIABLE>` when `find` found nothing because the model's key is not set. */
		missingKey(ref: string): string | undefined;
	};
	/** Aborted when the user cancels a long-running command (Escape); absent for instant ones. */
	signal?: AbortSignal;
	/** Shows (or, with undefined, clears) the activity line while a long-running command works. */
	setActivity?(label: string | undefined): void;
}
