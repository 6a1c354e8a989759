import { NO_ARGS } from "./arg-spec.js";
import { failure, type SlashCommand, warning } from "./types.js";

/** /fork: copy this session into a new one and continue there. */
export const forkCommand: SlashCommand = {
	name: "fork",
	description: "Copy this session into a new one and continue there",
	spec: NO_ARGS,
	async run({ session }) {
		if (session.isStreaming) return warning("Wait for the current response to finish (or press Escape) before forking");
		const forked = await session.fork();
		if (!forked) return failure("Fork failed (session not persisted or cancelled)");
		return { kind: "redraw", text: `Forked into session ${session.sessionManager.getSessionId()}` };
	},
};
