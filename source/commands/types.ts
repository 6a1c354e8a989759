import type { ArgSpec } from "./arg-spec.js";
import type { CommandContext } from "./command-context.js";
import type { ParsedArgs } from "./parse-args.js";

export type { CommandContext } from "./command-context.js";

/** A model as the model picker lists it. */
export interface ModelChoice {
	/** `provider/id`, what `/model <ref>` takes. */
	readonly ref: string;
	readonly name: string;
	readonly contextWindow: number;
	readonly reasoning: boolean;
}

/** A screen a command can open. */
export type CommandScreen = "resume" | "tree" | "rewind";

/** A confirm step: the command words every line of it, the UI only asks. */
export interface ConfirmStep {
	readonly kind: "confirm";
	/** One line: what will happen. */
	readonly title: string;
	/** The verb on the yes key: "share" shows "Enter/y share". */
	readonly confirmLabel: string;
	/** What `v` shows or hides ("what is redacted"); the lines themselves are `details`. */
	readonly detailsLabel: string;
	/** Shown when the person asks to view them (e.g. the secrets found, masked). */
	readonly details: readonly string[];
	/** What declining says ("Share cancelled"). */
	readonly cancelNotice: string;
	/** Runs the confirmed action. */
	readonly run: (run: Pick<CommandContext, "signal" | "setActivity">) => Promise<CommandResult>;
}

/** What a command asks the UI to do; the UI interprets it (exhaustively). */
export type CommandResult =
	| { kind: "done" }
	| { kind: "notice"; level: "info" | "warning" | "error"; text: string }
	| { kind: "open"; screen: CommandScreen }
	/** The model picker over `models`, on `current`; the pick switches as `/model <ref>` does. */
	| { kind: "pick-model"; current: string; models: readonly ModelChoice[] }
	/** The search screen, with the query prefilled. */
	| { kind: "search"; query: string }
	/** The transcript rebuilt from the session; `editorText` goes into the editor (a prompt gone back to). */
	| { kind: "redraw"; text?: string; editorText?: string }
	| { kind: "quit" }
	| ConfirmStep;

/** A slash command as data: its name, what it does, how it reads its arguments, and the action. */
export interface SlashCommand {
	readonly name: string;
	readonly aliases?: readonly string[];
	readonly description: string;
	/** Read by the one parser before `run`; also the usage in /help and the Tab completions. */
	readonly spec: ArgSpec;
	run(context: CommandContext, args: ParsedArgs): Promise<CommandResult> | CommandResult;
}

/** Shorthands for results. */
export const info = (text: string): CommandResult => ({ kind: "notice", level: "info", text });
export const warning = (text: string): CommandResult => ({ kind: "notice", level: "warning", text });
export const failure = (text: string): CommandResult => ({ kind: "notice", level: "error", text });

/** An error's message. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
