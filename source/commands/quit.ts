import { NO_ARGS } from "./arg-spec.js";
import type { SlashCommand } from "./types.js";

/** /quit (/exit): leave xcsh. */
export const quitCommand: SlashCommand = {
	name: "quit",
	aliases: ["exit"],
	description: "Leave xcsh",
	spec: NO_ARGS,
	run: () => ({ kind: "quit" }),
};
