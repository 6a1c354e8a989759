import { modelRef } from "../session/model-resolver.js";
import { failure, info, type SlashCommand, warning } from "./types.js";

/** /new, /resume, /tree, /fork, /name, /session, /compact. */
export const sessionCommands: SlashCommand[] = [
	{
		name: "new",
		description: "Start a new session",
		async run({ session }) {
			if (session.isStreaming) return warning("Wait for the current response to finish (or press Escape) first");
			const started = await session.newSession();
			return started
				? { kind: "redraw", text: "Started a new session" }
				: warning("New session cancelled by an extension");
		},
	},
	{
		name: "resume",
		description: "Resume another session of this project",
		run: () => ({ kind: "open", screen: "resume" }),
	},
	{
		name: "tree",
		description: "Browse the session tree and move to another point",
		run: () => ({ kind: "open", screen: "tree" }),
	},
	{
		name: "fork",
		description: "Copy this session into a new one and continue there",
		async run({ session }) {
			if (session.isStreaming)
				return warning("Wait for the current response to finish (or press Escape) before forking");
			const forked = await session.fork();
			if (!forked) return failure("Fork failed (session not persisted or cancelled)");
			return { kind: "redraw", text: `Forked into session ${session.sessionManager.getSessionId()}` };
		},
	},
	{
		name: "name",
		description: "Name this session",
		args: "<name>",
		async run({ session }, args) {
			const name = args.trim();
			if (!name) {
				const current = session.sessionManager.getSessionName();
				return info(current ? `Session name: ${current}` : "Usage: /name <name>");
			}
			await session.sessionManager.setSessionName(name);
			return info(`Session named "${name}"`);
		},
	},
	{
		name: "session",
		description: "Show information about this session",
		run({ session }) {
			const manager = session.sessionManager;
			const entries = manager.getEntries();
			const messages = entries.filter((e) => e.type === "message").length;
			const lines = [
				`Session ${manager.getSessionId()}${manager.getSessionName() ? ` "${manager.getSessionName()}"` : ""}`,
				`File: ${manager.getSessionFile() ?? "(in memory, not saved)"}`,
				`Project: ${manager.getCwd()}`,
				`Entries: ${entries.length} (${messages} messages), context: ${session.messages.length} messages`,
				`Model: ${modelRef(session.model)}, thinking: ${session.thinkingLevel}`,
			];
			return info(lines.join("\n"));
		},
	},
	{
		name: "compact",
		description: "Summarise older context to free the context window",
		args: "[instructions]",
		async run({ session }, args) {
			try {
				const result = await session.compact(args.trim() || undefined);
				return info(`Compacted: the summary now stands in for ${result.tokensBefore.toLocaleString("en-US")} tokens`);
			} catch (error) {
				return failure(error instanceof Error ? error.message : String(error));
			}
		},
	},
];
