import { NO_ARGS } from "./arg-spec.js";
import type { SlashCommand } from "./types.js";

/** /resume: the session picker. */
export const resumeCommand: SlashCommand = {
	name: "resume",
	description: "Resume another session of this project",
	spec: NO_ARGS,
	run: () => ({ kind: "open", screen: "resume" }),
};
