import { type ArgCompletion, completeArgs } from "../source/commands/complete-args.js";
import { parseArgs } from "../source/commands/parse-args.js";
import { COMMANDS, findCommand } from "../source/commands/registry.js";
import type { CommandContext, CommandResult, SlashCommand } from "../source/commands/types.js";

/** What a long-running command gets from the UI: an abort signal and its activity line. */
export type CommandRun = Pick<CommandContext, "signal" | "setActivity">;

/** Runs slash commands from the registry; the UI interprets the typed result. */
export class CommandController {
	readonly #context: CommandContext;
	readonly #commands: readonly SlashCommand[];
	/** The running command's abort (Escape cancels a share, a summary…). */
	#running: AbortController | undefined;

	constructor(context: CommandContext, commands: readonly SlashCommand[] = COMMANDS) {
		this.#context = context;
		this.#commands = commands;
	}

	/** Names and descriptions for the editor's completion list. */
	get completions(): { name: string; description: string }[] {
		return this.#commands.map((c) => ({ name: c.name, description: c.description }));
	}

	/**
	 * Tab in the editor on `line` (the text before the cursor): the completion of a command's
	 * argument from its spec, or `undefined` to complete a file name (a path argument, free text,
	 * no command, an unknown one).
	 */
	completeArgument(line: string): ArgCompletion | undefined {
		const match = /^\s*\/(\S+)\s([\s\S]*)$/.exec(line);
		if (!match) return undefined;
		const command = findCommand(match[1]!, this.#commands);
		return command && completeArgs(command.spec, match[2]!.trimStart(), this.#context);
	}

	/**
	 * Runs a command (or a confirmed action) with an abort signal that `cancel()` fires; only the
	 * latest one can be cancelled.
	 */
	async run(task: (run: CommandRun) => Promise<CommandResult>, setActivity: (label: string | undefined) => void) {
		const controller = new AbortController();
		this.#running = controller;
		try {
			return await task({ signal: controller.signal, setActivity });
		} finally {
			if (this.#running === controller) this.#running = undefined;
		}
	}

	/** Aborts the running command; false when none is running. */
	cancel(): boolean {
		if (!this.#running) return false;
		this.#running.abort();
		return true;
	}

	/**
	 * Runs `/name args`; unknown names and thrown errors become error notices. `run` carries what a
	 * long command needs from the UI: an abort signal (Escape) and a way to show its activity.
	 */
	async execute(name: string, args: string, run: CommandRun = {}): Promise<CommandResult> {
		const command = findCommand(name, this.#commands);
		if (!command)
			return { kind: "notice", level: "error", text: `Unknown command: /${name}. Type /help for the list.` };
		const parsed = parseArgs(command.name, command.spec, args);
		if (!parsed.ok) return { kind: "notice", level: parsed.level, text: parsed.message };
		try {
			return await command.run({ ...this.#context, ...run }, parsed.args);
		} catch (error) {
			return {
				kind: "notice",
				level: "error",
				text: `/${name} failed: ${error instanceof Error ? error.message : String(error)}`,
			};
		}
	}
}
