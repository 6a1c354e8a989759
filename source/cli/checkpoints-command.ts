import type { FileChange } from "../checkpoints/checkpoint-data.js";
import { allCheckpoints, type CheckpointTree, promptOf } from "../checkpoints/checkpoint-timeline.js";
import { clip } from "../render/clip.js";
import { safeJson, safeLine } from "../render/safe-text.js";
import { SessionSnapshot } from "../session/session-snapshot.js";
import { FileSessionStorage } from "../session/session-storage.js";
import { EXIT, sessionPathOf } from "./checkpoint-target.js";
import type { CliIo } from "./cli-io.js";
import { formatTable } from "./format.js";

/** Printed (exit 2) when the session argument is missing. */
export const CHECKPOINTS_USAGE = "Usage: xcsh checkpoints <session.jsonl | session-id> [--json]";

/** One turn that changed files, as listed. */
export interface CheckpointRow {
	readonly entryId: string;
	readonly time: string;
	readonly prompt: string | null;
	readonly commit: string;
	readonly files: readonly FileChange[];
}

/** The turns of a session that changed files, in the order they were recorded. */
export function checkpointRows(tree: CheckpointTree): CheckpointRow[] {
	const rows: CheckpointRow[] = [];
	for (const record of allCheckpoints(tree)) {
		if (record.data.kind !== "turn") continue;
		const entryId = record.data.entryId ?? record.parentId ?? record.entryId;
		rows.push({
			entryId,
			time: record.timestamp,
			prompt: promptOf(tree, entryId) ?? null,
			commit: record.data.commit,
			files: record.data.files,
		});
	}
	return rows;
}

/** `a.txt +1 -1, b.txt +1 -0` (binary files say `bin`). */
export function describeFiles(files: readonly FileChange[]): string {
	return files.map((f) => `${f.path} ${f.binary ? "bin" : `+${f.added} -${f.removed}`}`).join(", ");
}

/** `xcsh checkpoints <session>`: the turns that changed files, with the entry ids `restore` and `diff` take. */
export async function runCheckpointsCommand(
	args: readonly string[],
	flags: { json: boolean },
	io: CliIo,
): Promise<number> {
	const path = await sessionPathOf(args[0], CHECKPOINTS_USAGE, io);
	if (!path) return EXIT.badInput;
	const read = await SessionSnapshot.read(path, new FileSessionStorage());
	if (read.kind !== "ok") {
		io.stderr(`${read.kind === "missing" ? "File not found" : "Not a session file"}: ${safeLine(path)}\n`);
		return EXIT.badInput;
	}
	try {
		const rows = checkpointRows(read.snapshot);
		if (flags.json) {
			io.stdout(`${safeJson(rows)}\n`);
			return EXIT.done;
		}
		if (rows.length === 0) {
			io.stdout("No checkpoints: no turn of this session changed files.\n");
			return EXIT.done;
		}
		const table = rows.map((row) => [
			row.entryId,
			row.time.replace("T", " ").slice(0, 19),
			clip(safeLine(row.prompt ?? "(no prompt)"), 50),
			`${row.files.length} file${row.files.length === 1 ? "" : "s"}: ${describeFiles(row.files)}`,
		]);
		io.stdout(`${formatTable([["ENTRY", "TIME", "PROMPT", "FILES"], ...table], { width: io.columns, keep: [0] })}\n`);
		return EXIT.done;
	} finally {
		read.snapshot.close();
	}
}
