/**
 * Paints the chat transcript's rows straight onto the alternate screen, beside Ink. Ink lays the
 * transcript out as an empty box, so its frames only hold the editor and the status line and cost
 * what they cost; the rows (already wrapped and styled) are written here at absolute positions.
 * Ink's log-update erases every line of its frame on each write, so the rows are painted again
 * right after every frame Ink writes (inside its synchronized update when it uses one).
 */

/** Synchronized output (DEC mode 2026): the terminal shows what is between the two at once. */
export const SYNC_START = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";
/** DECSC / DECRC: the cursor (and its attributes) Ink left is put back after painting. */
const SAVE_CURSOR = "\x1b7";
const RESTORE_CURSOR = "\x1b8";
const RESET = "\x1b[0m";
const ERASE_LINE = "\x1b[2K";
/**
 * How Ink erases what it drew: log-update's eraseLines (up line by line, then column 1), or a
 * clear of the whole terminal (a frame as tall as the screen, or taller after a resize).
 */
const ESC_PATTERN = "\\x1b";
const ERASES = new RegExp(
	`(?:${ESC_PATTERN}\\[2K${ESC_PATTERN}\\[1A)*${ESC_PATTERN}\\[2K${ESC_PATTERN}\\[G|${ESC_PATTERN}\\[2J(?:${ESC_PATTERN}\\[3J)?${ESC_PATTERN}\\[H`,
	"g",
);

/** What to paint: `height` screen rows from row `top` (1-based), laid out for `columns` columns. */
export interface PaintWindow {
	readonly top: number;
	readonly height: number;
	/** Styled rows, each no wider than `columns`; rows past their end are painted blank. */
	readonly rows: readonly string[];
	readonly columns: number;
}

/**
 * The escape string that draws a window: each row is erased with default attributes first (an
 * erase after a row as wide as the screen would take its last cell), then written, then reset.
 */
export function paintSequence(window: Pick<PaintWindow, "top" | "height" | "rows">): string {
	let out = SAVE_CURSOR;
	for (let i = 0; i < window.height; i++) {
		out += `\x1b[${window.top + i};1H${RESET}${ERASE_LINE}${window.rows[i] ?? ""}${RESET}`;
	}
	return out + RESTORE_CURSOR;
}

function sameWindow(a: PaintWindow | undefined, b: PaintWindow): boolean {
	if (!a) return false;
	if (a.top !== b.top || a.height !== b.height || a.columns !== b.columns) return false;
	if (a.rows === b.rows) return true;
	if (a.rows.length !== b.rows.length) return false;
	return a.rows.every((row, i) => row === b.rows[i]);
}

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

/**
 * Keeps a window of rows painted on a TTY stream: paints it when it changes and again after every
 * other write to the stream (Ink's frames), until hidden. Writes go through the `write` that was
 * in place when it attached (so the NO_COLOR filter applies to them).
 */
export class RowPainter {
	readonly #stream: NodeJS.WriteStream;
	#write: Write | undefined;
	#window: PaintWindow | undefined;
	/** What Ink has written since it opened a synchronized update, not yet passed on. */
	#held: string | undefined;
	/** A frame is complete in `#held` and waits for the rows the view is about to show. */
	#frameWaits = false;
	#expectingRows = false;

	constructor(stream: NodeJS.WriteStream) {
		this.#stream = stream;
	}

	/**
	 * Hooks the stream's `write`; returns the function that unhooks it (and stops painting). What
	 * Ink writes inside a synchronized update is held and written once with the rows, as one chunk,
	 * so even a terminal without DEC 2026 shows the frame and its rows together.
	 */
	attach(): () => void {
		const inner = this.#stream.write as Write;
		this.#write = inner;
		const painter = this;
		const hooked = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
			if (painter.#frameWaits) painter.#flush(painter.#sequence());
			if (painter.#held !== undefined && typeof chunk === "string" && rest.length === 0) {
				if (chunk !== SYNC_END) painter.#held += chunk;
				else if (painter.#expectingRows) painter.#frameWaits = true;
				else painter.#flush(painter.#sequence());
				return true;
			}
			if (painter.#held !== undefined) painter.#flush(undefined);
			if (chunk === SYNC_START && rest.length === 0) {
				painter.#held = SYNC_START;
				return true;
			}
			const result = inner.call(this, chunk, ...rest);
			if (chunk !== "") painter.#paint();
			return result;
		};
		this.#stream.write = hooked as NodeJS.WriteStream["write"];
		return () => {
			if (this.#frameWaits) this.#flush("");
			else if (this.#held !== undefined) this.#flush(undefined);
			this.#window = undefined;
			this.#write = undefined;
			if (this.#stream.write === hooked) this.#stream.write = inner as NodeJS.WriteStream["write"];
		};
	}

	/**
	 * Says new rows are on their way (the view re-rendered; it measures its box once Ink has laid
	 * the frame out): a frame Ink writes meanwhile waits for them, so the two go out together.
	 * Whatever happens, the frame is written by the end of the current task.
	 */
	expectRows(): void {
		if (this.#expectingRows) return;
		this.#expectingRows = true;
		queueMicrotask(() => {
			this.#expectingRows = false;
			if (this.#frameWaits) this.#flush(this.#sequence());
		});
	}

	/** Paints `window` now (unless it is what is on screen) and after every frame from now on. */
	show(window: PaintWindow): void {
		this.#expectingRows = false;
		const changed = !sameWindow(this.#window, window);
		this.#window = window;
		if (this.#frameWaits) this.#flush(this.#sequence());
		else if (changed && this.#fits(window))
			this.#write?.call(this.#stream, SYNC_START + paintSequence(window) + SYNC_END);
	}

	/** Stops painting; the next frame Ink writes erases what was painted. */
	hide(): void {
		this.#expectingRows = false;
		this.#window = undefined;
		if (this.#frameWaits) this.#flush("");
	}

	/**
	 * Writes what Ink wrote since its synchronized update opened with `rows` and closes it (if given).
	 * The rows go right after Ink's last erase, before its frame (whose transcript lines are empty):
	 * a terminal that shows a long write as it arrives shows the rows no later than the editor.
	 * Without an erase they go last.
	 */
	#flush(rows: string | undefined): void {
		const held = this.#held ?? "";
		this.#held = undefined;
		this.#frameWaits = false;
		if (rows === undefined) {
			this.#write?.call(this.#stream, held);
			return;
		}
		let at = held.length;
		for (const erase of held.matchAll(ERASES)) at = erase.index + erase[0].length;
		this.#write?.call(this.#stream, held.slice(0, at) + rows + held.slice(at) + SYNC_END);
	}

	/**
	 * Rows laid out for another width would wrap, and rows below the frame would land on the last
	 * line: after a resize they wait for the layout of the new size.
	 */
	#fits(window: PaintWindow): boolean {
		return window.columns === this.#stream.columns && window.top + window.height <= this.#stream.rows;
	}

	/** The rows to paint now, or nothing (hidden, or laid out for another size). */
	#sequence(): string {
		const window = this.#window;
		return window && this.#fits(window) ? paintSequence(window) : "";
	}

	#paint(): void {
		const sequence = this.#sequence();
		if (sequence) this.#write?.call(this.#stream, sequence);
	}
}

/** The painter for a stream when it is a terminal; elsewhere (tests, pipes) Ink draws the rows itself. */
export function rowPainterFor(stream: NodeJS.WriteStream): RowPainter | undefined {
	return stream.isTTY ? new RowPainter(stream) : undefined;
}
