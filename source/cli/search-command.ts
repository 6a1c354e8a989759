import { basename } from "node:path";
import { type SearchHit, SessionIndex } from "../index/session-index.js";
import { clip, formatRelativeTime, formatTable } from "./format.js";
import type { CliIo } from "./sessions-command.js";

/** Flags of `xcsh search`. */
export interface SearchFlags {
	json: boolean;
	limit: number;
	/** Search every project instead of the current one. */
	all: boolean;
	/** The project to search; defaults to `io.cwd`. */
	cwd?: string | undefined;
}

/** Printed when `xcsh search` gets no words. */
export const SEARCH_USAGE = "Usage: xcsh search <words…> [--all] [--json]";

const SESSION_ID_CHARS = 8;

function hitRow(hit: SearchHit): string[] {
	return [
		formatRelativeTime(new Date(hit.timestamp)),
		basename(hit.cwd) || hit.cwd,
		clip(hit.title ?? hit.sessionId.slice(0, SESSION_ID_CHARS), 30),
		hit.role,
		clip(hit.snippet, 100),
	];
}

/** `xcsh search <words…>`: the session entries matching every word, best first. Returns the exit code. */
export async function runSearchCommand(query: string, flags: SearchFlags, io: CliIo): Promise<number> {
	const words = query.trim();
	if (words.length === 0) {
		io.stderr(`${SEARCH_USAGE}\n`);
		return 2;
	}
	if (!Number.isInteger(flags.limit) || flags.limit < 1) {
		io.stderr(`--limit must be a positive whole number (got ${flags.limit})\n`);
		return 2;
	}
	const index = SessionIndex.open();
	try {
		await index.refresh();
		const hits = index.search(words, { cwd: flags.all ? undefined : (flags.cwd ?? io.cwd), limit: flags.limit });
		if (flags.json) {
			io.stdout(`${JSON.stringify(hits, null, 2)}\n`);
		} else if (hits.length === 0) {
			io.stdout(`No matches for "${words}"${flags.all ? "" : " in this project (try --all)"}.\n`);
		} else {
			io.stdout(`${formatTable(hits.map(hitRow))}\n`);
		}
		return 0;
	} catch (error) {
		io.stderr(`Search failed: ${error instanceof Error ? error.message : String(error)}\n`);
		return 1;
	} finally {
		index.close();
	}
}
