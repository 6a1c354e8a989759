import { info, type SlashCommand } from "./types.js";

/** /name <name>: names this session; alone, says its name. */
export const nameCommand: SlashCommand = {
	name: "name",
	description: "Name this session",
	// A name is free text: quotes and dashes are part of it.
	spec: { kind: "text", name: "name", optional: false },
	async run({ session }, { text: name }) {
		if (!name) {
			const current = session.sessionManager.getSessionName();
			return info(current ? `Session name: ${current}` : "Usage: /name <name>");
		}
		await session.sessionManager.setSessionName(name);
		return info(`Session named "${name}"`);
	},
};
