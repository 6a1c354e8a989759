import { parseCheckpointData } from "../checkpoints/checkpoint-data.js";
import { existingProjectStore } from "../checkpoints/project-store.js";
import type { ShadowRepo } from "../checkpoints/shadow-repo.js";
import { unifiedDiff } from "../checkpoints/tree-diff.js";
import type { StoredEntry } from "../session/types.js";
import { turnFilesOf } from "./checkpoint-files.js";

/** A turn's diff longer than this is cut (with a note) so one huge rewrite cannot swell the page. */
export const MAX_TURN_DIFF_CHARS = 200_000;

/** The note that ends a cut diff. */
export function cutDiffNote(total: number): string {
	return `\n… diff cut at ${MAX_TURN_DIFF_CHARS.toLocaleString("en")} of ${total.toLocaleString("en")} characters (xcsh diff shows it whole)\n`;
}

/** A turn checkpoint entry as an export carries it: the entry plus the unified diff of its files. */
export type EntryWithDiff = StoredEntry & { readonly diff?: string };

/**
 * Adds each turn checkpoint's unified diff, read from the project's store, to the entries an
 * export writes. Without a store on this machine (an exported or copied session file, or git
 * missing) entries pass unchanged and the page shows the files' counts only.
 */
export class TurnDiffs {
	readonly #repo: ShadowRepo | undefined;

	private constructor(repo: ShadowRepo | undefined) {
		this.#repo = repo;
	}

	/** The diffs of the project at `cwd` (the session header's, whatever a damaged file holds there), if its store exists. */
	static async of(cwd: unknown): Promise<TurnDiffs> {
		return new TurnDiffs(typeof cwd === "string" && cwd !== "" ? await existingProjectStore(cwd) : undefined);
	}

	/** `entry` with `diff` added when it is a turn's checkpoint whose commits the store holds. */
	async attach(entry: StoredEntry): Promise<EntryWithDiff> {
		if (!this.#repo || !turnFilesOf(entry)) return entry;
		const data = parseCheckpointData((entry as { data?: unknown }).data);
		if (data?.kind !== "turn") return entry;
		const diff = await unifiedDiff(this.#repo, data.before, data.commit).catch(() => undefined);
		if (!diff) return entry;
		return {
			...entry,
			diff: diff.length > MAX_TURN_DIFF_CHARS ? diff.slice(0, MAX_TURN_DIFF_CHARS) + cutDiffNote(diff.length) : diff,
		};
	}
}
