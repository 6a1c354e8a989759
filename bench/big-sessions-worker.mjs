/**
 * One measurement in a fresh plain-node process (no tsx, no xcsh code), spawned by bench/big-sessions.ts:
 *   node bench/big-sessions-worker.mjs floor <session.jsonl>
 *   node bench/big-sessions-worker.mjs pi <pi install dir> <session.jsonl>
 * Prints one JSON line: { ms, maxRssBytes, entries } or { error } (the error's first line).
 */
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The streaming floor: 1 MiB chunks, lines cut at \n as bytes, each line decoded and JSON.parsed, then dropped. */
async function streamParse(file) {
	let entries = 0;
	let carry = Buffer.alloc(0);
	for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
		let data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
		let from = 0;
		for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10, from)) {
			if (nl > from) {
				JSON.parse(data.toString("utf8", from, nl));
				entries++;
			}
			from = nl + 1;
		}
		data = data.subarray(from);
		carry = Buffer.from(data);
	}
	if (carry.length > 0) {
		JSON.parse(carry.toString("utf8"));
		entries++;
	}
	return entries - 1;
}

/** pi-coding-agent's SessionManager.open (synchronous: it reads the file whole). */
async function piOpen(piDir, file) {
	const module = join(piDir, "node_modules/@mariozechner/pi-coding-agent/dist/core/session-manager.js");
	const { SessionManager } = await import(pathToFileURL(module).href);
	const started = performance.now();
	const manager = SessionManager.open(file);
	const ms = performance.now() - started;
	return { ms, entries: manager.getEntries().length };
}

const [mode, ...args] = process.argv.slice(2);
let result;
try {
	if (mode === "floor") {
		const started = performance.now();
		const entries = await streamParse(args[0]);
		result = { ms: performance.now() - started, entries };
	} else if (mode === "pi") {
		result = await piOpen(args[0], args[1]);
	} else {
		throw new Error(`unknown mode ${mode}: floor or pi`);
	}
	result.maxRssBytes = process.resourceUsage().maxRSS * 1024;
} catch (error) {
	const message = error instanceof Error ? error.message : String(error);
	result = { error: message.split("\n")[0] };
}
process.stdout.write(`${JSON.stringify(result)}\n`);
