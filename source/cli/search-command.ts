import { basename } from "node:path";
import { type FilterFlags, parseFilterFlags } from "../index/search-filters.js";
import { type SearchHit, SessionIndex } from "../index/session-index.js";
import { clip } from "../render/clip.js";
import { formatRelativeTime } from "../render/relative-time.js";
import { safeJson, safeLine } from "../render/safe-text.js";
import type { CliIo } from "./cli-io.js";
import { formatTable } from "./format.js";
import { terminalProgress } from "./index-progress.js";

/** Flags of `xcsh search`. */
export interface SearchFlags extends FilterFlags {
	json: boolean;
	limit: number;
	/** Search every project instead of the current one. */
	all: boolean;
	/** The project to search; defaults to `io.cwd`. */
	cwd?: string | undefined;
}

/** Printed when `xcsh search` gets no words. */
export const SEARCH_USAGE =
	"Usage: xcsh search <words…> [--all] [--json] [--limit N] [--role user|assistant|tool] [--since <when>] [--until <when>]";

/** Added to the role of a hit that a later compaction summarised out of the model's context. */
export const COMPACTED_MARK = "(compacted)";

const SESSION_ID_CHARS = 8;

/** Printed under the text output: the id column is what `--resume` takes. */
export const RESUME_HINT = "Open a session with xcsh --resume <id>.";

/** Column of the session id prefix, which is never narrowed to fit the terminal. */
const ID_COLUMN = 2;

/** One row of the text output: when, project, session id prefix, title, role (marked when compacted), snippet. */
export function hitRow(hit: SearchHit, now: Date = new Date()): string[] {
	return [
		formatRelativeTime(new Date(hit.timestamp), now),
		basename(hit.cwd) || hit.cwd,
		hit.sessionId.slice(0, SESSION_ID_CHARS),
		clip(hit.title ?? "", 30),
		hit.compacted ? `${hit.role} ${COMPACTED_MARK}` : hit.role,
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
	const filters = parseFilterFlags(flags);
	if (!filters.ok) {
		io.stderr(`${filters.error}\n`);
		return 2;
	}
	const index = SessionIndex.open();
	const progress = terminalProgress({ stderr: io.stderr, isTTY: io.stderrIsTTY === true });
	try {
		await index.refresh({ onProgress: progress.onProgress });
		progress.done();
		const cwd = flags.all ? undefined : (flags.cwd ?? io.cwd);
		const hits = index.search(words, { ...filters.value, cwd, limit: flags.limit });
		if (flags.json) {
			io.stdout(`${safeJson(hits)}\n`);
		} else if (hits.length === 0) {
			io.stdout(`No matches for "${safeLine(words)}"${flags.all ? "" : " in this project (try --all)"}.\n`);
		} else {
			const now = new Date();
			io.stdout(
				`${formatTable(
					hits.map((hit) => hitRow(hit, now)),
					{ width: io.columns, keep: [ID_COLUMN] },
				)}\n${RESUME_HINT}\n`,
			);
		}
		return 0;
	} catch (error) {
		io.stderr(`Search failed: ${safeLine(error instanceof Error ? error.message : String(error))}\n`);
		return 1;
	} finally {
		progress.done();
		index.close();
	}
}
