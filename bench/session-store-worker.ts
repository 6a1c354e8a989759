/**
 * One measurement in a fresh process, spawned by bench/session-store.ts:
 *   node --import tsx bench/session-store-worker.ts <mode> <args…>
 * Prints one JSON line: { ms, rssBeforeBytes, maxRssBytes, … }. Every mode imports the same modules, so
 * the process baseline (node + tsx + the session store) is the same for xcsh and for the floor.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { listProjectSessions } from "../source/index/session-listing.js";
import { getRecentSessions } from "../source/session/session-discovery.js";
import { SessionManager } from "../source/session/session-manager.js";
import { FileSessionStorage } from "../source/session/session-storage.js";
import { generateMessages } from "./generate-sessions.js";

type Result = Record<string, number | string>;

/** Kept alive until the end so the measured work's memory is not collected before maxRSS is read. */
let keep: unknown;

/**
 * Linux: resets the kernel's RSS high-water mark to the current RSS, so maxRSS read after the work is
 * the peak during the work rather than a startup peak (tsx compiling the sources). Elsewhere: no-op.
 */
function resetPeakRss(): number {
	try {
		writeFileSync("/proc/self/clear_refs", "5");
		return 1;
	} catch {
		return 0;
	}
}

async function measure(work: () => Promise<Result>): Promise<Result> {
	const peakReset = resetPeakRss();
	const rssBeforeBytes = process.memoryUsage.rss();
	const start = performance.now();
	const extra = await work();
	const ms = performance.now() - start;
	const maxRssBytes = process.resourceUsage().maxRSS * 1024;
	return { ms, rssBeforeBytes, maxRssBytes, peakReset, ...extra };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The floor of open: read the text, split lines, JSON.parse each one. */
async function parseFloor(file: string): Promise<unknown[]> {
	const text = await readFile(file, "utf8");
	const values: unknown[] = [];
	for (const line of text.split("\n")) if (line.length > 0) values.push(JSON.parse(line));
	return values;
}

const modes: Record<string, (args: string[]) => Promise<Result>> = {
	"open-xcsh": ([file]) =>
		measure(async () => {
			const manager = await SessionManager.open(file!);
			keep = manager;
			return { entries: manager.getEntries().length };
		}),

	"open-floor": ([file]) =>
		measure(async () => {
			const values = await parseFloor(file!);
			keep = values;
			return { entries: values.length - 1 };
		}),

	/** Median of `calls` buildSessionContext() calls after `warmup` calls, on one opened session. */
	context: async ([file, calls = "21", warmup = "5"]) => {
		const manager = await SessionManager.open(file!);
		for (let i = 0; i < Number(warmup); i++) keep = manager.buildSessionContext();
		const samples: number[] = [];
		for (let i = 0; i < Number(calls); i++) {
			const start = performance.now();
			keep = manager.buildSessionContext();
			samples.push(performance.now() - start);
		}
		const context = manager.buildSessionContext();
		const depth = manager.getBranch().length;
		return { ms: median(samples), min: Math.min(...samples), messages: context.messages.length, depth };
	},

	"append-xcsh": async ([file, count = "1000"]) => {
		const messages = generateMessages(Number(count));
		const manager = await SessionManager.open(file!);
		const result = await measure(async () => {
			for (const message of messages) manager.appendMessage(message);
			await manager.flush();
			return {};
		});
		await manager.close();
		return { ...result, entries: manager.getEntries().length };
	},

	/** The floor of appends: JSON.stringify each entry, one appendFile of all lines, one fsync. */
	"append-floor": async ([file, count = "1000"]) => {
		const messages = generateMessages(Number(count));
		const values = (await parseFloor(file!)) as { id: string }[];
		let parentId = values[values.length - 1]!.id;
		let counter = 0x10000000;
		const result = await measure(async () => {
			const lines: string[] = [];
			for (const message of messages) {
				const id = (counter++).toString(16);
				lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: new Date().toISOString(), message }));
				parentId = id;
			}
			const handle = await open(file!, "a");
			await handle.appendFile(`${lines.join("\n")}\n`);
			await handle.sync();
			keep = handle;
			return {};
		});
		await (keep as Awaited<ReturnType<typeof open>>).close();
		return { ...result, entries: values.length - 1 + messages.length };
	},

	"recent-xcsh": ([dir, limit = "50"]) => {
		const storage = new FileSessionStorage();
		return measure(async () => {
			const recent = await getRecentSessions(dir!, Number(limit), storage);
			keep = recent;
			return { sessions: recent.length };
		});
	},

	/** The floor of listing: the first 4 KB of every file, and its first line parsed. */
	"recent-floor": ([dir]) =>
		measure(async () => {
			const buffer = Buffer.allocUnsafe(4096);
			const headers: unknown[] = [];
			for (const name of readdirSync(dir!)) {
				if (!name.endsWith(".jsonl")) continue;
				const fd = openSync(join(dir!, name), "r");
				const bytes = readSync(fd, buffer, 0, 4096, 0);
				closeSync(fd);
				const text = buffer.toString("utf8", 0, bytes);
				headers.push(JSON.parse(text.slice(0, text.indexOf("\n"))));
			}
			keep = headers;
			return { sessions: headers.length };
		}),

	"list-xcsh": ([dir, cwd = "/home/dev/project"]) =>
		measure(async () => {
			const sessions = await listProjectSessions(cwd, dir!);
			keep = sessions;
			return { sessions: sessions.length };
		}),

	/** The floor of a full listing: read every file whole, split lines, parse the header. */
	"list-floor": ([dir]) =>
		measure(async () => {
			const headers: unknown[] = [];
			let lines = 0;
			for (const name of readdirSync(dir!)) {
				if (!name.endsWith(".jsonl")) continue;
				const split = readFileSync(join(dir!, name), "utf8").split("\n");
				lines += split.length;
				headers.push(JSON.parse(split[0]!));
			}
			keep = headers;
			return { sessions: headers.length, lines };
		}),
};

const [mode = "", ...args] = process.argv.slice(2);
const run = modes[mode];
if (!run) throw new Error(`unknown mode ${mode}; one of ${Object.keys(modes).join(", ")}`);
const result = await run(args);
process.stdout.write(`${JSON.stringify({ mode, ...result, kept: keep === undefined ? 0 : 1 })}\n`);
