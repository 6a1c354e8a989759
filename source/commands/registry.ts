import { compactCommand } from "./compact.js";
import { dumpCommand } from "./dump.js";
import { exportCommand } from "./export.js";
import type { ExportCommandDeps } from "./export-services.js";
import { forkCommand } from "./fork.js";
import { helpCommand, lookUp } from "./help.js";
import { modelCommand } from "./model.js";
import { nameCommand } from "./name.js";
import { newCommand } from "./new.js";
import { quitCommand } from "./quit.js";
import { resumeCommand } from "./resume.js";
import { rewindCommand } from "./rewind.js";
import { searchCommand } from "./search.js";
import { sessionCommand } from "./session.js";
import { shareCommand } from "./share.js";
import { sharesCommand } from "./shares.js";
import { thinkingCommand } from "./thinking.js";
import { treeCommand } from "./tree.js";
import type { SlashCommand } from "./types.js";

/**
 * Every command in /help order: session, search, model, then (given the exporter) dump, export,
 * share and shares, then help and quit.
 */
export function buildCommands(exporter?: ExportCommandDeps): SlashCommand[] {
	const commands: SlashCommand[] = [
		newCommand,
		resumeCommand,
		treeCommand,
		rewindCommand,
		forkCommand,
		nameCommand,
		sessionCommand,
		compactCommand,
		searchCommand,
		modelCommand,
		thinkingCommand,
		...(exporter ? [dumpCommand(exporter), exportCommand(exporter), shareCommand(exporter), sharesCommand] : []),
	];
	commands.push(
		helpCommand(() => commands),
		quitCommand,
	);
	return commands;
}

/** The built-in commands without export/share (tests, and callers without those services). */
export const COMMANDS: readonly SlashCommand[] = buildCommands();

/** The command for a name or alias. */
export function findCommand(name: string, commands: readonly SlashCommand[] = COMMANDS): SlashCommand | undefined {
	return lookUp(name, commands);
}
