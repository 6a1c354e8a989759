import { open } from "node:fs/promises";
import { lineBatches } from "../session/line-scan.js";

/** Counts what the index reads from session files (tests prove refreshes read only appended bytes). */
export interface ReadStats {
	bytesRead: number;
	filesRead: number;
}

/** A complete line and the byte offset just past its newline. */
export interface FileLine {
	/** null: too long to decode (over `MAX_LINE_BYTES`). */
	line: string | null;
	next: number;
}

/** Exactly `length` bytes at `position` (fewer if the file is shorter). */
export async function readBytes(path: string, position: number, length: number, stats: ReadStats): Promise<Buffer> {
	const handle = await open(path, "r");
	try {
		const buffer = Buffer.alloc(length);
		const { bytesRead } = await handle.read(buffer, 0, length, position);
		stats.bytesRead += bytesRead;
		return buffer.subarray(0, bytesRead);
	} finally {
		await handle.close();
	}
}

/**
 * The newline-terminated lines of `[start, end)`, read in chunks by the session loader's line
 * reader (`lineBatches`), so a session of gigabytes is never held whole and a line too long to
 * decode comes as null. A last line without its newline may still be being written: it is not yielded.
 */
export async function* completeLines(
	path: string,
	start: number,
	end: number,
	stats: ReadStats,
): AsyncGenerator<FileLine> {
	const handle = await open(path, "r");
	stats.filesRead++;
	try {
		const readAt = async (position: number, length: number): Promise<Buffer> => {
			const chunk = Buffer.allocUnsafe(length);
			const { bytesRead } = await handle.read(chunk, 0, length, position);
			stats.bytesRead += bytesRead;
			return chunk.subarray(0, bytesRead);
		};
		// A blank line before the header counts: the index keeps it (and a BOM) in the header line.
		for await (const batch of lineBatches(readAt, end, { from: start, keepBom: true })) {
			for (const line of batch) {
				if (line.unterminated) return;
				yield { line: line.text, next: line.offset + line.length + 1 };
			}
		}
	} finally {
		await handle.close();
	}
}
