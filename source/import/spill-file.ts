import { randomBytes } from "node:crypto";
import { closeSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "../private-files.js";

/** Bytes copied out of a spill file at a time. */
const COPY_BYTES = 4 << 20;

/**
 * Bytes put aside on disk while a big session is built, to be copied into its file once its
 * first lines (which need the whole source) are known. The file is unlinked as soon as it is
 * opened: only its descriptor refers to it, so nothing is left behind, whatever ends the process.
 */
export class SpillFile {
	readonly #fd: number;
	#size = 0;
	#closed = false;
	#copyBuffer: Buffer | undefined;

	constructor() {
		const path = join(tmpdir(), `xcsh-import-${process.pid}-${randomBytes(6).toString("hex")}.spill`);
		this.#fd = openSync(path, "wx+", PRIVATE_FILE_MODE);
		unlinkSync(path);
	}

	/** Bytes in the file. */
	get size(): number {
		return this.#size;
	}

	/** Appends bytes. */
	append(bytes: Uint8Array): void {
		// A write may take fewer bytes than given: loop until all are in.
		for (let at = 0; at < bytes.length; ) at += writeSync(this.#fd, bytes, at, bytes.length - at, this.#size + at);
		this.#size += bytes.length;
	}

	/** Hands the bytes at [from, to) to `put`, a few MB at a time, in one buffer reused (`put` must be done with it when it returns). */
	copy(from: number, to: number, put: (bytes: Uint8Array) => void): void {
		this.#copyBuffer ??= Buffer.allocUnsafeSlow(COPY_BYTES);
		for (let at = from; at < to; ) {
			const piece = this.#copyBuffer.subarray(0, Math.min(COPY_BYTES, to - at));
			let filled = 0;
			while (filled < piece.length) {
				const n = readSync(this.#fd, piece, filled, piece.length - filled, at + filled);
				if (n === 0) throw new Error("the import's spill file ended early");
				filled += n;
			}
			put(piece);
			at += piece.length;
		}
	}

	/** Closes (and so removes) the file; again, nothing. */
	close(): void {
		if (this.#closed) return;
		this.#closed = true;
		closeSync(this.#fd);
	}
}
