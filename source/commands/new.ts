import { NO_ARGS } from "./arg-spec.js";
import { type SlashCommand, warning } from "./types.js";

/** /new: a fresh session. */
export const newCommand: SlashCommand = {
	name: "new",
	description: "Start a new session",
	spec: NO_ARGS,
	async run({ session }) {
		if (session.isStreaming) return warning("Wait for the current response to finish (or press Escape) first");
		const started = await session.newSession();
		return started
			? { kind: "redraw", text: "Started a new session" }
			: warning("New session cancelled by an extension");
	},
};
