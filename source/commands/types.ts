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

/** A model as the model picker lists it. */
export interface ModelChoice {
	/** `provider/id`, what `/model <ref>` takes. */
	readonly ref: string;
	readonly name: string;
	readonly contextWindow: number;
	readonly reasoning: boolean;
}

/** A screen a command can open. */
export type CommandScreen = "resume" | "tree";

/** What a command asks the UI to do; the UI interprets it (exhaustively). */
export type CommandResult =
	| { kind: "done" }
	| { kind: "notice"; level: "info" | "warning" | "error"; text: string }
	| { kind: "open"; screen: CommandScreen }
	/** The model picker over `models`, on `current`; the pick switches as `/model <ref>` does. */
	| { kind: "pick-model"; current: string; models: readonly ModelChoice[] }
	/** The search screen, with the query prefilled. */
	| { kind: "search"; query: string }
	| { kind: "redraw"; text?: string }
	| { kind: "quit" }
	| {
			kind: "confirm";
			/** One line: what will happen. */
			title: string;
			/** Shown when the person asks to view them (the secrets found, masked). */
			details: string[];
			/** What declining says (default "Cancelled"). */
			cancelNotice?: string;
			/** Runs the confirmed action. */
			run: (run: Pick<CommandContext, "signal" | "setActivity">) => Promise<CommandResult>;
	  };

/** A slash command as data. */
export interface SlashCommand {
	name: string;
	aliases?: readonly string[];
	description: string;
	/** Shown in /help, e.g. "[provider/id]". */
	args?: string;
	run(context: CommandContext, args: string): Promise<CommandResult> | CommandResult;
}

/** Shorthands for results. */
export const info = (text: string): CommandResult => ({ kind: "notice", level: "info", text });
export const warning = (text: string): CommandResult => ({ kind: "notice", level: "warning", text });
export const failure = (text: string): CommandResult => ({ kind: "notice", level: "error", text });
