import { open } from "node:fs/promises";

/** Counts what the index reads from session files (tests prove refreshes read only appended bytes). */
export interface ReadStats {
	bytesRead: number;
	filesRead: number;
}

/** A complete line and the byte offset just past its newline. */
export interface FileLine {
	line: string;
	next: number;
}

const CHUNK_BYTES = 4 << 20;
const NEWLINE = 0x0a;

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
 * The newline-terminated lines of `[start, end)`, read in chunks so a session of hundreds of MB is
 * never held whole. A last line without its newline may still be being written: it is not yielded.
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
		let position = start;
		let carry = Buffer.alloc(0);
		let carryStart = start;
		while (position < end) {
			const want = Math.min(CHUNK_BYTES, end - position);
			const chunk = Buffer.allocUnsafe(want);
			const { bytesRead } = await handle.read(chunk, 0, want, position);
			if (bytesRead === 0) break;
			stats.bytesRead += bytesRead;
			position += bytesRead;
			const data =
				carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
			let from = 0;
			// Splitting on the 0x0a byte is safe in UTF-8: it never occurs inside a multi-byte character.
			for (let nl = data.indexOf(NEWLINE, from); nl >= 0; nl = data.indexOf(NEWLINE, from)) {
				yield { line: data.toString("utf8", from, nl), next: carryStart + nl + 1 };
				from = nl + 1;
			}
			carryStart += from;
			carry = Buffer.from(data.subarray(from));
		}
	} finally {
		await handle.close();
	}
}
