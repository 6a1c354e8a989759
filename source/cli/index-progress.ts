import { progressReporter, withSessionIndex } from "../index/indexed-sessions.js";
import type { RefreshOptions } from "../index/session-index.js";

/** Where progress goes: a terminal gets a live counter; pipes and files get nothing. */
export interface ProgressSink {
	stderr: (text: string) => void;
	isTTY: boolean;
}

/** A live "Indexing sessions… 1,234 of 10,000" line for a refresh, and `done()` to erase it. */
export function terminalProgress(sink: ProgressSink): { onProgress: RefreshOptions["onProgress"]; done: () => void } {
	let shown = false;
	const onProgress = sink.isTTY
		? progressReporter((text) => {
				shown = true;
				sink.stderr(`\r\x1b[2KIndexing sessions… ${text}`);
			})
		: undefined;
	return {
		onProgress,
		done: () => {
			if (shown) sink.stderr("\r\x1b[2K");
			shown = false;
		},
	};
}

/**
 * Brings the session index up to date before a command reads it, with a live counter on a
 * terminal when there is much to read (a first build of thousands of sessions).
 */
export async function refreshIndexWithProgress(sink: ProgressSink, dirs?: readonly string[]): Promise<void> {
	const progress = terminalProgress(sink);
	try {
		await withSessionIndex((index) => index.refresh({ dirs, onProgress: progress.onProgress }));
	} finally {
		progress.done();
	}
}
