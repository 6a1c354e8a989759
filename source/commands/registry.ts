import { modelCommands } from "./model-commands.js";
import { sessionCommands } from "./session-commands.js";
import { info, type SlashCommand } from "./types.js";

const helpCommand: SlashCommand = {
	name: "help",
	description: "Show the commands and keys",
	run() {
		const lines = COMMANDS.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ""} — ${c.description}`);
		lines.push(
			"",
			"Keys: Enter send · Shift+Enter / Alt+Enter newline · ↑/↓ history · Ctrl+R search history · Tab complete",
			"      Escape abort · Ctrl+C clear, twice to quit · while the agent works, Enter steers and >> queues a follow-up",
		);
		return info(lines.join("\n"));
	},
};

const quitCommand: SlashCommand = {
	name: "quit",
	aliases: ["exit"],
	description: "Leave xcsh",
	run: () => ({ kind: "quit" }),
};

/** Every slash command, in /help order. */
export const COMMANDS: readonly SlashCommand[] = [...sessionCommands, ...modelCommands, helpCommand, quitCommand];

/** The command for a name or alias. */
export function findCommand(name: string, commands: readonly SlashCommand[] = COMMANDS): SlashCommand | undefined {
	return commands.find((c) => c.name === name || c.aliases?.includes(name));
}
