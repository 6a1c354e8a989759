import { liveSharesOf, liveSharesWarning } from "../export/share-registry.js";
import { modelRef } from "../session/model-resolver.js";
import { moveSessionToTrash } from "../session/session-trash.js";
import { NO_ARGS, words } from "./arg-spec.js";
import { hasFlag } from "./parse-args.js";
import { type CommandContext, type CommandResult, failure, info, type SlashCommand, warning } from "./types.js";

/** /session [save | delete [--force]]: shows this session, saves it again, or trashes it. */
export const sessionCommand: SlashCommand = {
	name: "session",
	description: "Show this session; /session save writes it again after a disk error; /session delete trashes it",
	spec: {
		kind: "subcommands",
		optional: true,
		subcommands: [
			{ name: "save", description: "Write the session again after a disk error", args: NO_ARGS },
			{
				name: "delete",
				description: "Start a new session and move this one to the trash",
				args: words([], [{ name: "--force", description: "Delete even while a share of it is live" }]),
			},
		],
	},
	run(context, args) {
		switch (args.subcommand) {
			case "save":
				return saveSession(context);
			case "delete":
				return deleteSession(context, hasFlag(args, "--force"));
			default:
				return sessionInfo(context);
		}
	},
};

function sessionInfo({ session }: CommandContext): CommandResult {
	const manager = session.sessionManager;
	// From the skeleton: a big session's bodies stay on disk.
	const entries = manager.getSkeleton();
	let messages = 0;
	for (const entry of entries) if (entry.type === "message") messages++;
	// A context longer than the model's window was read back only that far: the rest counts too.
	const context = session.messages.length + session.omittedContext.messages;
	const lines = [
		`Session ${manager.getSessionId()}${manager.getSessionName() ? ` "${manager.getSessionName()}"` : ""}`,
		`File: ${manager.getSessionFile() ?? "(in memory, not saved)"}${manager.isReadOnly() ? " (read-only)" : ""}`,
		`Project: ${manager.getCwd()}`,
		`Entries: ${entries.length} (${messages} messages), context: ${context} messages`,
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
