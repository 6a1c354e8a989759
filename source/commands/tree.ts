import { NO_ARGS } from "./arg-spec.js";
import type { SlashCommand } from "./types.js";

/** /tree: the session tree view. */
export const treeCommand: SlashCommand = {
	name: "tree",
	description: "Browse the session tree and move to another point",
	spec: NO_ARGS,
	run: () => ({ kind: "open", screen: "tree" }),
};
