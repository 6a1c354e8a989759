// biome-ignore-all lint/suspicious/noControlCharactersInRegex: matching terminal control bytes is the point of this module.

// CSI (colours, cursor moves), OSC (titles, hyperlinks; BEL or ST terminated), DCS/SOS/PM/APC strings,
// charset selection, and any other two-byte ESC sequence.
const ESCAPE_SEQUENCE =
	/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[()*+][ -~]|\x1b[ -/]*[0-~]/g;
// The start of any of those, cut off by the end of the text.
const INCOMPLETE_AT_END = /\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[()*+]|[ -/]*)$/;
// C0 controls other than tab, newline and carriage return (bell, backspace, stray ESC, shift in/out).
const OTHER_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
// An unterminated sequence longer than this is garbage, not a sequence split across reads.
const MAX_PENDING = 4096;

/**
 * Turns raw pty output into plain text, chunk by chunk: strips escape sequences and control bytes and
 * maps `\r\n` to `\n`. A sequence or `\r\n` split across two chunks is held back until it is complete.
 */
export class TerminalTextCleaner {
	private pending = "";

	/** Cleans the next chunk; may return less than it was given and emit the rest with a later chunk. */
	push(chunk: string): string {
		let text = this.pending + chunk;
		this.pending = "";
		const cut = incompleteTailStart(text);
		if (cut < text.length) {
			this.pending = text.slice(cut);
			text = text.slice(0, cut);
		}
		return clean(text);
	}

	/** Cleans whatever is still held back; call once the stream has ended. */
	flush(): string {
		const rest = this.pending;
		this.pending = "";
		return clean(rest);
	}
}

/** Renders lone carriage returns the way a progress bar looks when it is done: the last non-empty rewrite of each line. */
export function collapseCarriageReturns(text: string): string {
	if (!text.includes("\r")) return text;
	return text
		.split("\n")
		.map((line) => {
			const parts = line.split("\r").filter((part) => part !== "");
			return parts[parts.length - 1] ?? "";
		})
		.join("\n");
}

function clean(text: string): string {
	return text.replace(ESCAPE_SEQUENCE, "").replace(OTHER_CONTROLS, "").replace(/\r\n/g, "\n");
}

function incompleteTailStart(text: string): number {
	const windowStart = Math.max(0, text.length - MAX_PENDING);
	const partial = INCOMPLETE_AT_END.exec(text.slice(windowStart));
	if (partial !== null) return windowStart + partial.index;
	return text.endsWith("\r") ? text.length - 1 : text.length;
}
