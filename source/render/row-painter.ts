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
		let held: string | undefined;
		const hooked = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
			if (held !== undefined && typeof chunk === "string" && rest.length === 0) {
				if (chunk !== SYNC_END) {
					held += chunk;
					return true;
				}
				const frame = held + painter.#sequence() + SYNC_END;
				held = undefined;
				return inner.call(this, frame);
			}
			if (held !== undefined) {
				inner.call(this, held);
				held = undefined;
			}
			if (chunk === SYNC_START && rest.length === 0) {
				held = SYNC_START;
				return true;
			}
			const result = inner.call(this, chunk, ...rest);
			if (chunk !== "") painter.#paint();
			return result;
		};
		this.#stream.write = hooked as NodeJS.WriteStream["write"];
		return () => {
			if (held !== undefined) inner.call(this.#stream, held);
			this.#window = undefined;
			this.#write = undefined;
			if (this.#stream.write === hooked) this.#stream.write = inner as NodeJS.WriteStream["write"];
		};
	}

	/** Paints `window` now (unless it is what is on screen) and after every frame from now on. */
	show(window: PaintWindow): void {
		if (sameWindow(this.#window, window)) return;
		this.#window = window;
		if (this.#fits(window)) this.#write?.call(this.#stream, SYNC_START + paintSequence(window) + SYNC_END);
	}

	/** Stops painting; the next frame Ink writes erases what was painted. */
	hide(): void {
		this.#window = undefined;
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
