import { modelCommands } from "./model-commands.js";
import { searchCommands } from "./search-command.js";
import { sessionCommands } from "./session-commands.js";
import { info, type SlashCommand } from "./types.js";

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
	const args = command.args ? ` ${command.args}` : "";
	const aliases = command.aliases?.length ? ` (also ${command.aliases.map((a) => `/${a}`).join(", ")})` : "";
	return `/${command.name}${args}${aliases} — ${command.description}`;
}

/** The command list in /help order: session, search, model, any extra (export/share), then help and quit. */
export function buildCommands(extra: readonly SlashCommand[] = []): SlashCommand[] {
	const commands: SlashCommand[] = [...sessionCommands, ...searchCommands, ...modelCommands, ...extra];
	commands.push(
		{
			name: "help",
			description: "Show the commands and keys",
			run: () => info([...commands.map(helpLine), ...KEY_HELP].join("\n")),
		},
		{ name: "quit", aliases: ["exit"], description: "Leave xcsh", run: () => ({ kind: "quit" }) },
	);
	return commands;
}

/** The built-in commands without export/share (tests, and callers without those services). */
export const COMMANDS: readonly SlashCommand[] = buildCommands();

/** The command for a name or alias. */
export function findCommand(name: string, commands: readonly SlashCommand[] = COMMANDS): SlashCommand | undefined {
	return commands.find((c) => c.name === name || c.aliases?.includes(name));
}
