/** The slice of a list a screen shows: rows `start` to `end` (exclusive) and how many are hidden each side. */
export interface ListWindow {
	readonly start: number;
	readonly end: number;
	readonly above: number;
	readonly below: number;
}

/**
 * The first visible index of a `rows`-tall window over `count` items, centred on `selected` and
 * kept inside the list. Every windowed screen (tree, picker, search, confirm) uses this one.
 */
export function windowStartFor(selected: number, count: number, rows: number): number {
	const height = Math.max(1, Math.floor(rows));
	if (count <= height) return 0;
	return Math.max(0, Math.min(selected - Math.floor(height / 2), count - height));
}

/** The window of `rows` items starting at `start` over a `count`-long list. */
export function listWindow(start: number, count: number, rows: number): ListWindow {
	const first = Math.max(0, Math.min(start, count));
	const end = Math.min(count, first + Math.max(1, Math.floor(rows)));
	return { start: first, end, above: first, below: count - end };
}

/** The text of a `▲` / `▼` marker line: how many items are hidden that way, or a blank that keeps the line. */
export function moreMarker(direction: "above" | "below", hidden: number): string {
	if (hidden <= 0) return " ";
	return `${direction === "above" ? "▲" : "▼"} ${hidden} more`;
}
