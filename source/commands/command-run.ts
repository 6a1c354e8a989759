import type { CommandContext } from "./command-context.js";

/** What a long-running command gets from the UI: an abort signal and its activity line. */
export type CommandRun = Pick<CommandContext, "signal" | "setActivity">;
