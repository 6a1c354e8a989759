/**
 * A pure multi-line text buffer with one cursor. Every operation returns a new buffer (or the same
 * object when nothing changes, so callers can tell "hit an edge" from "moved").
 *
 * `col` counts grapheme clusters, not UTF-16 units: an emoji, a flag or "e" + combining accent is
 * one step for the cursor and one Backspace.
 */
export interface EditorBuffer {
	readonly lines: readonly string[];
	readonly row: number;
	readonly col: number;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const WORD = /^[\p{L}\p{N}\p{M}_]/u;

/** The grapheme clusters of `text`, i.e. what a person counts as characters. */
export function graphemes(text: string): string[] {
	return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** An empty buffer. */
export const EMPTY_BUFFER: EditorBuffer = { lines: [""], row: 0, col: 0 };

/** Turns terminal input into buffer text: CRLF and CR become LF; other control bytes are dropped. */
export function sanitizeInput(text: string): string {
	const normalised = text.replaceAll("\r\n", "\n").replaceAll("\r", "\n");
	let out = "";
	for (const char of normalised) {
		const code = char.codePointAt(0) ?? 0;
		// Keep LF and TAB; a stray ESC or BEL pasted into the prompt would corrupt the screen.
		if ((code < 0x20 && char !== "\n" && char !== "\t") || code === 0x7f) continue;
		out += char;
	}
	return out;
}

/** A buffer holding `text`, cursor at the very end. */
export function fromText(text: string): EditorBuffer {
	const lines = text.split(/\r\n|\r|\n/);
	const row = lines.length - 1;
	return { lines, row, col: lineLength(lines[row] ?? "") };
}

/** Replaces the whole content; cursor at the end. */
export function setText(_buffer: EditorBuffer, text: string): EditorBuffer {
	return fromText(text);
}

/** The text with lines joined by LF. */
export function getText(buffer: EditorBuffer): string {
	return buffer.lines.join("\n");
}

/** True when there is no text at all (whitespace counts as text). */
export function isEmpty(buffer: EditorBuffer): boolean {
	return buffer.lines.length === 1 && buffer.lines[0] === "";
}

/** The line the cursor is on. */
export function currentLine(buffer: EditorBuffer): string {
	return buffer.lines[buffer.row] ?? "";
}

/** The current line's text left of the cursor (what Tab completion looks at). */
export function textBeforeCursor(buffer: EditorBuffer): string {
	return graphemes(currentLine(buffer)).slice(0, buffer.col).join("");
}

/** Inserts text at the cursor; LF (or CR/CRLF) splits lines. The cursor ends after the text. */
export function insertText(buffer: EditorBuffer, text: string): EditorBuffer {
	if (text === "") return buffer;
	const [before, after] = splitAt(currentLine(buffer), buffer.col);
	const parts = text.split(/\r\n|\r|\n/);
	const last = parts.length - 1;
	const inserted = parts.map((part, index) => (index === 0 ? before + part : part));
	const tail = inserted[last] ?? "";
	inserted[last] = tail + after;
	return {
		lines: replaceLines(buffer.lines, buffer.row, 1, inserted),
		row: buffer.row + last,
		// Measured on the joined text so a combining mark typed after a letter merges into it.
		col: Math.min(lineLength(tail), lineLength(tail + after)),
	};
}

/** Deletes the character left of the cursor, joining with the previous line at column 0. */
export function backspace(buffer: EditorBuffer): EditorBuffer {
	const { row, col } = buffer;
	if (col > 0) {
		const chars = graphemes(currentLine(buffer));
		chars.splice(col - 1, 1);
		return { lines: replaceLines(buffer.lines, row, 1, [chars.join("")]), row, col: col - 1 };
	}
	if (row === 0) return buffer;
	const previous = buffer.lines[row - 1] ?? "";
	return {
		lines: replaceLines(buffer.lines, row - 1, 2, [previous + currentLine(buffer)]),
		row: row - 1,
		col: lineLength(previous),
	};
}

/** Deletes the character under the cursor, joining with the next line at the end of a line. */
export function deleteForward(buffer: EditorBuffer): EditorBuffer {
	const { row, col } = buffer;
	const chars = graphemes(currentLine(buffer));
	if (col < chars.length) {
		chars.splice(col, 1);
		return { lines: replaceLines(buffer.lines, row, 1, [chars.join("")]), row, col };
	}
	if (row >= buffer.lines.length - 1) return buffer;
	const joined = currentLine(buffer) + (buffer.lines[row + 1] ?? "");
	return { lines: replaceLines(buffer.lines, row, 2, [joined]), row, col };
}

/** One character left, wrapping to the end of the previous line. */
export function moveLeft(buffer: EditorBuffer): EditorBuffer {
	if (buffer.col > 0) return { ...buffer, col: buffer.col - 1 };
	if (buffer.row === 0) return buffer;
	return { ...buffer, row: buffer.row - 1, col: lineLength(buffer.lines[buffer.row - 1] ?? "") };
}

/** One character right, wrapping to the start of the next line. */
export function moveRight(buffer: EditorBuffer): EditorBuffer {
	if (buffer.col < lineLength(currentLine(buffer))) return { ...buffer, col: buffer.col + 1 };
	if (buffer.row >= buffer.lines.length - 1) return buffer;
	return { ...buffer, row: buffer.row + 1, col: 0 };
}

/** One line up, column clamped to that line; unchanged on the first line. */
export function moveUp(buffer: EditorBuffer): EditorBuffer {
	return moveToRow(buffer, buffer.row - 1);
}

/** One line down, column clamped to that line; unchanged on the last line. */
export function moveDown(buffer: EditorBuffer): EditorBuffer {
	return moveToRow(buffer, buffer.row + 1);
}

/** To the start of the previous word (or the end of the previous line from column 0). */
export function wordLeft(buffer: EditorBuffer): EditorBuffer {
	if (buffer.col === 0) return moveLeft(buffer);
	return { ...buffer, col: previousWordStart(graphemes(currentLine(buffer)), buffer.col) };
}

/** To the end of the next word (or the start of the next line from the end of a line). */
export function wordRight(buffer: EditorBuffer): EditorBuffer {
	const chars = graphemes(currentLine(buffer));
	if (buffer.col >= chars.length) return moveRight(buffer);
	let index = buffer.col;
	while (index < chars.length && !isWordChar(chars[index])) index++;
	while (index < chars.length && isWordChar(chars[index])) index++;
	return { ...buffer, col: index };
}

/** To column 0 of the current line. */
export function lineStart(buffer: EditorBuffer): EditorBuffer {
	return buffer.col === 0 ? buffer : { ...buffer, col: 0 };
}

/** To the end of the current line. */
export function lineEnd(buffer: EditorBuffer): EditorBuffer {
	const end = lineLength(currentLine(buffer));
	return buffer.col === end ? buffer : { ...buffer, col: end };
}

/** Ctrl+U: deletes from the start of the current line to the cursor. */
export function killToLineStart(buffer: EditorBuffer): EditorBuffer {
	if (buffer.col === 0) return buffer;
	const [, after] = splitAt(currentLine(buffer), buffer.col);
	return { lines: replaceLines(buffer.lines, buffer.row, 1, [after]), row: buffer.row, col: 0 };
}

/** Ctrl+W: deletes the word left of the cursor (joins lines at column 0, like Backspace). */
export function killWordLeft(buffer: EditorBuffer): EditorBuffer {
	if (buffer.col === 0) return backspace(buffer);
	const chars = graphemes(currentLine(buffer));
	const start = previousWordStart(chars, buffer.col);
	chars.splice(start, buffer.col - start);
	return { lines: replaceLines(buffer.lines, buffer.row, 1, [chars.join("")]), row: buffer.row, col: start };
}

function previousWordStart(chars: readonly string[], col: number): number {
	let index = col;
	while (index > 0 && !isWordChar(chars[index - 1])) index--;
	while (index > 0 && isWordChar(chars[index - 1])) index--;
	return index;
}

function moveToRow(buffer: EditorBuffer, row: number): EditorBuffer {
	if (row < 0 || row >= buffer.lines.length) return buffer;
	return { ...buffer, row, col: Math.min(buffer.col, lineLength(buffer.lines[row] ?? "")) };
}

function isWordChar(char: string | undefined): boolean {
	return char !== undefined && WORD.test(char);
}

function lineLength(line: string): number {
	return graphemes(line).length;
}

function splitAt(line: string, col: number): [string, string] {
	const chars = graphemes(line);
	return [chars.slice(0, col).join(""), chars.slice(col).join("")];
}

function replaceLines(
	lines: readonly string[],
	start: number,
	count: number,
	replacement: readonly string[],
): string[] {
	return [...lines.slice(0, start), ...replacement, ...lines.slice(start + count)];
}
