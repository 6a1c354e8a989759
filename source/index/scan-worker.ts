// A worker thread that reads and parses session files while the main thread writes the index:
// parsing and FTS insertion cost about the same, so a cold build runs twice as fast on two cores.
import { parentPort } from "node:worker_threads";
import type { ScanReply, ScanRequest } from "./scan-pipeline.js";
import { type SessionScan, scanSessionFile } from "./session-scan.js";

/** The scan with every text as a view into one buffer, and that buffer to transfer (not copy). */
function packed(scan: SessionScan): { scan: SessionScan; transfer: ArrayBuffer[] } {
	if (scan.kind !== "read") return { scan, transfer: [] };
	let total = 0;
	for (const text of scan.texts)
		total += typeof text.text === "string" ? Buffer.byteLength(text.text) : text.text.length;
	const block = Buffer.from(new ArrayBuffer(total));
	let at = 0;
	const texts = scan.texts.map((text) => {
		let length: number;
		if (typeof text.text === "string") length = block.write(text.text, at);
		else {
			block.set(text.text, at);
			length = text.text.length;
		}
		const view = new Uint8Array(block.buffer, at, length);
		at += length;
		return { ...text, text: view };
	});
	return { scan: { ...scan, texts }, transfer: [block.buffer] };
}

async function answer(request: ScanRequest): Promise<{ reply: ScanReply; transfer: ArrayBuffer[] }> {
	const stats = { bytesRead: 0, filesRead: 0 };
	try {
		const { scan, transfer } = packed(await scanSessionFile(request.path, request.stat, request.base, stats));
		return { reply: { id: request.id, scan, stats }, transfer };
	} catch (error) {
		const { message, code } = error as NodeJS.ErrnoException;
		return { reply: { id: request.id, error: { message, code }, stats }, transfer: [] };
	}
}

// One file at a time, in the order asked: the writer consumes in order, so finishing the first
// file first keeps it busy (interleaving reads would delay every answer).
let queue: Promise<void> = Promise.resolve();
parentPort?.on("message", (request: ScanRequest) => {
	queue = queue.then(async () => {
		const { reply, transfer } = await answer(request);
		parentPort?.postMessage(reply, transfer);
	});
});
