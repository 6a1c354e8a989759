/**
 * Session content (titles, prompts, tool output, paths, lock holders, parser messages) is hostile
 * text: a tool result holding `ESC]0;…BEL` would retitle the window, `ESC]52;…` write the clipboard,
 * `ESC]8;…` plant a link, `ESC[2J` clear the screen. Everything from a session goes through here
 * before it becomes terminal text; our own styling is added afterwards, never passed through.
 *
 * Rendering (readable, and never itself a control):
 * - C0 controls U+0000–U+001F become their Unicode control pictures U+2400–U+241F: ESC → `␛`,
 *   BEL → `␇`, NUL → `␀`, CR → `␍`. Tab stays; newline stays where the text may span lines.
 * - DEL U+007F becomes `␡`.
 * - C1 controls U+0080–U+009F (which 8-bit terminals read as CSI, OSC…) have no control picture:
 *   they become the escape `\x9b` as text.
 */

// Built from code points: control characters inside a regex literal trip the linter.
const range = (from: number, to: number) => `${String.fromCharCode(from)}-${String.fromCharCode(to)}`;
/** Every control but tab and newline, plus DEL and C1. */
const UNSAFE_MULTILINE = new RegExp(`[${range(0, 8)}${range(11, 31)}${range(0x7f, 0x9f)}]`, "g");
/** Every control, plus DEL and C1. */
const UNSAFE = new RegExp(`[${range(0, 31)}${range(0x7f, 0x9f)}]`);
const LINE_BREAK = /\r\n|[\t\n\r]/g;
const C1_AND_DEL = new RegExp(`[${range(0x7f, 0x9f)}]`, "g");

function picture(char: string): string {
	const code = char.charCodeAt(0);
	if (code < 0x20) return String.fromCharCode(0x2400 + code);
	if (code === 0x7f) return "\u2421";
	return `\\x${code.toString(16)}`;
}

/** Text that may span lines, with every control but tab and newline made visible (CRLF becomes LF). */
export function safeText(text: string): string {
	if (!UNSAFE.test(text)) return text;
	return text.replace(/\r\n/g, "\n").replace(UNSAFE_MULTILINE, picture);
}

/** One line of text: tabs and line breaks become spaces, every other control is made visible. */
export function safeLine(text: string): string {
	if (!UNSAFE.test(text)) return text;
	return safeText(text.replace(LINE_BREAK, " "));
}

/**
 * A copy of a JSON-like value (a message, its tool arguments) with `safeText` applied to every
 * string in it; keys are left as they are, non-plain objects are returned untouched.
 */
export function safeDeep<T>(value: T): T {
	if (typeof value === "string") return safeText(value) as T;
	if (Array.isArray(value)) {
		let changed = false;
		const out = value.map((item) => {
			const safe = safeDeep(item);
			if (safe !== item) changed = true;
			return safe;
		});
		return (changed ? out : value) as T;
	}
	if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
		let out: Record<string, unknown> | undefined;
		for (const [key, item] of Object.entries(value)) {
			const safe = safeDeep(item);
			if (safe !== item) {
				out ??= { ...(value as Record<string, unknown>) };
				out[key] = safe;
			}
		}
		return (out ?? value) as T;
	}
	return value;
}

/**
 * JSON for a terminal: `JSON.stringify` escapes C0 but writes DEL and C1 raw, and a terminal in
 * an 8-bit (non-UTF-8) locale reads byte 0x9B as CSI. Those become `\u009b` escapes: the same JSON
 * value, nothing for a terminal to act on.
 */
export function safeJson(value: unknown): string {
	return JSON.stringify(value, null, 2).replace(
		C1_AND_DEL,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
}
