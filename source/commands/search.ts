import type { SlashCommand } from "./types.js";

/** /search [query]: the full-screen search of every session's messages. */
export const searchCommand: SlashCommand = {
	name: "search",
	description: "Search the messages of past sessions (role:, since:, until: filter; Tab for all projects)",
	// The query has its own syntax (role:, quotes): handed over as typed.
	spec: { kind: "text", name: "query", optional: true },
	run: (_context, { text }) => ({ kind: "search", query: text }),
};
