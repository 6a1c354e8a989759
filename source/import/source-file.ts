import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { type LineSource, readLine } from "./source-lines.js";

/*
 * A JSONL source read from its file a chunk at a time, so a source of any size is read in the
 * memory of one chunk and one line: its lines are the ones `forEachSourceLine` gives of the
 * file's whole text (a newline byte never occurs inside a UTF-8 character, so each line decodes
 * alone to what it is in the whole text).
 */

/** Bytes read at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * A line longer than this is not read (listed as unreadable): parsing it would take more memory
 * than the rest of the import, and a JavaScript string cannot hold much more. It is passed over
 * without being held.
 */
export const MAX_LINE_BYTES = 256 << 20;

/** The lines of a source file as a `LineSource` (read again from the start each time it is called). */
export function fileLines(path: string, maxLineBytes = MAX_LINE_BYTES): LineSource {
	return (each) => {
		const badLines: number[] = [];
		const fd = openSync(path, "r");
		try {
			const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
			let number = 0;
			/** A line begun in an earlier chunk: its text so far, decoded piece by piece (its bytes are not kept). */
			let partial: string | undefined;
			let partialBytes = 0;
			const decoder = new StringDecoder("utf8");
			const endLine = (tail: Buffer) => {
				number++;
				if (partial === undefined) return readLine(tail.toString("utf8"), number, each, badLines);
				const long = partialBytes + tail.length > maxLineBytes;
				const raw = long ? "" : partial + decoder.write(tail) + decoder.end();
				if (long) decoder.end();
				partial = undefined;
				partialBytes = 0;
				if (long) badLines.push(number);
				else readLine(raw, number, each, badLines);
			};
			for (let n = readSync(fd, chunk, 0, CHUNK_BYTES, null); n > 0; n = readSync(fd, chunk, 0, CHUNK_BYTES, null)) {
				const data = chunk.subarray(0, n);
				let start = 0;
				for (let end = data.indexOf(10, start); end >= 0; end = data.indexOf(10, start)) {
					if (partial === undefined) {
						number++;
						readLine(data.toString("utf8", start, end), number, each, badLines);
					} else endLine(data.subarray(start, end));
					start = end + 1;
				}
				if (start < n) {
					const piece = data.subarray(start, n);
					partialBytes += piece.length;
					// Past the limit the line is only counted to its end.
					if (partialBytes > maxLineBytes) partial = "";
					else partial = (partial ?? "") + decoder.write(piece);
				}
			}
			if (partial !== undefined) endLine(Buffer.alloc(0));
		} finally {
			closeSync(fd);
		}
		return badLines;
	};
}

/** The first line of a file (at most `maxBytes` of it), as text; "" for an empty file. */
export function firstLineOf(path: string, maxBytes = 1 << 20): string {
	const fd = openSync(path, "r");
	try {
		const buffer = Buffer.allocUnsafe(maxBytes);
		let read = 0;
		while (read < maxBytes) {
			const n = readSync(fd, buffer, read, maxBytes - read, null);
			if (n === 0) break;
			const newline = buffer.subarray(read, read + n).indexOf(10);
			read += n;
			if (newline >= 0) break;
		}
		const data = buffer.subarray(0, read);
		const end = data.indexOf(10);
		return data.toString("utf8", 0, end < 0 ? read : end);
	} finally {
		closeSync(fd);
	}
}
