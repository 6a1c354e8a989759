import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ScanJob, scanInOrder } from "../../source/index/scan-pipeline.js";
import type { SessionScan } from "../../source/index/session-scan.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { writeSession } from "./session-fixtures.js";

function jobFor(path: string): ScanJob {
	const { size, mtimeMs, ino, birthtimeMs } = statSync(path);
	return { path, stat: { size, mtimeMs, ino, birthtimeMs }, base: undefined };
}

/** Texts as strings: the worker hands them over as UTF-8 bytes. */
function decoded(scan: SessionScan | Error): SessionScan | Error {
	if (scan instanceof Error || scan.kind !== "read") return scan;
	const texts = scan.texts.map((t) => ({
		...t,
		text: typeof t.text === "string" ? t.text : Buffer.from(t.text).toString(),
	}));
	return { ...scan, texts };
}

async function collect(jobs: ScanJob[], workerMinBytes: number) {
	const stats = { bytesRead: 0, filesRead: 0 };
	const out: unknown[] = [];
	const kinds: string[] = [];
	for await (const { job, scan } of scanInOrder(jobs, stats, workerMinBytes)) {
		out.push([job.path, decoded(scan)]);
		if (!(scan instanceof Error) && scan.kind === "read") kinds.push(typeof scan.texts[0]?.text);
	}
	return { out, stats, kinds };
}

describe("scanInOrder", () => {
	useTempAgentDir();

	it("gives the same scans, in order, from the worker thread as on the main thread, and reports a missing file", async () => {
		const paths: string[] = [];
		for (let i = 0; i < 5; i++) {
			paths.push(await writeSession(`/work/p${i}`, [userMessage(`question ${i}`), assistantMessage(`answer ${i}`)]));
		}
		const jobs = [...paths.map(jobFor), { ...jobFor(paths[0]!), path: "/nowhere/gone.jsonl" }];
		const local = await collect(jobs, Number.POSITIVE_INFINITY);
		const threaded = await collect(jobs, 0);
		expect(threaded.out.slice(0, 5)).toEqual(local.out.slice(0, 5));
		// The worker really ran: its texts arrive as bytes, the main thread's as strings.
		expect(threaded.kinds).toEqual(Array(5).fill("object"));
		expect(local.kinds).toEqual(Array(5).fill("string"));
		expect(threaded.stats).toEqual(local.stats);
		expect(local.out).toHaveLength(6);
		for (const { out } of [local, threaded]) {
			const [path, missing] = out[5] as [string, NodeJS.ErrnoException];
			expect([path, missing.code]).toEqual(["/nowhere/gone.jsonl", "ENOENT"]);
		}
	});
});
