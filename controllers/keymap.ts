/**
 * The one key map of the UI. Components never test raw keys: they ask `matchKey(input, key)`
 * for an action name. Ink's `Key` shape is mirrored here so controllers stay free of React/Ink.
 */
export interface KeyPress {
	upArrow?: boolean;
	downArrow?: boolean;
	leftArrow?: boolean;
	rightArrow?: boolean;
	pageUp?: boolean;
	pageDown?: boolean;
	home?: boolean;
	end?: boolean;
	return?: boolean;
	escape?: boolean;
	ctrl?: boolean;
	shift?: boolean;
	tab?: boolean;
	backspace?: boolean;
	delete?: boolean;
	meta?: boolean;
}

/** Every action a key can trigger. */
export type KeyAction =
	| "up"
	| "down"
	| "left"
	| "right"
	| "pageUp"
	| "pageDown"
	| "home"
	| "end"
	| "submit"
	| "newline"
	| "cancel"
	| "interrupt"
	| "tab"
	| "backspace"
	| "delete"
	| "historySearch"
	| "deleteItem"
	| "rename"
	| "wordLeft"
	| "wordRight"
	| "lineStart"
	| "lineEnd"
	| "killLine"
	| "editLabel"
	| "showDiff"
	| "killWordLeft"
	| "scrollUp"
	| "scrollDown"
	| "toggleThinking"
	| "toggleToolOutput";

/** The action for a key press, or undefined for plain text input. */
export function matchKey(input: string, key: KeyPress): KeyAction | undefined {
	if (key.ctrl) {
		switch (input) {
			case "c":
				return "interrupt";
			case "r":
				return "historySearch";
			case "d":
				return "deleteItem";
			case "a":
				return "lineStart";
			case "e":
				return "lineEnd";
			case "u":
				return "killLine";
			case "n":
				return "rename";
			case "j":
				return "newline";
			case "w":
				return "killWordLeft";
			case "t":
				return "toggleThinking";
			case "o":
				return "toggleToolOutput";
			default:
				break;
		}
	}
	// Legacy terminals send Ctrl+J as a bare LF, which Ink reports as plain input.
	if (input === "\n") return "newline";
	// Readline's Alt+B / Alt+F arrive as ESC b / ESC f.
	if (key.meta && input === "b") return "wordLeft";
	if (key.meta && input === "f") return "wordRight";
	// Shift+Enter and Alt/Meta+Enter insert a newline; terminals send Alt+Enter as ESC CR.
	if (key.return && (key.shift || key.meta)) return "newline";
	if (key.return) return "submit";
	if (key.escape) return "cancel";
	// Shift+↑/↓ scroll the transcript a row; plain ↑/↓ stay with the editor (history, lines).
	if (key.shift && key.upArrow) return "scrollUp";
	if (key.shift && key.downArrow) return "scrollDown";
	if (key.upArrow) return "up";
	if (key.downArrow) return "down";
	if (key.leftArrow) return key.meta || key.ctrl ? "wordLeft" : "left";
	if (key.rightArrow) return key.meta || key.ctrl ? "wordRight" : "right";
	if (key.pageUp) return "pageUp";
	if (key.pageDown) return "pageDown";
	if (key.home) return "home";
	if (key.end) return "end";
	if (key.tab) return "tab";
	if (key.backspace) return "backspace";
	if (key.delete) return "delete";
	return undefined;
}

/** A Ctrl or Alt (Meta) chord: a key that never types its letter. */
export function isChord(key: KeyPress): boolean {
	return key.ctrl === true || key.meta === true;
}

/** The answer to a y/n prompt: y/Y confirms, n/N or Escape declines, anything else is ignored. */
export function matchConfirmKey(input: string, key: KeyPress): "confirm" | "decline" | undefined {
	if (key.escape) return "decline";
	if (isChord(key)) return undefined;
	if (input === "y" || input === "Y") return "confirm";
	if (input === "n" || input === "N") return "decline";
	return undefined;
}

/**
 * Keys of the session tree: `matchKey`, plus a plain `l` reported as `editLabel` and `d` as
 * `showDiff`. The tree decides whether that means the action (no search typed yet) or the letter
 * typed into the search.
 */
export function matchTreeKey(input: string, key: KeyPress): KeyAction | undefined {
	const action = matchKey(input, key);
	if (action !== undefined || isChord(key)) return action;
	if (input === "l") return "editLabel";
	if (input === "d") return "showDiff";
	return undefined;
}

/** A letter that picks a choice by itself (the locked-session choice's f / r / c), in either case; never a Ctrl or Alt chord. */
export function matchChoiceLetter<L extends string>(
	input: string,
	key: KeyPress,
	letters: readonly L[],
): L | undefined {
	if (isChord(key)) return undefined;
	return letters.find((letter) => letter === input.toLowerCase());
}

/** What a key does on the confirm screen. */
export type ConfirmScreenAction = "confirm" | "decline" | "toggleDetails" | "up" | "down";

/** Keys of the confirm screen: Enter or y confirms, Escape or n declines, v shows or hides the details, ↑/↓ scroll them. */
export function matchConfirmScreenKey(input: string, key: KeyPress): ConfirmScreenAction | undefined {
	const answer = matchConfirmKey(input, key);
	if (answer !== undefined) return answer;
	const action = matchKey(input, key);
	if (action === "submit") return "confirm";
	if (action === "up" || action === "down") return action;
	return matchChoiceLetter(input, key, ["v"]) === "v" ? "toggleDetails" : undefined;
}
