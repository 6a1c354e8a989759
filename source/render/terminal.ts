import { filterColourOutput } from "./colour.js";
import type { RowPainter } from "./row-painter.js";

/** Escape sequences for the full-screen UI. */
const ENTER_ALT_SCREEN = "\x1b[?1049h\x1b[H";
const LEAVE_ALT_SCREEN = "\x1b[?1049l";
const SHOW_CURSOR = "\x1b[?25h";
/** Bracketed paste mode: the terminal wraps pasted text in ESC[200~ … ESC[201~ so it is not read as keys. */
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";
/** Mouse reports (DEC 1000) in SGR form (DEC 1006): the wheel scrolls the transcript. */
const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Switches to the alternate screen (with bracketed paste and mouse reports on) and guarantees the terminal is given
 * back — on normal exit, on a crash and on signals — by leaving it and showing the cursor. Under
 * NO_COLOR, everything the UI writes meanwhile is without colour. A row painter is hooked in after
 * the colour filter (its rows are filtered too) and unhooked first, so nothing is painted on the
 * screen the person goes back to. Returns the restore function.
 */
export function enterFullScreen(stdout: NodeJS.WriteStream = process.stdout, painter?: RowPainter): () => void {
	let restored = false;
	const restoreColour = filterColourOutput(stdout);
	const detachPainter = painter?.attach();
	const restore = () => {
		if (restored) return;
		restored = true;
		detachPainter?.();
		stdout.write(MOUSE_OFF + BRACKETED_PASTE_OFF + LEAVE_ALT_SCREEN + SHOW_CURSOR);
		restoreColour();
		process.off("exit", restore);
		for (const signal of SIGNALS) process.off(signal, onSignal);
		process.off("uncaughtException", onCrash);
	};
	const onSignal = (signal: NodeJS.Signals) => {
		restore();
		process.kill(process.pid, signal);
	};
	const onCrash = (error: Error) => {
		restore();
		process.stderr.write(`xcsh crashed: ${error.stack ?? error.message}\n`);
		process.exit(1);
	};
	stdout.write(ENTER_ALT_SCREEN + BRACKETED_PASTE_ON + MOUSE_ON);
	process.on("exit", restore);
	for (const signal of SIGNALS) process.once(signal, onSignal);
	process.on("uncaughtException", onCrash);
	return restore;
}
