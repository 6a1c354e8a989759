/**
 * The scroll state of the chat transcript. The transcript is a list of blocks (one per message,
 * notice, the streaming answer, the running tools), each a list of pre-wrapped rows that are only
 * computed when a window touches them: a 100,000-message session costs what a short one does.
 *
 * The position is the bottom row on screen, held as (block key, row): new output below it does not
 * move the view, and a resize or Ctrl+O keeps the same block on screen. No position means the view
 * follows the end.
 */

/** The transcript as blocks of rows; `rows(i)` may compute (and cache) a block's rows on demand. */
export interface TranscriptSource {
	readonly length: number;
	key(index: number): string;
	rows(index: number): readonly string[];
}

/** The bottom row on screen while scrolled up. */
export interface ScrollAnchor {
	readonly index: number;
	readonly key: string;
	readonly row: number;
}

/** What the viewport draws: its rows, and how many rows are below them (0 at the end). */
export interface ViewportWindow {
	readonly rows: readonly string[];
	readonly below: number;
	/** `below` counts every row under the window, or stops counting at the budget (`below` is a floor). */
	readonly belowExact: boolean;
}

/** What the chat screen re-renders on. */
export interface ViewportSnapshot {
	readonly anchor: ScrollAnchor | undefined;
}

/** Blocks looked at to count the rows below the window; beyond them the count says "more than". */
const BELOW_BUDGET_BLOCKS = 400;
/** How far back a moved anchor's key is looked for (blocks are appended, rarely removed). */
const RELOCATE_BLOCKS = 8;

/** A position: block and row. */
interface At {
	index: number;
	row: number;
}

/** The last row of the transcript, or undefined when it has none. */
function lastRow(source: TranscriptSource): At | undefined {
	for (let index = source.length - 1; index >= 0; index--) {
		const count = source.rows(index).length;
		if (count > 0) return { index, row: count - 1 };
	}
	return undefined;
}

/** The first row of the transcript, or undefined when it has none. */
function firstRow(source: TranscriptSource): At | undefined {
	for (let index = 0; index < source.length; index++) if (source.rows(index).length > 0) return { index, row: 0 };
	return undefined;
}

/** Where an anchor is in this source (its block may have moved or shrunk), or undefined if gone. */
function locate(source: TranscriptSource, anchor: ScrollAnchor): At | undefined {
	const from = Math.min(anchor.index, source.length - 1);
	for (let index = from; index >= Math.max(0, from - RELOCATE_BLOCKS); index--) {
		if (source.key(index) !== anchor.key) continue;
		const count = source.rows(index).length;
		if (count === 0) return undefined;
		return { index, row: Math.min(anchor.row, count - 1) };
	}
	return undefined;
}

/** Moves `at` by `delta` rows (negative: up), stopping at the first and the last row. */
function move(source: TranscriptSource, at: At, delta: number): At {
	let { index, row } = at;
	let left = Math.abs(delta);
	while (left > 0) {
		const count = source.rows(index).length;
		if (delta < 0 && row >= left) return { index, row: row - left };
		if (delta > 0 && count - 1 - row >= left) return { index, row: row + left };
		// Step onto the nearest row of the next non-empty block that way.
		left -= delta < 0 ? row + 1 : count - row;
		let next = index + Math.sign(delta);
		while (next >= 0 && next < source.length && source.rows(next).length === 0) next += Math.sign(delta);
		if (next < 0 || next >= source.length) return { index, row: delta < 0 ? 0 : count - 1 };
		index = next;
		row = delta < 0 ? source.rows(index).length - 1 : 0;
	}
	return { index, row };
}

/** True when `a` is at or after `b`. */
function atOrAfter(a: At, b: At): boolean {
	return a.index > b.index || (a.index === b.index && a.row >= b.row);
}

/** Collects the `height` rows that end at `bottom` (fewer at the top of the transcript). */
function rowsEndingAt(source: TranscriptSource, bottom: At, height: number): string[] {
	const chunks: (readonly string[])[] = [];
	let needed = height;
	for (let index = bottom.index; index >= 0 && needed > 0; index--) {
		const rows = source.rows(index);
		const end = index === bottom.index ? bottom.row + 1 : rows.length;
		const start = Math.max(0, end - needed);
		if (end > start) chunks.push(rows.slice(start, end));
		needed -= end - start;
	}
	return chunks.reverse().flat();
}

/** Rows after `at`, counted until the budget of blocks runs out. */
function rowsAfter(source: TranscriptSource, at: At): { count: number; exact: boolean } {
	let count = source.rows(at.index).length - 1 - at.row;
	const last = Math.min(source.length - 1, at.index + BELOW_BUDGET_BLOCKS);
	for (let index = at.index + 1; index <= last; index++) count += source.rows(index).length;
	return { count, exact: last === source.length - 1 };
}

/**
 * The window of `height` rows: the last ones when following the end, else the ones ending at the
 * anchor with a row left free under them for the "more below" marker. A window that would start
 * above the first row is pushed down so the screen stays full.
 */
export function viewportWindow(
	source: TranscriptSource,
	anchor: ScrollAnchor | undefined,
	height: number,
): ViewportWindow {
	const end = lastRow(source);
	if (end === undefined || height <= 0) return { rows: [], below: 0, belowExact: true };
	const at = anchor ? locate(source, anchor) : undefined;
	if (at === undefined || atOrAfter(at, end))
		return { rows: rowsEndingAt(source, end, height), below: 0, belowExact: true };
	const room = Math.max(1, height - 1);
	let bottom = at;
	let rows = rowsEndingAt(source, bottom, room);
	if (rows.length < room) {
		bottom = move(source, bottom, room - rows.length);
		if (atOrAfter(bottom, end)) return { rows: rowsEndingAt(source, end, height), below: 0, belowExact: true };
		rows = rowsEndingAt(source, bottom, room);
	}
	const after = rowsAfter(source, bottom);
	return { rows, below: after.count, belowExact: after.exact };
}

/** Pages above the window whose rows are computed ahead, between frames (one below). */
export const WARM_PAGES_ABOVE = 2;
/** How long one slice of that work may hold the event loop (keys wait behind it), in ms. */
const WARM_SLICE_MS = 4;

/**
 * The blocks around the window, nearest first: up to `pagesAbove` pages of rows above it and one
 * page below. Asking for a block's rows computes (and caches) them, which is the point: paging
 * and the wheel then land on rows already drawn. Yields after each block so the work can be sliced.
 */
export function* warmBlocks(
	source: TranscriptSource,
	anchor: ScrollAnchor | undefined,
	height: number,
	pagesAbove = WARM_PAGES_ABOVE,
): Generator<number, void, undefined> {
	const end = lastRow(source);
	if (end === undefined) return;
	const at = (anchor ? locate(source, anchor) : undefined) ?? end;
	let above = -at.row - 1;
	for (let index = at.index; index >= 0 && above < (pagesAbove + 1) * height; index--) {
		above += source.rows(index).length;
		yield index;
	}
	let below = source.rows(at.index).length - 1 - at.row;
	for (let index = at.index + 1; index < source.length && below < height; index++) {
		below += source.rows(index).length;
		yield index;
	}
}

/** Scroll state of the transcript: plain TypeScript, the chat view binds with useSyncExternalStore. */
export class TranscriptViewport {
	readonly #listeners = new Set<() => void>();
	#snapshot: ViewportSnapshot = { anchor: undefined };
	#source: TranscriptSource = { length: 0, key: () => "", rows: () => [] };
	#height = 1;
	#warming: Iterator<number> | undefined;
	/** What the last warm-up started from: a render that changes none of it starts none. */
	#warmedFor: readonly [TranscriptSource, number, ViewportSnapshot] | undefined;
	#warmTimer: NodeJS.Immediate | undefined;

	/** Hears every move. */
	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** The current position (a new object after every move). */
	getSnapshot = (): ViewportSnapshot => this.#snapshot;

	/** The view reports what it drew: the blocks and the rows it has (scrolling moves over them). */
	attach(source: TranscriptSource, height: number): void {
		this.#source = source;
		this.#height = Math.max(1, height);
		this.#warm();
	}

	/** True while scrolled up from the end. */
	get scrolled(): boolean {
		return this.#snapshot.anchor !== undefined;
	}

	/** Scrolls by `rows` (negative: up, toward the first message). */
	scrollBy(rows: number): void {
		const source = this.#source;
		const end = lastRow(source);
		const start = firstRow(source);
		if (end === undefined || start === undefined || rows === 0) return;
		const current = this.#snapshot.anchor ? locate(source, this.#snapshot.anchor) : undefined;
		let next = move(source, current ?? end, rows);
		// Not above the first page: the top row stays at the top of the screen (above the marker row).
		const firstPage = move(source, start, Math.max(0, this.#height - 2));
		if (!atOrAfter(next, firstPage)) next = firstPage;
		if (atOrAfter(next, end)) this.toBottom();
		else this.#set({ index: next.index, key: source.key(next.index), row: next.row });
	}

	/** Scrolls by pages (negative: up); a page keeps one row of the last one for context. */
	page(pages: number): void {
		this.scrollBy(pages * Math.max(1, this.#height - 1));
	}

	/** Follows the end again. */
	toBottom(): void {
		if (this.#snapshot.anchor !== undefined) this.#set(undefined);
	}

	#set(anchor: ScrollAnchor | undefined): void {
		this.#snapshot = { anchor };
		for (const listener of this.#listeners) listener();
		this.#warm();
	}

	/** (Re)starts computing the rows around the window, in slices between frames and keys. */
	#warm(): void {
		const from = [this.#source, this.#height, this.#snapshot] as const;
		if (this.#warmedFor?.every((part, i) => part === from[i])) return;
		this.#warmedFor = from;
		this.#warming = warmBlocks(this.#source, this.#snapshot.anchor, this.#height);
		if (this.#warmTimer) return;
		const slice = () => {
			this.#warmTimer = undefined;
			const deadline = performance.now() + WARM_SLICE_MS;
			const work = this.#warming;
			while (work && performance.now() < deadline) {
				if (work.next().done) {
					if (this.#warming === work) this.#warming = undefined;
					return;
				}
			}
			this.#warmTimer = setImmediate(slice).unref();
		};
		this.#warmTimer = setImmediate(slice).unref();
	}
}
