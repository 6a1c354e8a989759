import { liveSharesOf, liveSharesWarning } from "../export/share-registry.js";
import { modelRef } from "../session/model-resolver.js";
import { moveSessionToTrash } from "../session/session-trash.js";
import { type CommandContext, type CommandResult, failure, info, type SlashCommand, warning } from "./types.js";

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
		description: "Show this session; /session save writes it again after a disk error; /session delete trashes it",
		args: "[save|delete]",
		run(context, args) {
			const sub = args.trim();
			if (sub === "save") return saveSession(context);
			if (sub === "delete" || sub === "delete --force") return deleteSession(context, sub.endsWith("--force"));
			if (sub) return failure(`Unknown /session action: ${sub} (expected save or delete)`);
			return sessionInfo(context);
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

function sessionInfo({ session }: CommandContext): CommandResult {
	const manager = session.sessionManager;
	const entries = manager.getEntries();
	const messages = entries.filter((e) => e.type === "message").length;
	const lines = [
		`Session ${manager.getSessionId()}${manager.getSessionName() ? ` "${manager.getSessionName()}"` : ""}`,
		`File: ${manager.getSessionFile() ?? "(in memory, not saved)"}${manager.isReadOnly() ? " (read-only)" : ""}`,
		`Project: ${manager.getCwd()}`,
		`Entries: ${entries.length} (${messages} messages), context: ${session.messages.length} messages`,
		`Model: ${modelRef(session.model)}, thinking: ${session.thinkingLevel}`,
	];
	const headerProblem = manager.getLoadReport().headerProblem;
	if (headerProblem) lines.push(`Read-only: ${headerProblem} — xcsh doctor --fix repairs it`);
	const error = manager.getPersistError();
	if (error) lines.push(`Not saved: ${error.message} — /session save retries`);
	return info(lines.join("\n"));
}

async function saveSession({ session }: CommandContext): Promise<CommandResult> {
	const manager = session.sessionManager;
	if (!manager.isPersisted()) return warning("This session is in memory only (--no-session): there is no file to save");
	if (manager.isReadOnly()) return warning("This session is open read-only: /fork to keep your own copy");
	if (await manager.retryPersistence()) return info(`Saved: everything is on disk in ${manager.getSessionFile()}`);
	return failure(`Still cannot save: ${manager.getPersistError()?.message ?? "unknown error"}`);
}

async function deleteSession({ session }: CommandContext, force: boolean): Promise<CommandResult> {
	const manager = session.sessionManager;
	const file = manager.getSessionFile();
	if (!file || !manager.isPersisted()) return warning("This session is in memory only: there is nothing to delete");
	if (session.isStreaming) return warning("Wait for the current response to finish (or press Escape) first");
	if (manager.getReadOnlyReason() === "held-elsewhere")
		return warning("This session is open in another xcsh: delete it there");
	const live = await liveSharesOf(manager.getSessionId());
	if (live.length > 0 && !force)
		return warning(
			liveSharesWarning(live.length).replace(
				"Delete again to confirm",
				"Run /session delete --force to delete it anyway",
			),
		);
	// Never the open session: switch to a new one first, then move the old file to the trash.
	if (!(await session.newSession())) return warning("Delete cancelled by an extension");
	const trashed = await moveSessionToTrash(file);
	return {
		kind: "redraw",
		text: trashed
			? `Moved the session to the trash: ${trashed}`
			: "Started a new session (the old one had not been saved yet)",
	};
}
