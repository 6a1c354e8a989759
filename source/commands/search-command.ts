import type { SlashCommand } from "./types.js";

/** /search [query]: the full-screen search of every session's messages. */
export const searchCommands: SlashCommand[] = [
	{
		name: "search",
		description: "Search the messages of past sessions (role:, since:, until: filter; Tab for all projects)",
		args: "[query]",
		run: (_context, args) => ({ kind: "search", query: args.trim() }),
	},
];
