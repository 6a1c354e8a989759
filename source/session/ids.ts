import { randomBytes } from "node:crypto";

let lastMs = 0;
let sequence = 0;

/**
 * A 16-hex-char session id that sorts by creation time: 12 hex of epoch milliseconds, then a
 * 4-hex sequence that starts at a random value each millisecond and increments within it.
 */
export function createSessionId(now: number = Date.now()): string {
	if (now <= lastMs) {
		sequence = (sequence + 1) & 0xffff;
		if (sequence === 0) lastMs += 1; // sequence wrapped: borrow the next millisecond to stay monotonic
	} else {
		lastMs = now;
		sequence = randomBytes(2).readUInt16BE(0) & 0x7fff;
	}
	return lastMs.toString(16).padStart(12, "0") + sequence.toString(16).padStart(4, "0");
}

/** An 8-hex-char entry id not yet in `taken`. */
export function createEntryId(taken: { has(id: string): boolean }): string {
	for (;;) {
		const id = randomBytes(4).toString("hex");
		if (!taken.has(id)) return id;
	}
}
