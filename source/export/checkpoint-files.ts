import {
	CHECKPOINT_CUSTOM_TYPE,
	type FileChange,
	lineTotals,
	parseCheckpointData,
} from "../checkpoints/checkpoint-data.js";
import type { StoredEntry } from "../session/types.js";

/** The files a turn changed, when `entry` is a turn's checkpoint entry (undefined for anything else). */
export function turnFilesOf(entry: StoredEntry): readonly FileChange[] | undefined {
	if (entry.type !== "custom") return undefined;
	const custom = entry as { customType?: unknown; data?: unknown };
	if (custom.customType !== CHECKPOINT_CUSTOM_TYPE) return undefined;
	const data = parseCheckpointData(custom.data);
	return data?.kind === "turn" && data.files.length > 0 ? data.files : undefined;
}

/** `+1 -1` of one file (`binary` for a binary one). */
export function fileCounts(file: FileChange): string {
	return file.binary ? "binary" : `+${file.added} -${file.removed}`;
}

/** `2 files changed (+2 -1)`: the one-line summary of a turn's files. */
export function filesSummary(files: readonly FileChange[]): string {
	const { added, removed } = lineTotals(files);
	return `${files.length} file${files.length === 1 ? "" : "s"} changed (+${added} -${removed})`;
}
