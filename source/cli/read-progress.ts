import { describeProgress } from "../render/byte-progress.js";
import { ReadCancelledError, type ReadProgress } from "../session/session-loader.js";

export { describeProgress, ReadCancelledError };

/** Where the progress line goes and where Escape comes from. */
export interface ProgressTerminal {
	/** True when the line can be redrawn in place (a terminal). */
	readonly interactive: boolean;
	write(text: string): void;
	/** Calls `onKey` with each chunk typed until the returned function is called. */
	listenForKeys(onKey: (bytes: Buffer) => void): () => void;
}

/** The process's stderr and stdin. */
export function processTerminal(): ProgressTerminal {
	return {
		interactive: process.stderr.isTTY === true,
		write: (text) => process.stderr.write(text),
		listenForKeys(onKey) {
			const stdin = process.stdin;
			if (!stdin.isTTY) return () => undefined;
			const wasRaw = stdin.isRaw;
			// What was typed while the line showed goes back to stdin for the UI that follows.
			const typed: Buffer[] = [];
			const listener = (bytes: Buffer): void => {
				typed.push(bytes);
				onKey(bytes);
			};
			stdin.setRawMode(true);
			stdin.on("data", listener);
			stdin.resume();
			return () => {
				stdin.off("data", listener);
				stdin.pause();
				stdin.setRawMode(wasRaw);
				if (typed.length > 0) stdin.unshift(Buffer.concat(typed));
			};
		},
	};
}

/** Shown only for a read that lasts: a warm or small open never flashes a line. */
const SHOW_AFTER_MS = 300;
const REDRAW_EVERY_MS = 100;
const ESCAPE = 0x1b;
const CTRL_C = 0x03;

/**
 * Runs a read with a progress line on a terminal (`Reading session… 1.2 of 3.4 GB · Esc cancels`),
 * redrawn in place and cleared at the end; Escape or Ctrl+C stops it with `ReadCancelledError`.
 */
export async function withReadProgress<T>(
	what: string,
	run: (progress: ReadProgress) => Promise<T>,
	terminal: ProgressTerminal = processTerminal(),
	now: () => number = Date.now,
): Promise<T> {
	const controller = new AbortController();
	const started = now();
	let drawnAt = 0;
	let stopListening: (() => void) | undefined;
	const onProgress = (read: number, total: number): void => {
		if (!terminal.interactive || read >= total) return;
		const at = now();
		if (at - started < SHOW_AFTER_MS || at - drawnAt < REDRAW_EVERY_MS) return;
		drawnAt = at;
		stopListening ??= terminal.listenForKeys((bytes) => {
			if (bytes.includes(ESCAPE) || bytes.includes(CTRL_C)) controller.abort(new ReadCancelledError(what));
		});
		terminal.write(`\r\u001b[2KReading session… ${describeProgress(read, total)} · Esc cancels`);
	};
	try {
		return await run({ signal: controller.signal, onProgress });
	} finally {
		if (stopListening) {
			stopListening();
			// A paused stdin gives nothing to a reader that attaches in the same turn (Node's stream still
			// counts its read as pending): the UI that follows at once never got a key and quit as idle.
			await new Promise((resolve) => setImmediate(resolve));
		}
		if (drawnAt > 0) terminal.write("\r\u001b[2K");
	}
}
