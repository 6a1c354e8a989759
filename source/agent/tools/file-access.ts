import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";

/** Throws the shared tool error for a call whose signal already fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("Operation aborted");
}

/** Stats `absolute` as an existing regular file, with the errors the model should see when it is not. */
export async function statExistingFile(absolute: string, shown: string): Promise<Stats> {
	const stats = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new Error(`File not found: ${shown}`);
		throw error;
	});
	if (stats.isDirectory()) throw new Error(`${shown} is a directory`);
	return stats;
}
