import { isChord, type KeyAction, type KeyPress } from "../../controllers/keymap.js";
import type { ListMove } from "./list-state.js";

/** The move a list key makes (↑↓ a row, PgUp/PgDn a page, Home/End the ends), or undefined for any other key. */
export function listMoveFor(action: KeyAction | undefined, wrap = false): ListMove | undefined {
	switch (action) {
		case "up":
			return { type: "move", delta: -1, wrap };
		case "down":
			return { type: "move", delta: 1, wrap };
		case "pageUp":
			return { type: "page", direction: -1 };
		case "pageDown":
			return { type: "page", direction: 1 };
		case "home":
			return { type: "first" };
		case "end":
			return { type: "last" };
		default:
			return undefined;
	}
}

/** Text as typed into a one-line field: line breaks and tabs become spaces, control characters go. */
export function cleanTyped(input: string): string {
	return input.replace(/[\r\n\t]+/g, " ").replace(/\p{Cc}/gu, "");
}

/** The text a key press types into a one-line field: nothing for a Ctrl or Meta chord. */
export function typedText(input: string, key: KeyPress): string {
	if (isChord(key)) return "";
	return cleanTyped(input);
}

/** A change of a type-to-filter line (which has no cursor). */
export type FilterEdit =
	| { readonly type: "type"; readonly text: string }
	| { readonly type: "erase" }
	| { readonly type: "clear" };

/** What a key does to a filter line: `action` is the key's keymap action (undefined for text). */
export function filterEditFor(action: KeyAction | undefined, input: string, key: KeyPress): FilterEdit | undefined {
	switch (action) {
		// Terminals send DEL (0x7f) for Backspace and Ink reports it as `delete`; with no cursor both erase.
		case "backspace":
		case "delete":
			return { type: "erase" };
		case "killLine":
			return { type: "clear" };
		case undefined: {
			const text = typedText(input, key);
			return text.length > 0 ? { type: "type", text } : undefined;
		}
		default:
			return undefined;
	}
}

/** A filter line after `edit`. */
export function editFilter(filter: string, edit: FilterEdit): string {
	switch (edit.type) {
		case "type":
			return filter + edit.text;
		case "erase":
			return Array.from(filter).slice(0, -1).join("");
		case "clear":
			return "";
	}
}

/**
 * What a key does to a type-to-filter line: an edit, or "close" for Escape on an empty filter
 * (Escape peels one layer: the filter first, then the screen). Undefined for keys the screen decides.
 */
export function filterKeyFor(
	action: KeyAction | undefined,
	input: string,
	key: KeyPress,
	filter: string,
): FilterEdit | "close" | undefined {
	if (action === "cancel") return filter.length > 0 ? { type: "clear" } : "close";
	return filterEditFor(action, input, key);
}
