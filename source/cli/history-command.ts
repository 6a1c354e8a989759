import { clip } from "../render/clip.js";
import { formatRelativeTime } from "../render/relative-time.js";
import { safeJson, safeLine } from "../render/safe-text.js";
import { HistoryStorage } from "../session/history-storage.js";
import type { CliIo } from "./cli-io.js";
import { formatTable } from "./format.js";

/** Flags of `xcsh history`. */
export interface HistoryFlags {
	limit: number;
	json: boolean;
}

/** `xcsh history [query]`: the newest prompts, or those matching every word of the query. */
export async function runHistoryCommand(query: string, flags: HistoryFlags, io: CliIo): Promise<number> {
	if (!Number.isInteger(flags.limit) || flags.limit < 1) {
		io.stderr(`--limit must be a positive whole number (got ${flags.limit})\n`);
		return 2;
	}
	const history = HistoryStorage.open();
	try {
		const rows = query.trim() ? history.search(query, flags.limit) : history.getRecent(flags.limit);
		if (flags.json) {
			io.stdout(`${safeJson(rows)}\n`);
		} else if (rows.length === 0) {
			io.stdout(query.trim() ? `No prompts match "${safeLine(query.trim())}".\n` : "No prompts in the history yet.\n");
		} else {
			const table = rows.map((r) => [
				formatRelativeTime(new Date(r.createdAt)),
				clip(r.prompt.replace(/\s+/g, " "), 100),
			]);
			io.stdout(`${formatTable(table, { width: io.columns })}\n`);
		}
	} finally {
		await history.close();
	}
	return 0;
}
