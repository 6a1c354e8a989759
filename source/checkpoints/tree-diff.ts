import type { FileChange, FileStatus } from "./checkpoint-data.js";
import type { ShadowRepo } from "./shadow-repo.js";

/** One path that differs between two trees, as `git diff-tree --raw` gives it. */
export interface RawChange {
	readonly path: string;
	readonly status: FileStatus;
	/** Mode and blob in the second tree (`000000`/zeros when the path is gone there). */
	readonly mode: string;
	readonly blob: string;
}

const STATUS_LETTERS: Record<string, FileStatus> = { A: "added", M: "modified", D: "deleted", T: "type-changed" };

/** The paths that differ from tree `from` to tree `to` (renames seen as delete + add). */
export async function rawChanges(repo: ShadowRepo, from: string, to: string): Promise<RawChange[]> {
	return parseRaw((await repo.read(["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to])).split("\0")).changes;
}

/** The leading `-z --raw` records (":<mode> <mode> <blob> <blob> <letter>\0<path>\0" per path), and where they end. */
function parseRaw(fields: readonly string[]): { changes: RawChange[]; end: number } {
	const changes: RawChange[] = [];
	let i = 0;
	for (; i + 1 < fields.length; i += 2) {
		const meta = fields[i]!;
		if (!meta.startsWith(":")) break;
		const path = fields[i + 1]!;
		const [, dstMode, , dstBlob, letter] = meta.slice(1).split(" ");
		const status = STATUS_LETTERS[letter?.[0] ?? ""];
		if (!status || dstMode === undefined || dstBlob === undefined) continue;
		changes.push({ path, status, mode: dstMode, blob: dstBlob });
	}
	return { changes, end: i };
}

/** The diff-tree arguments whose output `parseFileChanges` reads: raw records, then numstat. */
export const FILE_CHANGE_ARGS: readonly string[] = ["diff-tree", "-r", "-z", "--no-renames", "--raw", "--numstat"];

/** The files changed from tree `from` to tree `to`, with +/- line counts (one git call: raw then numstat). */
export async function fileChanges(repo: ShadowRepo, from: string, to: string): Promise<FileChange[]> {
	return parseFileChanges(await repo.read([...FILE_CHANGE_ARGS, from, to]));
}

/** The files changed, from the output of `git diff-tree` with FILE_CHANGE_ARGS. */
export function parseFileChanges(output: string): FileChange[] {
	const fields = output.split("\0");
	const { changes: raw, end } = parseRaw(fields);
	const counts = new Map<string, { added: number; removed: number; binary: boolean }>();
	// -z --numstat after the raw part: "<added>\t<removed>\t<path>\0"; binary files say "-\t-".
	for (let i = end; i < fields.length; i++) {
		const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(fields[i]!);
		if (!match) continue;
		const binary = match[1] === "-";
		counts.set(match[3]!, { added: binary ? 0 : Number(match[1]), removed: binary ? 0 : Number(match[2]), binary });
	}
	return raw.map(({ path, status }) => ({
		path,
		status,
		...(counts.get(path) ?? { added: 0, removed: 0, binary: false }),
	}));
}

/** The unified diff (no colour, renames as delete + add) from tree `from` to tree `to`; empty when they are equal. */
export function unifiedDiff(repo: ShadowRepo, from: string, to: string): Promise<string> {
	return repo.read(["diff", "--no-color", "--no-renames", "--no-ext-diff", from, to]);
}
