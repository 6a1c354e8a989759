import type { RestoreMode } from "../source/checkpoints/checkpoint-data.js";
import { RestoreError } from "../source/checkpoints/restore.js";
import { type CodeCheck, checkCode, diffToWorkingTree } from "../source/checkpoints/session-rewind.js";
import { rewindResult } from "../source/commands/rewind.js";
import type { CommandResult } from "../source/commands/types.js";
import type { AgentSession } from "../source/session/agent-session.js";
import type { NavigateTreeOptions } from "../source/session/tree-navigation.js";
import type { AppScreen } from "./app-state.js";
import type { CommandRun } from "./command-controller.js";

/** The diff screen's title. */
export const DIFF_TITLE = "Files at this entry → the working tree (- at the entry, + now)";
/** What the diff screen says when there is nothing to show. */
export const NO_DIFFERENCES = "No differences: the files at this entry are the working tree's.";

/** What the rewind controller drives through the app controller. */
export interface RewindControllerDeps {
	readonly session: AgentSession;
	readonly show: (screen: AppScreen) => void;
	readonly showChat: () => void;
	/** Back to the tree, the selection on `entryId`. */
	readonly showTree: (entryId: string) => void;
	/** Runs a task as a command runs (activity line, Escape cancels), then applies its result. */
	readonly run: (task: (run: CommandRun) => Promise<CommandResult>) => void;
	/** Moves the conversation alone, as `/tree` Enter always did. */
	readonly navigate: (entryId: string, options: NavigateTreeOptions) => void;
}

/**
 * The person's side of file checkpoints: comparing an entry's files with the working tree,
 * restoring code with or without the conversation (from `/tree` or `/rewind`), and the diff.
 * The work itself is the checkpoint modules'; this only routes it to screens.
 */
export class RewindController {
	readonly #d: RewindControllerDeps;

	constructor(deps: RewindControllerDeps) {
		this.#d = deps;
	}

	/** Whether the files at an entry differ from the working tree (`/tree` Enter asks before offering a restore). */
	checkCode = (entryId: string): Promise<CodeCheck> => checkCode(this.#d.session, entryId);

	/** Restores an entry's files, and with "both" moves the conversation there too (with `options`' summary). */
	restore(entryId: string, mode: Exclude<RestoreMode, "conversation">, options: NavigateTreeOptions): void {
		this.#d.showChat();
		this.#d.run((run) => rewindResult(this.#d.session, { kind: "entry", entryId, mode }, options, run));
	}

	/** `/rewind`'s pick: back to a prompt with its code, its conversation, or both. */
	rewindTo(entryId: string, mode: RestoreMode): void {
		if (mode === "conversation") this.#d.navigate(entryId, { summarize: false });
		else this.restore(entryId, mode, { summarize: false });
	}

	/** `d` in `/tree`: the diff from the entry's files to the working tree, on its own screen. */
	async showDiff(entryId: string): Promise<void> {
		let lines: readonly string[];
		try {
			const diff = await diffToWorkingTree(this.#d.session, entryId);
			lines = diff.length === 0 ? [NO_DIFFERENCES] : diff.replace(/\n$/, "").split("\n");
		} catch (error) {
			if (!(error instanceof RestoreError)) throw error;
			lines = [error.message];
		}
		this.#d.show({ kind: "diff", entryId, title: DIFF_TITLE, lines });
	}

	/** Esc on the diff: back to the tree, on the same entry. */
	closeDiff(entryId: string): void {
		this.#d.showTree(entryId);
	}
}
