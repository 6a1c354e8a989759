import { COMMANDS, findCommand } from "../source/commands/registry.js";
import type { CommandContext, CommandResult, SlashCommand } from "../source/commands/types.js";

/** Runs slash commands from the registry; the UI interprets the typed result. */
export class CommandController {
	readonly #context: CommandContext;
	readonly #commands: readonly SlashCommand[];

	constructor(context: CommandContext, commands: readonly SlashCommand[] = COMMANDS) {
		this.#context = context;
		this.#commands = commands;
	}

	/** Names and descriptions for the editor's completion list. */
	get completions(): { name: string; description: string }[] {
		return this.#commands.map((c) => ({ name: c.name, description: c.description }));
	}

	/**
	 * Runs `/name args`; unknown names and thrown errors become error notices. `run` carries what a
	 * long command needs from the UI: an abort signal (Escape) and a way to show its activity.
	 */
	async execute(
		name: string,
		args: string,
		run: Pick<CommandContext, "signal" | "setActivity"> = {},
	): Promise<CommandResult> {
		const command = findCommand(name, this.#commands);
		if (!command)
			return { kind: "notice", level: "error", text: `Unknown command: /${name}. Type /help for the list.` };
		try {
			return await command.run({ ...this.#context, ...run }, args);
		} catch (error) {
			return {
				kind: "notice",
				level: "error",
				text: `/${name} failed: ${error instanceof Error ? error.message : String(error)}`,
			};
		}
	}
}
