import { progressReporter, withSessionIndex } from "../index/indexed-sessions.js";

/** Where progress goes: a terminal gets a live counter; pipes and files get nothing. */
export interface ProgressSink {
	stderr: (text: string) => void;
	isTTY: boolean;
}

/**
 * Brings the session index up to date before a command reads it, with a live "Indexing sessions…"
 * counter on a terminal when there is much to read (a first build of thousands of sessions).
 */
export async function refreshIndexWithProgress(sink: ProgressSink, dirs?: readonly string[]): Promise<void> {
	let shown = false;
	const onProgress = sink.isTTY
		? progressReporter((text) => {
				shown = true;
				sink.stderr(`\r\x1b[2KIndexing sessions… ${text}`);
			})
		: undefined;
	await withSessionIndex((index) => index.refresh({ dirs, onProgress }));
	if (shown) sink.stderr("\r\x1b[2K");
}
