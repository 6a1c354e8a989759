import { RestoreError, type RestoreRequest } from "../checkpoints/restore.js";
import {
	carryOutRewind,
	describeRewind,
	outsideChangesTitle,
	planRewind,
	type RewindPlan,
	type RewindSession,
} from "../checkpoints/session-rewind.js";
import type { NavigateTreeOptions } from "../session/tree-navigation.js";
import { NO_ARGS } from "./arg-spec.js";
import type { CommandRun } from "./command-run.js";
import { type CommandResult, failure, type SlashCommand, warning } from "./types.js";

/** What declining to overwrite files changed outside xcsh says. */
export const RESTORE_CANCELLED = "Restore cancelled: no file was changed";
/** The activity while files are put back. */
export const RESTORING_FILES = "Restoring the files";

async function finish(
	session: RewindSession,
	rewind: RewindPlan,
	navigation: NavigateTreeOptions,
	run: CommandRun,
): Promise<CommandResult> {
	run.setActivity?.(navigation.summarize ? "Summarising the branch" : RESTORING_FILES);
	// Escape cancels the command; a branch summary in flight is stopped with it.
	run.signal?.addEventListener("abort", () => void session.abort());
	const done = await carryOutRewind(session, rewind, navigation);
	if (done.kind === "cancelled") return warning("Navigation cancelled");
	return {
		kind: "redraw",
		text: describeRewind(done.outcome),
		...(done.editorText !== undefined ? { editorText: done.editorText } : {}),
	};
}

/**
 * A restore (an entry's code, with or without the conversation, or the undo of the last restore)
 * as a command result: a confirm step first when files changed outside xcsh would be overwritten.
 */
export async function rewindResult(
	session: RewindSession,
	request: RestoreRequest,
	navigation: NavigateTreeOptions = {},
	run: CommandRun = {},
): Promise<CommandResult> {
	try {
		const rewind = await planRewind(session, request);
		if (rewind.risky.length === 0) return await finish(session, rewind, navigation, run);
		return {
			kind: "confirm",
			title: outsideChangesTitle(rewind.risky),
			confirmLabel: "overwrite them",
			detailsLabel: "the files",
			details: rewind.risky,
			cancelNotice: RESTORE_CANCELLED,
			run: async (confirmed) => {
				try {
					return await finish(session, rewind, navigation, confirmed);
				} catch (error) {
					if (error instanceof RestoreError) return failure(error.message);
					throw error;
				}
			},
		};
	} catch (error) {
		if (error instanceof RestoreError) return failure(error.message);
		throw error;
	}
}

/** /rewind [undo]: this path's prompts to go back to (code, conversation or both), or the undo of the last restore. */
export const rewindCommand: SlashCommand = {
	name: "rewind",
	description: "Go back to an earlier prompt of this path, with its files; /rewind undo takes the last restore back",
	spec: {
		kind: "subcommands",
		optional: true,
		subcommands: [
			{
				name: "undo",
				description: "Put the files (and the conversation) back as they were before the last restore",
				args: NO_ARGS,
			},
		],
	},
	run(context, args) {
		if (args.subcommand === "undo") return rewindResult(context.session, { kind: "undo" }, {}, context);
		return { kind: "open", screen: "rewind" };
	},
};
