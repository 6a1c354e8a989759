import { argsUsage, flagHelp, usageLine, words } from "./arg-spec.js";
import { failure, info, type SlashCommand } from "./types.js";

const KEY_HELP = [
	"",
	"Keys: Enter send · Shift+Enter / Alt+Enter newline · ↑/↓ history · Ctrl+R search history · Tab complete",
	"      Escape abort · Ctrl+C clear, twice to quit · Ctrl+T show or hide thinking",
	"      while the agent works, Enter steers and >> queues a follow-up",
	"Transcript: PgUp/PgDn a page · Shift+↑/↓ a line · mouse wheel · End (empty editor) back to the end",
	"      Ctrl+O show or clip tool output · Shift+drag selects text (the wheel is captured)",
];

/** One command's line in /help: name, arguments, other names, what it does. */
function helpLine(command: SlashCommand): string {
	const args = argsUsage(command.spec);
	const aliases = command.aliases?.length ? ` (also ${command.aliases.map((a) => `/${a}`).join(", ")})` : "";
	return `/${command.name}${args ? ` ${args}` : ""}${aliases} — ${command.description}`;
}

/** The usage of one command, from its spec: the line, what it does, each flag or sub-command. */
export function commandHelp(command: SlashCommand): string {
	return [`Usage: ${usageLine(command.name, command.spec)}`, command.description, ...flagHelp(command.spec)].join("\n");
}

/** The command for a name or alias. */
export function lookUp(name: string, commands: readonly SlashCommand[]): SlashCommand | undefined {
	return commands.find((c) => c.name === name || c.aliases?.includes(name));
}

/** /help [command]: every command and key, or one command's usage. `commands` is read when it runs. */
export function helpCommand(commands: () => readonly SlashCommand[]): SlashCommand {
	return {
		name: "help",
		description: "Show the commands and keys, or how to use one command",
		spec: words([{ name: "command", optional: true, kind: "word", values: () => commands().map((c) => c.name) }]),
		run(_context, { positionals: [name] }) {
			if (!name) return info([...commands().map(helpLine), ...KEY_HELP].join("\n"));
			const bare = name.startsWith("/") ? name.slice(1) : name;
			const command = lookUp(bare, commands());
			if (!command) return failure(`Unknown command: /${bare}. Type /help for the list.`);
			return info(commandHelp(command));
		},
	};
}
