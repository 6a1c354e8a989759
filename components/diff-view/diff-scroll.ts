import type { KeyAction } from "../../controllers/keymap.js";

/** Where a scrolled text is: its first shown line, over `count` lines in `rows` rows. */
export interface DiffScroll {
	readonly start: number;
	readonly count: number;
	readonly rows: number;
}

/** A key on the diff, or a new height. */
export type DiffScrollAction =
	| { readonly type: "key"; readonly action: KeyAction | undefined }
	| { readonly type: "resize"; readonly rows: number };

function clamp(scroll: DiffScroll, start: number): DiffScroll {
	const max = Math.max(0, scroll.count - scroll.rows);
	const next = Math.max(0, Math.min(start, max));
	return next === scroll.start ? scroll : { ...scroll, start: next };
}

/** The diff's scroll: ↑↓ a line, PgUp/PgDn a page, Home/End the ends. Pure. */
export function diffScrollReducer(scroll: DiffScroll, action: DiffScrollAction): DiffScroll {
	if (action.type === "resize") {
		const rows = Math.max(1, Math.floor(action.rows));
		return rows === scroll.rows ? scroll : clamp({ ...scroll, rows }, scroll.start);
	}
	switch (action.action) {
		case "up":
		case "scrollUp":
			return clamp(scroll, scroll.start - 1);
		case "down":
		case "scrollDown":
			return clamp(scroll, scroll.start + 1);
		case "pageUp":
			return clamp(scroll, scroll.start - scroll.rows);
		case "pageDown":
			return clamp(scroll, scroll.start + scroll.rows);
		case "home":
			return clamp(scroll, 0);
		case "end":
			return clamp(scroll, scroll.count);
		default:
			return scroll;
	}
}

/** What colour a diff line takes: headers bold, hunks cyan, additions green, removals red. */
export type DiffLineStyle = "header" | "hunk" | "added" | "removed" | "plain";

/** The style of one line of a unified diff (as `diff-colour.ts` colours it for the CLI). */
export function diffLineStyle(line: string): DiffLineStyle {
	if (/^(diff --git|index |--- |\+\+\+ |new file|deleted file|old mode|new mode)/.test(line)) return "header";
	if (line.startsWith("@@")) return "hunk";
	if (line.startsWith("+")) return "added";
	if (line.startsWith("-")) return "removed";
	return "plain";
}
