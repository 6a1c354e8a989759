import type { KeyPress } from "./keymap.js";

/**
 * Turns what Ink hands an input handler into the keys the person typed. Ink 6.8 cuts a read at
 * escape sequences but hands a run of plain bytes over as one string ("abc\r", "\x7f\x7f\x7f"),
 * decoded as if it were one key, so Enter and Backspace inside it are lost. The reader splits such
 * a run into one key per character, each decoded exactly as Ink decodes that character typed on
 * its own, and recognises bracketed pastes (`ESC[200~ … ESC[201~`), the only input that is text.
 *
 * Written by hand: the keypress parsers on npm (node's `readline.emitKeypressEvents`, `keypress`)
 * read a stream themselves and would fight Ink's own reader; this only splits what Ink already read.
 */

/** One thing the person did: pressed a key (as Ink reports it), pasted text, or used the mouse. */
export type KeyEvent =
	| { readonly kind: "key"; readonly input: string; readonly key: KeyPress }
	| { readonly kind: "paste"; readonly text: string }
	/** The wheel turned one notch: -1 up (toward older text), 1 down. */
	| { readonly kind: "wheel"; readonly direction: -1 | 1 }
	/** Any other mouse report (a click, a release): never text. */
	| { readonly kind: "mouse" };

/** Bracketed paste mode (DEC 2004): the terminal wraps pasted text in these. */
export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";

const ESC = "\x1b";
/** An SGR mouse report (DEC 1006): `ESC [ < button ; column ; row M|m`. */
const SGR_MOUSE = new RegExp(`^${ESC}\\[<(\\d+);\\d+;\\d+[Mm]$`);
/** Wheel reports are buttons 64 (up) and 65 (down), plus 4, 8 or 16 for Shift, Meta and Ctrl. */
const WHEEL_BIT = 64;
const MODIFIER_BITS = 4 | 8 | 16;
const CONTROL = /\p{Cc}/u;
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Splits a run of plain bytes (no ESC) into keys: one per grapheme, every control character on its own. */
export function splitPlainRun(run: string): string[] {
	const keys: string[] = [];
	for (const { segment } of segmenter.segment(run)) {
		// "\r\n" is one grapheme, but two keys.
		if (CONTROL.test(segment)) keys.push(...Array.from(segment));
		else keys.push(segment);
	}
	return keys;
}

/** What Ink reports for one plain character typed on its own (its `parseKeypress` + `useInput`). */
export function plainKey(char: string): { readonly input: string; readonly key: KeyPress } {
	switch (char) {
		case "\r":
			return { input: "\r", key: { return: true } };
		case "\t":
			return { input: "", key: { tab: true } };
		// Terminals send DEL for Backspace; Ink calls it `delete` and keeps `backspace` for BS.
		case "\x7f":
			return { input: "", key: { delete: true } };
		case "\b":
			return { input: "", key: { backspace: true } };
		default:
			break;
	}
	const code = char.codePointAt(0) ?? 0;
	// Ctrl+letter (LF excepted: Ink reports it as the plain input "\n").
	if (char.length === 1 && code <= 0x1a && char !== "\n") {
		return { input: String.fromCharCode(code + 0x60), key: { ctrl: true } };
	}
	return { input: char, key: /^[A-Z]$/.test(char) ? { shift: true } : {} };
}

/** Where a reader is: inside a bracketed paste or not, and whether the last pasted character was CR. */
export interface KeyReaderState {
	readonly inPaste: boolean;
	readonly afterCr: boolean;
}

/** A reader that has seen nothing yet. */
export const INITIAL_KEY_READER: KeyReaderState = { inPaste: false, afterCr: false };

/**
 * Reads one input event. `raw` is the string Ink's parser emitted (one escape sequence, or a run of
 * plain bytes); `input` and `key` are what Ink's `useInput` decoded from it. Returns the events to
 * apply in order and the next state.
 */
export function readKeys(
	state: KeyReaderState,
	raw: string,
	input: string,
	key: KeyPress,
): { readonly state: KeyReaderState; readonly events: readonly KeyEvent[] } {
	if (raw === PASTE_START) return { state: { inPaste: true, afterCr: false }, events: [] };
	if (raw === PASTE_END) return { state: INITIAL_KEY_READER, events: [] };
	if (state.inPaste) {
		const { text, afterCr } = pastedText(raw, state.afterCr);
		return { state: { inPaste: true, afterCr }, events: text === "" ? [] : [{ kind: "paste", text }] };
	}
	const mouse = SGR_MOUSE.exec(raw);
	if (mouse) return { state, events: [mouseEvent(Number(mouse[1]))] };
	// An escape sequence is one key, already decoded by Ink.
	if (raw.startsWith(ESC) || raw === "") return { state, events: [{ kind: "key", input, key }] };
	const keys = splitPlainRun(raw);
	if (keys.length === 1) return { state, events: [{ kind: "key", input, key }] };
	return { state, events: keys.map((char) => ({ kind: "key", ...plainKey(char) })) };
}

/** A mouse report as an event: the wheel scrolls, the rest is ignored. */
function mouseEvent(button: number): KeyEvent {
	const plain = button & ~MODIFIER_BITS;
	if (plain === WHEEL_BIT) return { kind: "wheel", direction: -1 };
	if (plain === WHEEL_BIT + 1) return { kind: "wheel", direction: 1 };
	return { kind: "mouse" };
}

/** Pasted bytes as editor text: CR LF, CR and LF all become one newline, also across reads. */
function pastedText(raw: string, afterCr: boolean): { readonly text: string; readonly afterCr: boolean } {
	const text = (afterCr && raw.startsWith("\n") ? raw.slice(1) : raw).replace(/\r\n?/g, "\n");
	return { text, afterCr: raw.endsWith("\r") };
}
